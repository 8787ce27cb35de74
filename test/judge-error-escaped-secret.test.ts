/**
 * An OpenAI-compatible server's error body that echoes the key, JSON-escaped in a way the scrub
 * of the body's text does not know: PHP's json_encode writes `/` as `\/`, and a server may write
 * any character as `\uXXXX`. The judge client scrubbed the body's text, then decoded its
 * `error.message` and cut it at 300 characters: the key came back whole, and the cut kept its
 * start. The message is now scrubbed once decoded, before the cut; and `\/` is a form the scrub
 * knows, so the body kept as `raw` holds no piece of the key either. Seeded: which characters
 * are escaped, how, and where the cut falls.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { random } from '../scripts/fuzz-inputs.ts';
import { createJudgeClient } from '../src/judge/client.ts';
import { createScrubber } from '../src/shared/secrets.ts';
import { leaksIn } from './helpers/secret-fuzz.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((s) => (server = s));

/** A key with the `/` and `+` of base64, sent as the client's `apiKey`. */
const KEY = 'sk-Qx7/Lm2+Np4Rt6/VbK3dHy9Wz';
const SEED = 8108;
const CASES = 40;

/** `text` in a JSON string, each character escaped as `\uXXXX` or `\/` when `next` says so. */
function escapedString(text: string, next: () => number): string {
  let out = '';
  for (const char of text) {
    const pick = next();
    const hex = char.charCodeAt(0).toString(16).padStart(4, '0');
    if (char === '/' && pick < 0.5) out += '\\/';
    else if (pick < 0.3) out += `\\u${pick < 0.15 ? hex : hex.toUpperCase()}`;
    else out += JSON.stringify(char).slice(1, -1);
  }
  return `"${out}"`;
}

describe('a judge error body that echoes the key escaped', () => {
  it('is scrubbed once decoded, before the message is cut', async () => {
    const next = random(SEED);
    server.setResponder((request) => {
      const key = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
      // The cut at 300 falls anywhere from before the key to past its end.
      const pad = 'x'.repeat(230 + Math.floor(next() * 80));
      const message = escapedString(`${pad}Incorrect API key provided: ${key}`, next);
      return { status: 401, body: `{"error": {"message": ${message}, "type": "auth"}}` };
    });
    const client = createJudgeClient({
      baseUrl: server.url,
      apiKey: KEY,
      cacheDir: null,
      maxRetries: 0,
    });
    const outputs: [string, string][] = [];
    for (let n = 0; n < CASES; n++) {
      const answer = await client.chat({ model: 'm', messages: [{ role: 'user', content: 'q' }] });
      assert.equal(answer.ok, false);
      if (answer.ok) continue;
      assert.match(answer.error.message, /answered 401: x+/);
      outputs.push([`case ${n} message`, answer.error.message]);
      outputs.push([`case ${n} raw`, answer.error.raw ?? '']);
    }
    assert.equal(server.requests.length, CASES);
    assert.deepEqual(leaksIn(outputs, [KEY]), []);
    assert.ok(outputs.some(([, text]) => /provided: \[redacted\]$/.test(text)));
  });

  it('without escapes, the key in the body is scrubbed as before', async () => {
    const message = `${'x'.repeat(295)}Incorrect API key provided: ${KEY.replaceAll('/', '\\/')}`;
    server.script({ status: 401, body: `{"error": {"message": "${message}"}}` });
    const client = createJudgeClient({
      baseUrl: server.url,
      apiKey: KEY,
      cacheDir: null,
      maxRetries: 0,
    });
    const answer = await client.chat({ model: 'm', messages: [{ role: 'user', content: 'q' }] });
    assert.equal(answer.ok, false);
    if (answer.ok) return;
    // The `\/` form is a form of the key the scrub knows: `raw` keeps none of it.
    assert.match(answer.error.raw ?? '', /provided: \[redacted\]"/);
    assert.match(answer.error.message, /x{295}Incor$/);
  });

  it('the scrub removes an escaped spelling whole and leaves other escapes alone', () => {
    const { text } = createScrubber([KEY]);
    const spelled = KEY.replace('Q', '\\u0051').replace('/', '\\/');
    assert.equal(
      text(`{"m": "a\\/b \\u0041 ${spelled}\\n"}`),
      '{"m": "a\\/b \\u0041 [redacted]\\n"}',
    );
    assert.equal(text('no escape hides it: a\\/b'), 'no escape hides it: a\\/b');
  });
});
