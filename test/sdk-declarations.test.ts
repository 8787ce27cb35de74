/**
 * The shipped declarations (lib/, built by `npm run build`) as a consumer's compiler sees them:
 * no relative `.ts` specifiers (TypeScript before 5.x's `rewriteRelativeImportExtensions`
 * refuses them), and a suite written against `evalgate/testing` type-checks under `--strict`, as
 * do plain evaluators taking their `with:` options (`EvaluatorFn`'s second parameter).
 * (Checked by hand under TypeScript 4.9, 5.0 and 5.4 with `npx -p typescript@<v> tsc`.)
 */
import assert from 'node:assert/strict';
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from './helpers/cli.ts';
import { shippedConsumer, typeCheckShipped } from './helpers/consumer-typecheck.ts';

const lib = join(repoRoot, 'lib');

describe('the shipped declarations', () => {
  it('use no relative .ts specifiers', () => {
    const offending = readdirSync(lib, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.d.ts'))
      .map((entry) => join(entry.parentPath, entry.name))
      .filter((path) =>
        /(?:from|import)\s*\(?\s*['"]\.{1,2}\/[^'"]*\.ts['"]/.test(readFileSync(path, 'utf8')),
      );
    assert.deepEqual(offending, []);
    assert.ok(
      readFileSync(join(lib, 'testing.d.ts'), 'utf8').includes("'./api/run-test-suite.js'"),
    );
  });

  it('let a strict consumer of evalgate/testing type-check', { timeout: 120_000 }, () => {
    const project = shippedConsumer();
    cpSync(
      join(repoRoot, 'test', 'fixtures', 'sdk-consumer', 'quickstart.ts'),
      join(project, 'quickstart.ts'),
    );
    writeFileSync(
      join(project, 'options.ts'),
      [
        "import type { EvaluatorFn } from 'evalgate';",
        'interface Options { max: number }',
        'export const annotated: EvaluatorFn<{ q: string }, string> = ({ output }, options: { max: number }) =>',
        '  ({ score: output.length < options.max ? 1 : 0 });',
        'export const typed: EvaluatorFn<{ q: string }, string, Options> = ({ output }, { max }) =>',
        '  ({ score: output.length < max ? 1 : 0 });',
        'export const ignoring: EvaluatorFn<{ q: string }, string> = ({ output }) => ({ score: output ? 1 : 0 });',
        '',
      ].join('\n'),
    );
    // Throws with the compiler's messages when the consumer does not type-check.
    typeCheckShipped(project, ['quickstart.ts', 'options.ts']);
  });
});
