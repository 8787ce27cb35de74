import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot, runNode, scratch, writeFiles } from './helpers/cli.ts';

describe('the npm package', () => {
  it(
    'installs from its tarball into a fresh project where npx evals run works',
    { timeout: 240_000 },
    () => {
      const packDir = scratch();
      // --ignore-scripts: lib/ is already built by `npm test`; rebuilding it here would pull it
      // from under the other test files running in parallel.
      const packed = execFileSync(
        'npm',
        ['pack', '--ignore-scripts', '--pack-destination', packDir],
        // npm pack lists every file on stderr; keep the test output readable.
        { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const tarball = join(packDir, packed.trim().split('\n').pop() ?? '');
      assert.ok(existsSync(tarball), tarball);

      const project = scratch();
      writeFiles(project, {
        'package.json': JSON.stringify({ name: 'fresh-project', private: true, type: 'module' }),
        'evals.yaml': `version: 1
suites:
  - id: fresh
    testset:
      cases:
        - { name: Ada }
        - { name: Grace }
    function: ./greet.ts#greet
    evaluators:
      - { id: polite, use: ./polite.ts#Polite, threshold: { gte: 1 } }
      - { id: named, use: contains, with: { values: ["{{case.name}}"] } }
`,
        'greet.ts': `export const greet = ({ testCase }: { testCase: { name: string } }): string => \`Hello, \${testCase.name}!\`;\n`,
        'polite.ts': `import { BaseTestEvaluator, type Evaluation } from 'evalgate';

export class Polite extends BaseTestEvaluator<{ name: string }, string> {
  id = 'polite';
  evaluateTestCase({ output }: { output: string }): Evaluation {
    return { score: output.startsWith('Hello') ? 1 : 0 };
  }
}
`,
      });
      const install = spawnSync(
        'npm',
        ['install', '--no-audit', '--no-fund', '--prefer-offline', '--save-dev', tarball],
        { cwd: project, encoding: 'utf8' },
      );
      assert.equal(install.status, 0, install.stderr);
      // What the CLI never loads (the Action's GitHub client) is bundled into dist/, not installed.
      assert.doesNotMatch(install.stderr, /EBADENGINE|npm warn deprecated/);
      const size = Number(
        execFileSync('du', ['-sk', 'node_modules'], { cwd: project, encoding: 'utf8' }).split(
          '\t',
        )[0],
      );
      assert.ok(size <= 25 * 1024, `node_modules is ${(size / 1024).toFixed(1)} MB, over 25 MB`);
      assert.ok(
        !existsSync(join(project, 'node_modules', '@actions')),
        '@actions/* is not installed',
      );

      const installed = join(project, 'node_modules', 'evalgate');
      assert.ok(
        existsSync(join(installed, 'schemas', 'evals.schema.json')),
        'ships schemas/evals.schema.json',
      );
      assert.ok(
        existsSync(join(installed, 'schemas', 'results.schema.json')),
        'ships schemas/results.schema.json',
      );
      assert.ok(existsSync(join(installed, 'lib', 'index.d.ts')), 'ships type declarations');
      assert.ok(!readdirSync(installed).includes('test'), 'does not ship the tests');

      const run = spawnSync('npx', ['evals', 'run', '-o', 'out.json'], {
        cwd: project,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      });
      assert.equal(run.status, 0, run.stderr + run.stdout);
      const artifact = JSON.parse(readFileSync(join(project, 'out.json'), 'utf8')) as {
        verdict: string;
        runs: { summary: { passed: number } }[];
      };
      assert.equal(artifact.verdict, 'pass');
      assert.equal(artifact.runs[0]?.summary.passed, 2);
    },
  );
});

describe('the tarball', () => {
  it('lists every file a user needs', () => {
    const listed = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: repoRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const files = new Set(
      (JSON.parse(listed) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path),
    );
    for (const needed of [
      'LICENSE',
      'README.md',
      'package.json',
      'bin/evals.js',
      'lib/index.js',
      'lib/index.d.ts',
      'lib/cli.bundle.js',
      'schemas/evals.schema.json',
      'schemas/results.schema.json',
    ]) {
      assert.ok(files.has(needed), `the tarball lacks ${needed}`);
    }
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    for (const field of ['repository', 'homepage', 'bugs', 'keywords', 'license']) {
      assert.ok(pkg[field] !== undefined, `package.json has no ${field}`);
    }
  });
});

describe('the programmatic API', () => {
  it(
    'runs a suite written for the Autoblocks SDK, changing only its import',
    { timeout: 180_000 },
    async () => {
      // The example pauses up to a second a call, as the quickstart does (~45 s in all at five
      // judge calls at once). Its timers run 100 times faster here: what is checked is what the
      // suite reports, and the example stays as a user would copy it.
      const dir = scratch();
      writeFiles(dir, {
        'fast-timers.mjs':
          'const { setTimeout: later } = globalThis;\n' +
          'globalThis.setTimeout = (fn, ms = 0, ...args) => later(fn, ms / 100, ...args);\n',
      });
      const r = await runNode(
        [
          '--import',
          join(dir, 'fast-timers.mjs'),
          '--import',
          'tsx',
          join(repoRoot, 'examples/autoblocks-quickstart/run.ts'),
        ],
        {
          cwd: repoRoot,
          timeoutMs: 170_000,
        },
      );
      // About one case in five drops a substring, so the default gate (every case passes) fails.
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stdout, /my-test-suite/);
      assert.match(r.stdout, /has-all-substrings/);
      assert.match(r.stdout, /is-friendly/);
      assert.match(r.stdout, /400/);
      assert.match(r.stderr, /400\/400/, 'progress reaches 400/400');
    },
  );
});
