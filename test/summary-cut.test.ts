/**
 * A reason too long for the terminal keeps its framing (`error: POST <url> answered 500:`,
 * `is-equals 0 (needs ≥ 1): expected …, got …`), a URL's host, short quoted values whole and
 * the start of long ones; only when even that does not fit are trailing parts left out or the
 * end cut.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderCaseLines } from '../src/report/case-lines.ts';
import { painter } from '../src/report/ansi.ts';
import { cutReason, cutUrl } from '../src/report/reason-cut.ts';
import { renderSummary } from '../src/report/summary-table.ts';
import { textWidth } from '../src/shared/text-table.ts';
import type { CaseResult, EvaluationResult } from '../src/types/index.ts';

const plain = painter(false);

/** What tells the user what to fix: it must survive every cut. */
const CAUSE = '401: Incorrect API key provided';

function caseResult(over: Partial<CaseResult>): CaseResult {
  return {
    id: 'big',
    contentId: 'c',
    source: { file: 'd.csv', line: 5 },
    data: {},
    output: null,
    error: null,
    durationMs: 1,
    passed: false,
    evaluations: [],
    ...over,
  };
}

function isEquals(expected: string, actual: string): EvaluationResult {
  return {
    evaluator: 'is-equals',
    score: 0,
    threshold: { gte: 1 },
    passed: false,
    metadata: { expected, actual },
    error: null,
    durationMs: 0,
  };
}

const body = 'x'.repeat(3000);
const url = 'http://127.0.0.1:41234/api/answer';
const httpError = `POST ${url} answered 500: ${body} ... the database is down`;

