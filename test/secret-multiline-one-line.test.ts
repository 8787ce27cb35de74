/**
 * A secret on several lines (a PEM private key, a multi-line environment value) put on one line
 * (`oneLine`, or every run of white space made one space) before it was scrubbed was no longer
 * the text the scrubber looked for: a judge's refusal quoting one kept it, and cut to 200
 * characters kept its start. The scrubber now knows each multi-line secret's one-line forms,
 * and the refusal is scrubbed before it is put on one line.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JudgeCalls } from '../src/evaluators/judges/calls.ts';
import { scrubbedCut, truncateText } from '../src/evaluators/metadata.ts';
import { createJudgeClient } from '../src/judge/client.ts';
import { oneLine } from '../src/shared/one-line.ts';
import { createScrubber } from '../src/shared/secrets.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((s) => (server = s));

const BODY = [
  'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7Vq3x',
  'Kd8Rt2Lw9Qe4Yu7Io1Pa5Sx3Dc6Vb0Nm8Zx2Cv4Bn6Mq9Wr1Et3Yu5Ia',
  'Zp3Lk7Jh2Gf9Ds4Aq6Ws1Ed8Rf5Tg0Yh3Uj7Ik2Ol9Pz4Xc6Vb1Nm8Qa',
];
const PEM = `-----BEGIN PRIVATE KEY-----\n${BODY.join('\n')}\n-----END PRIVATE KEY-----\n`;
const CRLF_PEM = PEM.replace(/\n/g, '\r\n');

/** Pieces of the key's body, 6 characters long, found in `text`. */
function leaks(text: string): string[] {
  const found: string[] = [];
  for (const line of BODY) {
    for (let i = 0; i + 6 <= line.length; i++) {
      if (text.includes(line.slice(i, i + 6))) found.push(line.slice(i, i + 6));
    }
  }
  return found;
}

describe('a multi-line secret put on one line', () => {
  it('is scrubbed whole, in each one-line form, LF or CRLF', () => {
    for (const pem of [PEM, CRLF_PEM]) {
      const scrubber = createScrubber([pem]);
      const said = `the key is\n  ${pem}  and that is all`;
      for (const line of [oneLine(said), said.replace(/\s+/g, ' ').trim()]) {
        assert.deepEqual(leaks(scrubber.text(line)), [], line);
        assert.deepEqual(leaks(scrubber.json(JSON.stringify(line))), [], line);
        assert.match(scrubber.text(line), /the key is \[redacted\]/);
      }
    }
  });

  it('keeps none of its start when the one-line text was cut before the scrub', () => {
    const scrubber = createScrubber([PEM]);
    const line = oneLine(`refused: ${PEM} end`);
    // Every cut that ends 6 or more characters into the key: the cut piece is removed.
    for (let limit = 'refused: '.length + 6; limit < line.length - 4; limit += 7) {
      const cut = JSON.stringify({ error: truncateText(line, limit) });
      assert.deepEqual(leaks(scrubber.json(cut)), [], cut);
    }
  });

  it("is not in a judge's refusal quoted from a client that did not scrub it", async () => {
    server.reset();
    const said = `I will not use this key:\n${PEM}Ask me something else.`;
    server.script({
      body: {
        id: 'chatcmpl-test',
        object: 'chat.completion',
        model: 'judge-model',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: null, refusal: said },
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      },
    });
    // A client of one's own that knows nothing of the key (an empty environment); the
    // built-in's cut scrubs with the run's secrets, the key among them.
    const client = createJudgeClient({
      baseUrl: server.url,
      cacheDir: null,
      maxRetries: 0,
      env: {},
    });
    const judge = {
      client,
      model: 'judge-model',
      embeddingModel: undefined,
      temperature: 0,
      prices: undefined,
    };
    const calls = new JudgeCalls(judge, undefined, scrubbedCut(createScrubber([PEM]).text));
    const thrown = await calls
      .ask('judge-model', { prompt: 'p', tool: 'verdict', parameters: { type: 'object' } })
      .then(
        () => assert.fail('a refusal is an error'),
        (error: unknown) => error as Error & { metadata?: unknown },
      );
    assert.match(thrown.message, /^the judge refused: I will not use this key: \[redacted\]/);
    assert.deepEqual(leaks(thrown.message), [], thrown.message);
    assert.deepEqual(leaks(JSON.stringify(thrown.metadata)), []);
  });
});
