import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { abortableSleep } from '../src/judge/abortable-sleep.ts';
import { abortedError, postAttempt, type AttemptSettings } from '../src/judge/post-attempt.ts';

const URL = 'http://judge.test/v1/chat/completions';
const SECRET = 'sk-unit-SECRET';

/** Settings whose fetch answers with `answer` (or throws it, for an Error). */
function settings(answer: Response | Error, timeoutMs = 1000): AttemptSettings {
  return {
    fetch: () => (answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer)),
    headers: { authorization: `Bearer ${SECRET}` },
    timeoutMs,
    scrub: (text) => text.split(SECRET).join('[redacted]'),
    now: () => Date.parse('2024-01-01T00:00:00Z'),
  };
}

describe('abortedError', () => {
  it('names the aborted request', () => {
    assert.deepEqual(abortedError(URL), {
      code: 'judge.aborted',
      message: `POST ${URL} was aborted`,
    });
  });
});

describe('postAttempt', () => {
  it('hands back the parsed JSON of a 2xx answer', async () => {
    const outcome = await postAttempt(URL, '{}', undefined, settings(Response.json({ a: 1 })));
    assert.deepEqual(outcome, { kind: 'ok', json: { a: 1 }, text: '{"a":1}', status: 200 });
  });

  it('fails, without retrying, a 2xx answer that is not JSON', async () => {
    const outcome = await postAttempt(URL, '{}', undefined, settings(new Response('<html>')));
    assert.equal(outcome.kind, 'fail');
    assert.equal(outcome.kind === 'fail' && outcome.error.code, 'judge.malformed');
  });

  it('retries a 429 after the wait the server asked for', async () => {
    const answer = new Response('slow down', { status: 429, headers: { 'retry-after': '3' } });
    const outcome = await postAttempt(URL, '{}', undefined, settings(answer));
    assert.equal(outcome.kind, 'retry');
    assert.equal(outcome.kind === 'retry' && outcome.serverDelay, 3000);
    assert.equal(outcome.kind === 'retry' && outcome.error.code, 'judge.http');
  });

  it('fails a 4xx with the server message, the key scrubbed', async () => {
    const answer = Response.json({ error: { message: `bad key ${SECRET}` } }, { status: 401 });
    const outcome = await postAttempt(URL, '{}', undefined, settings(answer));
    assert.equal(outcome.kind, 'fail');
    assert.ok(outcome.kind === 'fail');
    assert.equal(outcome.error.message, `POST ${URL} answered 401: bad key [redacted]`);
    assert.equal(outcome.error.status, 401);
  });

  it('retries a dropped connection, and fails an error that will not heal', async () => {
    const reset = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
    });
    const dropped = await postAttempt(URL, '{}', undefined, settings(reset));
    assert.equal(dropped.kind, 'retry');
    assert.equal(
      dropped.kind === 'retry' && dropped.error.message,
      `POST ${URL} failed (ECONNRESET): socket hang up`,
    );
    const dns = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('not found'), { code: 'ENOTFOUND' }),
    });
    assert.equal((await postAttempt(URL, '{}', undefined, settings(dns))).kind, 'fail');
  });

  it('retries a request that timed out', async () => {
    const hanging: AttemptSettings = {
      ...settings(new Response('')),
      fetch: (_input, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new Error('aborted')));
        }),
      timeoutMs: 5,
    };
    const outcome = await postAttempt(URL, '{}', undefined, hanging);
    assert.equal(outcome.kind, 'retry');
    assert.equal(outcome.kind === 'retry' && outcome.error.code, 'judge.timeout');
  });

  it('makes no request once the signal has aborted', async () => {
    let requests = 0;
    const counting: AttemptSettings = {
      ...settings(new Response('{}')),
      fetch: () => {
        requests++;
        return Promise.resolve(new Response('{}'));
      },
    };
    const outcome = await postAttempt(URL, '{}', AbortSignal.abort(), counting);
    assert.deepEqual(outcome, { kind: 'fail', error: abortedError(URL) });
    assert.equal(requests, 0);
  });
});

describe('abortableSleep', () => {
  it('stops waiting on abort even when the sleep ignores the signal', async () => {
    const controller = new AbortController();
    const never = (): Promise<void> => new Promise<void>(() => undefined);
    const waiting = abortableSleep(never, 60_000, controller.signal);
    controller.abort();
    await waiting;
  });
});
