/**
 * The typing findings of QA round 5, checked by the compiler a consumer runs: read-only test
 * cases and hash lists (D10), metadata typed by an interface (D12), and `evalgate/testing`
 * under `moduleResolution: node10` (D11, through `typesVersions`; it reads the built lib/ as
 * sdk-declarations.test.ts does).
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot, scratch, writeFiles } from './helpers/cli.ts';
import { suiteTypeErrors, typeErrors } from './helpers/consumer-typecheck.ts';

const SUITE = `import { runTestSuite, BaseTestEvaluator, type Evaluation } from 'evalgate';

interface C {
  input: string;
  expected: string;
}
interface Why {
  reason: string;
  missing: string[];
}

const HASH = ['input'] as const;
const CASES: readonly C[] = [{ input: 'a', expected: 'A' }];

class Upper extends BaseTestEvaluator<C, string> {
  id = 'upper';
  evaluateTestCase({ testCase, output }: { testCase: C; output: string }): Evaluation {
    const why: Why = { reason: 'compared', missing: [] };
    return { score: output === testCase.expected ? 1 : 0, metadata: why };
  }
}

export const run = (): Promise<unknown> =>
  runTestSuite<C, string>({
    id: 'readonly',
    testCases: CASES,
    testCaseHash: HASH,
    fn: ({ testCase }) => testCase.input.toUpperCase(),
    evaluators: [new Upper()] as const,
  });
`;

describe('typing (QA round 5)', () => {
  it('D10, D12: read-only cases and hash fields, interface metadata', { timeout: 120_000 }, () => {
    assert.equal(suiteTypeErrors(SUITE), '');
  });

  it('D11: evalgate/testing resolves under moduleResolution node10', { timeout: 120_000 }, () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
      typesVersions?: Record<string, Record<string, string[]>>;
    };
    // Every subpath export with types has its typesVersions entry.
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      const types = (target as { types?: string }).types;
      if (subpath === '.' || types === undefined) continue;
      assert.deepEqual(pkg.typesVersions?.['*']?.[subpath.slice(2)], [types], subpath);
    }
    const project = scratch();
    mkdirSync(join(project, 'node_modules'), { recursive: true });
    symlinkSync(repoRoot, join(project, 'node_modules', 'evalgate'), 'dir');
    writeFiles(project, {
      'package.json': '{ "private": true }\n',
      'run.ts': `import { runTestSuite, BaseIsEquals } from 'evalgate/testing';
import { BaseTestEvaluator } from 'evalgate';
export const parts = [runTestSuite, BaseIsEquals, BaseTestEvaluator];
`,
      'tsconfig.json': JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'commonjs',
          moduleResolution: 'node10',
          ignoreDeprecations: '6.0',
          target: 'es2022',
          types: ['node'],
          typeRoots: [join(repoRoot, 'node_modules', '@types')],
          skipLibCheck: true,
        },
        files: ['run.ts'],
      }),
    });
    assert.equal(typeErrors(project), '');
  });
});
