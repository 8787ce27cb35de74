/**
 * The seeded secret-channel fuzz (fuzz-secret-channels.test.ts, seed 5407) through the GitHub
 * Action's channels: the same project (helpers/secret-fuzz.ts), run by the built dist/index.js
 * against the fake GitHub on 127.0.0.1. No piece of either secret, nor of the Action's token, may
 * be in any body posted to GitHub (the sticky PR comment, the check run's title, summary, text and
 * annotations), the job summary, the step outputs, the log (its `::add-mask::` commands aside:
 * they are how the log hides them), or a file the Action writes (results, HTML report, cache).
 * A config the Action refuses, whose problem quotes a secret at a seeded offset of a cut, goes
 * through the channels of a run that never started (check-run annotations, the job summary).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { random } from '../scripts/fuzz-inputs.ts';
import { useActionFixture } from './helpers/action-fixture.ts';
import { workspace, type ActionRun, type Workspace } from './helpers/action-run.ts';
import type { GitHubServer } from './helpers/github-server-types.ts';
import { startOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';
import {
  answerWith,
  filesUnder,
  fuzzEnv,
  leaksIn,
  padding,
  projectFiles,
  SEED,
  secretsOf,
} from './helpers/secret-fuzz.ts';

/** The token the Action gets as `github-token`: sent in headers, never in a body. */
const TOKEN = 'ghs_Q7mZr2XwK9pL4vN8tB3cY6dF1hJ5';

/** The project's own files hold the secrets: they are the input, not an output. */
const INPUTS = new Set(['evals.yaml', 'rows.jsonl', 'fn.mjs', 'check.mjs']);

/** Every string inside a JSON value, and the JSON itself: what GitHub stores and shows. */
function texts(value: unknown): string[] {
  const found = [JSON.stringify(value) ?? ''];
  // Bounded by the value's size: each node is visited once.
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') found.push(node);
    else if (node !== null && typeof node === 'object') {
      stack.push(...(Object.values(node) as unknown[]));
    }
  }
  return found;
}

/** What the Action put out, by where: log, job summary, outputs, files, bodies posted to GitHub. */
function channels(run: ActionRun, ws: Workspace, server: GitHubServer): [string, string][] {
  // The log's masking commands name each value on purpose: GitHub hides them from then on.
  const log = run.stdout
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n');
  const outputs: [string, string][] = [
    ['log (stdout)', log],
    ['stderr', run.stderr],
    ['job summary', run.summary],
    ['step outputs', JSON.stringify(run.outputs)],
  ];
  for (const path of filesUnder(ws.dir)) {
    const name = relative(ws.dir, path);
    if (!INPUTS.has(name)) outputs.push([name, readFileSync(path, 'latin1')]);
  }
  for (const request of server.requests) {
    if (request.storage || request.body === undefined) continue;
    const where = `${request.method} ${request.path}`;
    for (const text of texts(request.body)) outputs.push([where, text]);
  }
  return outputs;
}

describe('fuzzed secrets in every channel of the Action (dist/index.js)', () => {
  const fixture = useActionFixture();
  let model: OpenAiServer;
  before(async () => {
    model = await startOpenAiServer();
    answerWith(model);
  });
  after(() => model.close());

  it(`project 0 (seed ${SEED}): no piece of a secret in any comment, check run, summary, output or file`, async () => {
    const secrets = secretsOf(0);
    const ws = workspace(projectFiles(0, secrets, model.url));
    const run = await fixture.run(ws, { 'github-token': TOKEN }, fuzzEnv(secrets));
    assert.equal(run.outputs.verdict, 'fail', `${run.stdout}\n${run.stderr}`);
    const posted = fixture.server.requests.filter((r) => r.method !== 'GET' && !r.storage);
    // Every channel was used: the comment, the check run with annotations, the job summary.
    assert.ok(
      posted.some((r) => r.path.endsWith('/comments')),
      'a PR comment was posted',
    );
    const checkRuns = JSON.stringify([...fixture.server.state.checkRuns.values()]);
    assert.match(checkRuns, /"annotations":\[\{/, 'the check run has annotations');
    assert.notEqual(run.summary, '');
    // The secrets did reach what was posted: redacted where they were.
    assert.match(checkRuns, /\[redacted\]/);
    const leaks = leaksIn(channels(run, ws, fixture.server), [...secrets, TOKEN]);
    assert.deepEqual(leaks, [], `secrets ${secrets.join(', ')}`);
  });

  it(`a refused config (seed ${SEED}): no piece of a secret in its annotations or summary`, async () => {
    const secrets = secretsOf(1);
    const next = random(SEED * 31 + 1);
    const files = projectFiles(1, secrets, model.url);
    // Each problem quotes a value that holds a secret behind padding, so the cut of a quoted
    // value (at 80 characters) falls at every offset of the secret's first characters, and at a
    // seeded one: grid values where lists are expected, and a header value that is not a map.
    const grid = Array.from({ length: 12 }, (_, k) => {
      const pad = k < 10 ? 70 + k : 40 + Math.floor(next() * 40);
      return `t${k}: "${'g'.repeat(pad)}\${FUZZ_SERVICE_TOKEN}"`;
    });
    const config = (files['evals.yaml'] ?? '')
      .replace(
        'maxRetries: 0, timeout: 5s }',
        `maxRetries: 0, timeout: 5s, headers: "${padding(next).slice(0, 79)}\${FUZZ_PLAIN}" }`,
      )
      .replace('grid: { token: ["${FUZZ_SERVICE_TOKEN}", plain] }', `grid: { ${grid.join(', ')} }`);
    const ws = workspace({ ...files, 'evals.yaml': config });
    const run = await fixture.run(ws, { 'github-token': TOKEN }, fuzzEnv(secrets));
    assert.equal(run.outputs.verdict, 'error', `${run.stdout}\n${run.stderr}`);
    const checkRuns = JSON.stringify([...fixture.server.state.checkRuns.values()]);
    assert.match(checkRuns, /headers: expected object, found/);
    // A quote cut within a secret's first characters keeps none of them (fewer than the 6 the
    // search below looks for): what follows the padding is the start of [redacted].
    const quoted = [
      ...checkRuns.matchAll(/grid\.(t\d+): expected array, found \\"g+([^\\\u2026]*)/g),
    ];
    assert.equal(new Set(quoted.map((m) => m[1])).size, 12, checkRuns);
    for (const [whole, , after = ''] of quoted) {
      assert.ok('[redacted]'.startsWith(after) || after.startsWith('[redacted]'), whole);
    }
    assert.match(run.summary, /headers/);
    const leaks = leaksIn(channels(run, ws, fixture.server), [...secrets, TOKEN]);
    assert.deepEqual(leaks, [], `secrets ${secrets.join(', ')}`);
  });
});
