/**
 * A seeded fuzz of GitHub's error words cut to 300 characters (`errors.ts` for every refused
 * call, `baseline-download.ts` for a missing or expired artifact): a loopback GitHub answers
 * 4xx and 5xx with bodies that echo the token it was sent (whole, URL-encoded or
 * base64-encoded) at seeded offsets around the cut, in each shape GitHub (or a proxy) sends: a
 * JSON `message`, a message with `errors[]` details, a plain-text body. The token reaches the
 * process as the Action's does (its `INPUT_GITHUB-TOKEN` variable), so the failure's message must
 * hold no piece of it: scrubbed before the cut, not after, where a cut-off start of the token is
 * no longer recognisable.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { random } from '../scripts/fuzz-inputs.ts';
import { downloadBaseline } from '../src/github/baseline-download.ts';
import { createOctokit } from '../src/github/octokit.ts';
import { RetryBudget } from '../src/github/retry-budget.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';
import { leaksIn, secretsOf } from './helpers/secret-fuzz.ts';

const SEED = 7311;
const ROUNDS = 60;
/** Where both places cut GitHub's words. */
const CUT = 300;
const STATUSES = [401, 403, 404, 410, 422, 500, 502] as const;

interface Answer {
  status: number;
  /** What the body says before the token, and in which form the token is echoed. */
  pad: number;
  form: 'raw' | 'url' | 'base64';
  shape: 'message' | 'errors' | 'text';
}

let answer: Answer = { status: 404, pad: 0, form: 'raw', shape: 'message' };

/** Every request gets `answer`, its body echoing the token of the request's authorization. */
function handler(request: IncomingMessage, response: ServerResponse): void {
  request.resume();
  const token = String(request.headers.authorization ?? '').replace(/^token /, '');
  const echoed =
    answer.form === 'url'
      ? encodeURIComponent(token)
      : answer.form === 'base64'
        ? Buffer.from(`k${token}`).toString('base64')
        : token;
  const words = `${'w'.repeat(answer.pad)}${echoed} was refused`;
  if (request.url === '/user') {
    // `refusalOf` asks who the token is after a 403: a GITHUB_TOKEN cannot say.
    response.writeHead(403, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ message: 'Resource not accessible by integration' }));
    return;
  }
  if (answer.shape === 'text') {
    response.writeHead(answer.status, { 'content-type': 'text/plain' });
    response.end(words);
    return;
  }
  const body =
    answer.shape === 'errors'
      ? { message: 'Validation Failed', errors: [{ message: words }, 'and more'] }
      : { message: words, documentation_url: 'https://docs.github.com/rest' };
  response.writeHead(answer.status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

const github = useLoopbackServer(handler);

describe('GitHub error words cut to 300 characters', () => {
  it(
    'hold no piece of the token, wherever it falls around the cut',
    { timeout: 120_000 },
    async () => {
      const next = random(SEED);
      const seen = new Set<string>();
      const leaks: string[] = [];
      const saved = process.env['INPUT_GITHUB-TOKEN'];
      try {
        for (let round = 0; round < ROUNDS; round++) {
          const [token] = secretsOf(SEED + round);
          process.env['INPUT_GITHUB-TOKEN'] = token;
          const status = STATUSES[Math.floor(next() * STATUSES.length)]!;
          const form = (['raw', 'url', 'base64'] as const)[Math.floor(next() * 3)]!;
          const shape = (['message', 'errors', 'text'] as const)[Math.floor(next() * 3)]!;
          // The echoed token starts up to 50 characters before the cut, or right at it,
          // counting the text put in front of GitHub's words (`Validation Failed: `).
          const front = shape === 'errors' ? 'Validation Failed: '.length : 0;
          const pad = Math.max(0, CUT - front - Math.floor(next() * 50));
          answer = { status, pad, form, shape };
          const octokit = createOctokit(token, {
            baseUrl: github.base,
            userAgent: 'evalgate/test',
            budget: new RetryBudget(30, 0.001),
          });
          const result = await downloadBaseline(octokit, { owner: 'acme', repo: 'app' }, 7);
          assert.equal(result.ok, false, `round ${round}: the download must fail`);
          if (result.ok) continue;
          seen.add(`${status}`);
          leaks.push(
            ...leaksIn(
              [[`round ${round} (${status} ${form} ${shape})`, result.failure.message]],
              [token],
            ),
          );
        }
      } finally {
        if (saved === undefined) delete process.env['INPUT_GITHUB-TOKEN'];
        else process.env['INPUT_GITHUB-TOKEN'] = saved;
      }
      assert.deepEqual(leaks, []);
      // Both cutting places were reached: a 404/410 (baseline-download.ts) and the others (errors.ts).
      assert.ok(seen.has('404') || seen.has('410'));
      assert.ok([...seen].some((status) => status !== '404' && status !== '410'));
    },
  );
});
