/**
 * Reading what a module exports runs its code: a getter of an evaluator class (`get
 * maxConcurrency() { return this.opts.limit; }`, with `opts` never set), a Proxy's traps. A
 * throw there is a mistake in the module, reported as a config problem at the `use:`,
 * `function:` or `pass:` that names it (exit 2, one line, no stack trace), as a constructor
 * that throws is: it crashed `evals run` and `evals validate` with a stack trace (exit 1).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.ts';
import { suiteProject } from './helpers/suite-project.ts';

/** A suite scoring its rows' `output` with the evaluator `ev.mjs` exports as `Ev`. */
function evaluatorProject(module: string): string {
  return suiteProject(
    [
      'testset: { cases: [ { output: a } ] }',
      'evaluators:',
      '  - { id: ev, use: ./ev.mjs#Ev, threshold: { gte: 0.5 } }',
    ],
    { 'ev.mjs': module },
  );
}

/** A Proxy whose every trap throws, as a module would export it. */
const HOSTILE_PROXY =
  "new Proxy({}, { get() { throw new Error('trap get'); }, has() { throw new Error('trap has'); }, getPrototypeOf() { throw new Error('trap getPrototypeOf'); }, ownKeys() { throw new Error('trap ownKeys'); }, getOwnPropertyDescriptor() { throw new Error('trap descriptor'); } })";

async function refused(dir: string, line: RegExp): Promise<void> {
  for (const command of [['validate'], ['run', '-o', 'out.json']]) {
    const r = await runCli(command, { cwd: dir, timeoutMs: 30_000 });
    assert.equal(r.code, 2, `${command[0]}: ${r.stderr}`);
    assert.match(r.stderr, line, command[0]);
    assert.doesNotMatch(r.stderr, /^\s+at /m, `${command[0]}: no stack trace`);
  }
}

describe('a module export whose reading throws', () => {
  it('an evaluator class whose maxConcurrency getter throws', async () => {
    const dir = evaluatorProject(
      'export class Ev {\n  id = "ev";\n  get maxConcurrency() { return this.opts.limit; }\n  evaluateTestCase() { return { score: 1 }; }\n}\n',
    );
    await refused(
      dir,
      /^error: evals\.yaml:6:\d+ +suites\[0\]\.evaluators\[0\]\.use: \.\/ev\.mjs#Ev: .*Cannot read properties of undefined \(reading 'limit'\)$/m,
    );
  });

  it('an evaluator class whose id getter throws', async () => {
    const dir = evaluatorProject(
      'export class Ev {\n  get id() { throw new Error("no id yet"); }\n  evaluateTestCase() { return { score: 1 }; }\n}\n',
    );
    await refused(dir, /^error: evals\.yaml:6:\d+ .*\.\/ev\.mjs#Ev: .*no id yet$/m);
  });

  it('an evaluator object whose evaluateTestCase getter throws', async () => {
    const dir = evaluatorProject(
      'export const Ev = { get evaluateTestCase() { throw new Error("not ready"); } };\n',
    );
    await refused(dir, /^error: evals\.yaml:6:\d+ .*\.\/ev\.mjs#Ev: .*not ready$/m);
  });

  it('an evaluator that is a Proxy whose traps throw', async () => {
    const dir = evaluatorProject(`export const Ev = ${HOSTILE_PROXY};\n`);
    await refused(dir, /^error: evals\.yaml:6:\d+ .*\.\/ev\.mjs#Ev: .*trap \w+$/m);
  });

  it('a function: export that is a Proxy whose traps throw', async () => {
    const dir = suiteProject(['testset: { cases: [ { q: a } ] }', 'function: ./fn.mjs#fn'], {
      'fn.mjs': `export const fn = ${HOSTILE_PROXY};\n`,
    });
    await refused(dir, /^error: evals\.yaml:5:\d+ +suites\[0\]\.function: .*trap \w+$/m);
  });

  it('a pass: export that is a Proxy whose traps throw', async () => {
    const dir = suiteProject(['testset: { cases: [ { output: a } ] }', 'pass: ./pass.mjs#ok'], {
      'pass.mjs': `export const ok = ${HOSTILE_PROXY};\n`,
    });
    await refused(dir, /^error: evals\.yaml:5:\d+ +suites\[0\]\.pass: .*trap \w+$/m);
  });
});
