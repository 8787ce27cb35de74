/**
 * The judge built-ins' metadata quotes what the judge answered (claims, reasons, statements,
 * entities, a refusal, the raw arguments of an answer that does not fit), and a judge may quote
 * the output, secrets included. Those quotes were cut before the finished case was scrubbed, so
 * a cut within a secret's first 1 to 5 characters kept them: too few for the scrub to recognise.
 * They are cut with the built-in's scrubbing cut now. The fake judge below quotes the secret
 * after a run of `p`s as long as the one in its prompt, which each suite sets so that the
 * built-in's cut falls 1 to 5 characters into the secret. A run's judge client scrubs its
 * answers of the run's secrets; a client of one's own (`createJudgeClient` in code) does not,
 * and there the built-in's cut is what keeps a key's start out of what the judge said.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { BuiltinEvaluatorName } from '../src/evaluators/registry.ts';
import { runInProcess } from './helpers/in-process.ts';
import { loopbackJudge } from './helpers/loopback-judge.ts';
import {
  useOpenAiServer,
  type OpenAiServer,
  type RecordedRequest,
} from './helpers/openai-server.ts';
import { scratch } from './helpers/cli.ts';
import { X_SECRET, quote, refusal, scrubbedOutcome } from './helpers/secret-cut-judge.ts';

let server: OpenAiServer;
useOpenAiServer((s) => (server = s));

/** Pads that leave 5 to 1 characters of the secret before a cut at `limit` after `before`. */
const pads = (limit: number, before = 0): number[] =>
  [5, 4, 3, 2, 1].map((kept) => limit - before - kept);

const ENTITIES_RAW_PREFIX = '{"referenceEntities":[],"contextEntities":["';

/** The judge's answer to `request`: its forced tool called with a quote of the prompt's pad. */
function answer(request: RecordedRequest) {
  const body = request.body as {
    messages: { content: string }[];
    tool_choice: { function: { name: string } };
  };
  const tool = body.tool_choice.function.name;
  const prompt = body.messages.map((m) => m.content).join('\n');
  const n = /p{20,}/.exec(prompt)?.[0].length;
  if (n === undefined) return { toolArguments: { verdicts: [{ reason: 'r', verdict: 1 }] } };
  const said = quote(n);
  if (tool === 'record_claims') {
    // Over 1000 `p`s: claims that are not an array, quoted whole as `raw` (cut at 2000).
    return n > 1000
      ? { toolArguments: { claims: said } }
      : { toolArguments: { claims: [{ claim: said, reason: said, supported: false }] } };
  }
  if (tool === 'record_entities') {
    return n > 1000
      ? { toolArguments: { referenceEntities: [], contextEntities: [said] } }
      : { toolArguments: { referenceEntities: [said], contextEntities: [said] } };
  }
  if (tool === 'record_attribution' && n > 400) return refusal(said);
  // Verdict tools: an incorrect or unattributed claim, except that noise-sensitivity's relevant
  // context states it (its relevance question carries no pad and gets the default above).
  const verdict = tool === 'record_passage_support' ? 1 : 0;
  return { toolArguments: { verdicts: [{ reason: said, verdict }] } };
}

