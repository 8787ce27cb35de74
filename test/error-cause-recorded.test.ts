/**
 * An error a function or evaluator throws keeps the chain of its `cause`s in what the run
 * records: `fetch failed` alone says nothing, its cause (`connect ECONNREFUSED 127.0.0.1:…`)
 * says what to fix; SDK errors (`Connection error.`) wrap the fetch error the same way.
 * `evals show` prints the error "in full, causes included" (docs/report.md).
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { describeError } from '../src/shared/describe-error.ts';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';

/** A loopback port nothing listens on: bound, read, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

describe('the cause of a thrown error is recorded', () => {
  it('describeError follows the cause chain, bounded and cycle-safe', () => {
    const inner = new Error('connect ECONNREFUSED 127.0.0.1:9');
    const outer = new Error('Connection error.', {
      cause: new TypeError('fetch failed', { cause: inner }),
    });
    assert.equal(
      describeError(outer),
      'Connection error. (cause: fetch failed; cause: connect ECONNREFUSED 127.0.0.1:9)',
    );
    const loop = new Error('a');
    (loop as { cause?: unknown }).cause = loop;
    assert.equal(describeError(loop), 'a');
    assert.equal(describeError(new Error('x', { cause: 'plain text' })), 'x (cause: plain text)');
    assert.equal(describeError(new Error('same', { cause: new Error('same') })), 'same');
  });

  it("a function's fetch to a closed port: the artifact and evals show name ECONNREFUSED", async () => {
    const port = await closedPort();
    const dir = jsonlProject(
      [{ id: 'c1', q: 'x' }],
      ['function: ./f.mjs#f', 'evaluators: [{ id: e, use: is-equals, with: { expected: x } }]'],
      {
        'f.mjs': `export async function f() { const r = await fetch('http://127.0.0.1:${port}/'); return r.text(); }\n`,
      },
    );
    const run = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const error = artifactCases(dir)[0]!.cases[0]!.error!;
    assert.match(error, /^fetch failed \(cause: .*ECONNREFUSED/, error);
    const show = await runInProcess(['show', 'results.json', '--failed'], dir);
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /error +fetch failed \(cause: .*ECONNREFUSED/, show.stdout);
  });

  it("an evaluator's error keeps its cause", async () => {
    const dir = jsonlProject(
      [{ id: 'c1', q: 'x' }],
      [
        'function: ./f.mjs#f',
        'evaluators: [{ id: boom, use: ./ev.mjs#boom, threshold: { gte: 0.5 } }]',
      ],
      {
        'f.mjs': 'export const f = () => "x";\n',
        'ev.mjs':
          "export const boom = () => { throw new Error('judge failed', { cause: new Error('quota exhausted') }); };\n",
      },
    );
    await runInProcess(['run', '-o', 'results.json'], dir);
    const evaluation = artifactCases(dir)[0]!.cases[0]!.evaluations[0]!;
    assert.equal(evaluation.error, 'judge failed (cause: quota exhausted)');
  });
});
