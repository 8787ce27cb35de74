/**
 * `evals run --dry-run` refuses (exit 2) what `validate` and `run` refuse before their first
 * case and that needs no user module imported: a target's prompt files, `cwd`, program and URL,
 * a built-in judge without a model, and a module file that is not there. A module that is there
 * is still never imported (its top level may do anything).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

/** `evals run --dry-run` and `evals validate` in `dir`. */
async function both(dir: string, env: Record<string, string> = {}) {
  const dry = await runInProcess(['run', '--dry-run'], dir, env);
  const validate = await runInProcess(['validate'], dir, env);
  return { dry, validate };
}

/** Both refuse, each saying `pattern`, and the dry run prints no plan. */
async function refusedByBoth(dir: string, pattern: RegExp, env: Record<string, string> = {}) {
  const { dry, validate } = await both(dir, env);
  assert.equal(validate.code, 2, validate.stderr);
  assert.match(validate.stderr, pattern);
  assert.equal(dry.code, 2, `dry run: ${dry.stdout}`);
  assert.match(dry.stderr, pattern);
  assert.equal(dry.stdout, '');
}

const ROWS = [{ q: 'a' }];

describe('evals run --dry-run checks what needs no module imported', () => {
  it('a prompt file missing for one grid point', async () => {
    const dir = jsonlProject(
      ROWS,
      [
        'grid: { prompt: [prompts/a.md, prompts/b.md] }',
        'target:',
        '  type: model',
        '  baseUrl: http://127.0.0.1:8/v1',
        '  model: m',
        '  prompt: { file: "{{params.prompt}}" }',
      ],
      { 'prompts/a.md': 'Q: {{case.q}}\n' },
    );
    await refusedByBoth(dir, /prompts\/b\.md/);
  });

  it("a command's missing cwd, and a program not on PATH", async () => {
    const cwdDir = jsonlProject(ROWS, ['target: { type: command, run: [echo, hi], cwd: nowhere }']);
    await refusedByBoth(cwdDir, /target\.cwd: working folder .*nowhere does not exist/);
    const pathDir = jsonlProject(ROWS, [
      'target: { type: command, run: [no-such-program-evalgate-qa, hi] }',
    ]);
    await refusedByBoth(pathDir, /no-such-program-evalgate-qa is not on PATH/);
  });

  it('an HTTP URL without a scheme', async () => {
    const dir = jsonlProject(ROWS, ['target: { type: http, url: "${HOST_PART}/x" }']);
    await refusedByBoth(dir, /expected an http:\/\/ or https:\/\/ URL/, {
      HOST_PART: 'example.com',
    });
  });

  it('a judge evaluator with no model', async () => {
    const dir = jsonlProject(ROWS, [
      'target: { type: command, run: [echo, hi] }',
      'evaluators:',
      '  - use: llm-judge',
      '    with: { prompt: "ok? {{output}}", choices: { "yes": 1, "no": 0 } }',
    ]);
    await refusedByBoth(dir, /llm-judge needs a model/);
  });

  it('module files that are not there: a function, an evaluator, a pass condition', async () => {
    const dir = jsonlProject(ROWS, [
      'function: ./missing-fn.ts#answer',
      'evaluators:',
      '  - use: ./missing-eval.ts#score',
      'pass: ./missing-pass.ts#pass',
    ]);
    const { dry, validate } = await both(dir);
    assert.equal(validate.code, 2);
    assert.equal(dry.code, 2, dry.stdout);
    for (const name of ['missing-fn.ts', 'missing-eval.ts', 'missing-pass.ts']) {
      assert.match(dry.stderr, new RegExp(`module not found: \\./${name.replace('.', '\\.')}`));
    }
    assert.match(dry.stderr, /3 problems found/);
  });

  it('imports none of the modules that are there (isolation: worker too), reporting the one that is not', async () => {
    const touch = (name: string): string =>
      `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(name)}, 'yes');\n`;
    const dir = jsonlProject(
      ROWS,
      [
        'function: ./fn.mjs#answer',
        'isolation: worker',
        'timeout: 10s',
        'evaluators:',
        '  - use: ./ev.mjs#score',
        '  - { use: ./gone.mjs#score, id: gone }',
        'pass: ./pass.mjs#pass',
      ],
      {
        'fn.mjs': `${touch('fn-imported')}export const answer = () => 'x';\n`,
        'ev.mjs': `${touch('ev-imported')}export const score = () => ({ score: 1 });\n`,
        'pass.mjs': `${touch('pass-imported')}export const pass = () => true;\n`,
      },
    );
    const dry = await runInProcess(['run', '--dry-run'], dir);
    assert.equal(dry.code, 2, dry.stdout);
    assert.match(dry.stderr, /^error: .*evaluators\[1\]\.use: module not found: \.\/gone\.mjs/m);
    assert.equal(dry.stderr.split('\n').filter((line) => line.startsWith('error:')).length, 1);
    for (const file of ['fn-imported', 'ev-imported', 'pass-imported']) {
      assert.equal(existsSync(join(dir, file)), false, `${file}: the dry run imported it`);
    }
  });
});