/** A suite `id` of rows `rows` (recorded outputs) scored by `use` with `extra` options. */
function suite(dir: string, id: string, use: string, rows: Record<string, unknown>[]): string[] {
  writeFileSync(join(dir, `${id}.jsonl`), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return [
    `  - id: ${id}`,
    `    testset: { path: ${id}.jsonl }`,
    `    evaluators: [ { id: ${id}, use: ${use} } ]`,
  ];
}

describe('judge metadata quoting a secret cut within its first characters', () => {
  it('keeps none of them, in every judge built-in that cuts a quote', async () => {
    server.setResponder(answer);
    const dir = scratch();
    const contexts = ['The sky is blue.'];
    const reference = 'The sky is blue.';
    const lines = [
      'version: 1',
      'defaults:',
      '  concurrency: 1',
      '  judge:',
      `    baseUrl: "${server.url}"`,
      '    apiKey: sk-test',
      '    model: judge-model',
      '    maxRetries: 0',
      'suites:',
      // Claims and reasons, cut at 300.
      ...suite(
        dir,
        'faith',
        'faithfulness',
        pads(300).map((n) => ({ output: `${quote(n)}.`, contexts })),
      ),
      // Arguments that are not the claims asked for, as JSON `{"claims":"…`, cut at 2000.
      ...suite(
        dir,
        'faithraw',
        'faithfulness',
        pads(2000, '{"claims":"'.length).map((n) => ({ output: `${quote(n)}.`, contexts })),
      ),
      // Incorrect and noisy claims and their reasons, cut at 200.
      ...suite(
        dir,
        'noise',
        'noise-sensitivity',
        pads(200).map((n) => ({ output: `${quote(n)}.`, contexts, reference })),
      ),
      ...suite(
        dir,
        'fact',
        'factual-correctness',
        pads(200).map((n) => ({ output: `${quote(n)}.`, reference })),
      ),
      ...suite(
        dir,
        'recall',
        'context-recall',
        pads(200).map((n) => ({ output: 'x', contexts, reference: `${quote(n)}.` })),
      ),
      ...suite(
        dir,
        'llmrecall',
        'llm-context-recall',
        pads(200).map((n) => ({ output: 'x', contexts, reference: `${quote(n)}.` })),
      ),
      // A refusal, cut at 500.
      ...suite(
        dir,
        'refusal',
        'llm-context-recall',
        pads(500).map((n) => ({ output: 'x', contexts, reference: `${quote(n)}.` })),
      ),
      // Entities, cut at 100; the lists quoted as `raw` when the reference has none, at 2000.
      ...suite(
        dir,
        'entities',
        'context-entities-recall',
        pads(100).map((n) => ({ output: 'x', contexts, reference: `${quote(n)}.` })),
      ),
      ...suite(
        dir,
        'entitiesraw',
        'context-entities-recall',
        pads(2000, ENTITIES_RAW_PREFIX.length).map((n) => ({
          output: 'x',
          contexts,
          reference: `${quote(n)}.`,
        })),
      ),
      '',
    ];
    writeFileSync(join(dir, 'evals.yaml'), lines.join('\n'));
    const r = await runInProcess(['run', '--no-cache', '-o', 'results.json'], dir, { X_SECRET });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const text = readFileSync(join(dir, 'results.json'), 'utf8');
    // Every cut quote: its padding, then what the cut kept of what followed, then the note.
    const quotes = [...text.matchAll(/p{90,}([^"\\\u2026]*)\u2026/g)];
    assert.equal(quotes.length, 95, text);
    // What follows the padding is the start of `[redacted]`, never of the secret.
    const leaks = quotes.filter(([, kept = '']) => !'[redacted]'.startsWith(kept));
    assert.deepEqual(
      leaks.map(([whole]) => whole.slice(-30)),
      [],
    );
    assert.match(text, /p{90,}\[re/);
    assert.equal(text.includes(X_SECRET.slice(0, 3)), false);
  });

  it("keeps none of them from a judge's answer the client did not scrub", async () => {
    server.setResponder(answer);
    // A client knowing no secret, as one made in code; the built-in's scrub knows the key.
    // One retry: the run above may leave a pooled connection the server has since closed.
    const judge = loopbackJudge(server.url, { maxRetries: 1 });
    const contexts = ['The sky is blue.'];
    const reference = 'The sky is blue.';
    /** The metadata (or the error's) of built-in `name` on one case, as JSON text. */
    const metadataOf = async (
      name: BuiltinEvaluatorName,
      testCase: Record<string, unknown>,
      output: unknown,
    ): Promise<string> =>
      JSON.stringify((await scrubbedOutcome(judge, name, {}, testCase, output)).metadata);
    const texts: string[] = [];
    for (const n of pads(300)) {
      texts.push(await metadataOf('faithfulness', { contexts }, `${quote(n)}.`));
    }
    for (const n of pads(2000, '{"claims":"'.length)) {
      texts.push(await metadataOf('faithfulness', { contexts }, `${quote(n)}.`));
    }
    for (const n of pads(200)) {
      texts.push(await metadataOf('noise-sensitivity', { contexts, reference }, `${quote(n)}.`));
      texts.push(await metadataOf('factual-correctness', { reference }, `${quote(n)}.`));
      texts.push(
        await metadataOf('llm-context-recall', { contexts, reference: `${quote(n)}.` }, 'x'),
      );
    }
    for (const n of pads(500)) {
      texts.push(
        await metadataOf('llm-context-recall', { contexts, reference: `${quote(n)}.` }, 'x'),
      );
    }
    for (const n of [...pads(100), ...pads(2000, ENTITIES_RAW_PREFIX.length)]) {
      texts.push(
        await metadataOf('context-entities-recall', { contexts, reference: `${quote(n)}.` }, 'x'),
      );
    }
    const text = texts.join('\n');
    const quotes = [...text.matchAll(/p{90,}([^"\\\u2026]*)\u2026/g)];
    // faithfulness 2 + 1 raw, noise-sensitivity 3, factual-correctness 4, llm-context-recall 3
    // and a refusal, context-entities-recall 2 + 1 raw: per pad.
    assert.equal(quotes.length, 5 * 17, text);
    const leaks = quotes.filter(([, kept = '']) => !'[redacted]'.startsWith(kept));
    assert.deepEqual(
      leaks.map(([whole]) => whole.slice(-30)),
      [],
    );
    assert.match(text, /p{90,}\[re/);
    assert.equal(text.includes(X_SECRET.slice(0, 3)), false);
  });
});
