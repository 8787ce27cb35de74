/**
 * The code `evals init` writes type-checks in a user's strict TypeScript project, whatever the
 * starter: `tsc --noEmit` over the whole project (its JavaScript too, with `checkJs`) must not
 * fail because of the files init added, under the options strict projects turn on.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { STARTERS, type StarterName } from '../src/cli/init-templates.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { consumerTsconfig, typeErrors } from './helpers/consumer-typecheck.ts';
import { runInProcess } from './helpers/in-process.ts';

/** Options beyond `strict` that projects (Angular's defaults, @tsconfig/strictest) set. */
const STRICTEST = {
  verbatimModuleSyntax: true,
  noPropertyAccessFromIndexSignature: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitReturns: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noFallthroughCasesInSwitch: true,
  allowJs: true,
  checkJs: true,
  skipLibCheck: true,
};

describe('evals init in a strict TypeScript project', () => {
  for (const name of Object.keys(STARTERS) as StarterName[]) {
    const code = Object.keys(STARTERS[name].files).filter((file) => /\.(?:ts|mjs)$/.test(file));
    if (code.length === 0) continue;
    it(`${name}: ${code.join(', ')} type-check`, () => {
      const project = scratch();
      writeFiles(project, {
        ...STARTERS[name].files,
        'package.json': '{ "private": true, "type": "module" }\n',
        // The types the starters import live in src/types (which imports nothing).
        'tsconfig.json': consumerTsconfig(code, ['types', 'index.ts'], STRICTEST),
      });
      assert.equal(typeErrors(project), '');
    });
  }
});

describe('evals init in a CommonJS package (no "type": "module")', () => {
  it('writes .mts, which type-checks under verbatimModuleSyntax, and the run passes', async () => {
    const dir = scratch();
    writeFiles(dir, { 'package.json': '{ "name": "app", "version": "1.0.0" }\n' });
    const init = await runInProcess(['init'], dir);
    assert.equal(init.code, 0, init.stderr);
    assert.match(init.stdout, /^ {2}app\/answer\.mts\n {2}evaluators\/polite\.mts$/m);
    assert.match(
      readFileSync(join(dir, 'evals.yaml'), 'utf8'),
      /function: \.\/app\/answer\.mts#answer/,
    );
    const code = ['app/answer.mts', 'evaluators/polite.mts'];
    writeFiles(dir, {
      'tsconfig.json': consumerTsconfig(code, ['types', 'index.ts'], {
        verbatimModuleSyntax: true,
      }),
    });
    assert.equal(typeErrors(dir), '');
    const run = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(run.code, 0, run.stdout + run.stderr);
  });

  it('an ES-module package, like a folder in none, gets .ts', async () => {
    const dir = scratch();
    writeFiles(dir, { 'package.json': '{ "type": "module" }\n' });
    assert.equal((await runInProcess(['init'], dir)).code, 0);
    assert.ok(existsSync(join(dir, 'app', 'answer.ts')));
  });
});