describe('the terminal summary cuts a long reason inside its values', () => {
  it(`keeps "POST <url> answered 500:" and the body's end at 80, 120 and 200 columns`, () => {
    for (const width of [80, 120, 200]) {
      const lines = renderCaseLines(
        caseResult({ id: 'r500', source: { file: 'data.csv', line: 3 }, error: httpError }),
        'r500',
        plain,
        width,
        '',
      );
      const reason = lines[1]!;
      assert.ok(textWidth(reason) <= width, reason);
      // The URL shares the room with the body, keeping at least the server it names.
      assert.match(reason, /^ {4}error: POST (http:\/\/)?127\.0\.0\.1:41234/);
      assert.ok(reason.endsWith('is down'), reason);
      assert.match(reason, /answered 500: x+…/);
    }
  });

  it('keeps "expected …, got …" with both values cut at their end', () => {
    const actual = `${'y'.repeat(500)}… (199,500 more characters)`;
    const lines = renderCaseLines(
      caseResult({ evaluations: [isEquals(`expected answer ${'e'.repeat(300)}`, actual)] }),
      'big',
      plain,
      80,
      '',
    );
    // Too long for one line: the framing on its own line, the reason under it.
    assert.equal(lines[1], '    is-equals 0 (needs ≥ 1):');
    const reason = lines[2]!;
    assert.ok(textWidth(reason) <= 80, reason);
    assert.match(reason, /^ {6}expected "expected answer e+…", got "y+…"$/);
  });

  it('keeps a short value whole and gives the room to the long one', () => {
    const text = `is-equals 0 (needs ≥ 1): expected "Paris", got "${'z'.repeat(400)}"`;
    const cut = cutReason(text, 70);
    assert.ok(textWidth(cut) <= 70, cut);
    assert.match(cut, /^is-equals 0 \(needs ≥ 1\): expected "Paris", got "z+…"$/);
  });

  it('cuts the end, never the framing, when even the framing does not fit', () => {
    const text = `is-equals 0 (needs ≥ 1): expected "${'a'.repeat(100)}", got "${'b'.repeat(100)}"`;
    // After its last whole word, the colon left out with what it introduced.
    assert.equal(cutReason(text, 30), 'is-equals 0 (needs ≥ 1)\u2026');
    assert.equal(cutReason(text, 40), 'is-equals 0 (needs ≥ 1): expected\u2026');
    // A reason without values is still cut in its middle: its end is the cause.
    const error = `judge: error: ${'w'.repeat(200)} Incorrect API key`;
    const middle = cutReason(error, 60);
    assert.ok(middle.startsWith('judge: error: '), middle);
    assert.ok(middle.endsWith('Incorrect API key'), middle);
  });

  it('cuts the counted errors of the summary the same way', () => {
    const failing = (id: string): CaseResult => caseResult({ id, error: httpError });
    const cases = [failing('a'), failing('b')];
    const run = {
      suite: 's',
      params: {},
      passed: false,
      cases,
      summary: { total: 2, passed: 0, failed: 0, errored: 2, passRate: 0, evaluators: {} },
      gate: { passed: false, conditions: [] },
      durationMs: 1,
    };
    const text = renderSummary([run] as never, { color: false, width: 100 });
    const counted = text.split('\n').find((line) => line.includes('2 × error:'));
    assert.ok(counted !== undefined, text);
    assert.match(counted, /POST (http:\/\/)?127\.0\.0\.1:41234\S* answered 500: xxx/);
    assert.ok(counted.endsWith('the database is down'), counted);
  });

  it('keeps the cause after a URL whole, the URL taking the room left, its host always', () => {
    const api = 'https://api.openai.com/v1/chat/completions';
    const texts = [
      `judge: error: POST ${api} failed: ${CAUSE}`,
      `POST https://gateway.internal.example.com/openai/deployments/gpt-4o/chat/completions failed: ${CAUSE}`,
      `judge call failed: POST http://127.0.0.1:9/v1/chat/completions?${'x'.repeat(150)} ${CAUSE}`,
    ];
    for (const text of texts) {
      for (const width of [44, 50, 60, 76, 90]) {
        const cut = cutReason(text, width);
        assert.ok(textWidth(cut) <= width, cut);
        // Where the host and the cause fit, the cause is whole; else its end is cut at a word.
        if (width >= 76) assert.ok(cut.endsWith(CAUSE), `${width}: ${cut}`);
        else {
          // After a whole word of the cause (`failed…`, `401…`, `Incorrect API…`).
          const last = /(\S+)\u2026$/.exec(cut)?.[1] ?? '';
          assert.ok(['failed', ...CAUSE.split(/:? /)].includes(last), `${width}: ${cut}`);
        }
        // A URL is its host, its origin and the end of its path; never `ht…tions` nor `api.op…`.
        assert.match(
          cut,
          /POST (https?:\/\/)?(api\.openai\.com|gateway\.internal\.example\.com|127\.0\.0\.1:9)[…/]/,
          `${width}: ${cut}`,
        );
      }
    }
    assert.equal(
      cutReason(`judge: error: POST ${api} failed: ${CAUSE}`, 76),
      `judge: error: POST api.openai.com… failed: ${CAUSE}`,
    );
  });

  it("gives an answer's body after a URL more room than the URL when both are cut", () => {
    const text = `judge call failed: POST https://api.openai.com/v1/chat/completions answered 401: Incorrect API key provided: sk-***. You can find your API key at https://platform.openai.com/account/api-keys.`;
    for (const width of [70, 76]) {
      const cut = cutReason(text, width);
      assert.ok(textWidth(cut) <= width, cut);
      assert.match(cut, /POST api\.openai\.com… answered 401: Incor/, `${width}: ${cut}`);
    }
  });

  it('cuts a URL to its origin and path end, then its host and port, never shorter', () => {
    const api = 'https://api.openai.com/v1/chat/completions';
    assert.equal(cutUrl(api, 100), api);
    assert.equal(cutUrl(api, 35), 'https://api.openai.com\u2026/completions');
    assert.equal(cutUrl(api, 24), 'https://api.openai.com\u2026');
    assert.equal(cutUrl(api, 16), 'api.openai.com\u2026');
    assert.equal(cutUrl(api, 8), 'api.openai.com\u2026');
    assert.equal(cutUrl('http://127.0.0.1:8787/answer', 1), '127.0.0.1:8787\u2026');
  });
});
