/**
 * What a reader keeps of a reason cut to the terminal: a URL's method and host:port whole (its
 * path cut first), the error's cause whole, quoted values cut at their end and a short one never
 * cut; with less room, whole trailing parts left out and counted. Through the real CLI in a pipe
 * at several widths (`COLUMNS` unset: 160 columns), and over many generated reasons.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cutReason } from '../src/report/reason-cut.ts';
import { textWidth } from '../src/shared/text-table.ts';
import { runCli, scratch } from './helpers/cli.ts';
import { freePort } from './helpers/free-port.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

const LABELS = 'not one of "correct", "partially_correct", "incorrect"';
const JUDGE = `accurate: error: the judge chose "mostly_right", ${LABELS}`;
const REFUSED = (port: number): string =>
  `error: POST http://127.0.0.1:${port}/answer failed (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:${port}; after 3 attempts`;

/** The reason lines of a summary: those naming `marker`, without the indent. */
function reasonLines(stdout: string, marker: string): string[] {
  return stdout
    .split('\n')
    .filter((line) => line.includes(marker))
    .map((line) => line.trim());
}

describe('a reason cut keeps the host, the cause and whole short words', () => {
  it('cuts the judge labels by leaving whole ones out, counted, never "part…lly_correct"', () => {
    assert.equal(
      cutReason(JUDGE, 92),
      'accurate: error: the judge chose "mostly_right", not one of "correct" (+2 more)',
    );
    assert.equal(cutReason(JUDGE, 76), 'accurate: error: the judge chose "mostly_right" (+3 more)');
    for (let width = 30; width <= 110; width++) {
      const cut = cutReason(JUDGE, width);
      assert.ok(textWidth(cut) <= width, `${width}: ${cut}`);
      // Each label shown is whole: no label cut in its middle or at its end.
      for (const quoted of cut.match(/"[^"]*"/g) ?? []) {
        assert.ok(JUDGE.includes(quoted), `${width}: ${cut}`);
      }
    }
  });

  it('keeps the note of a value its evaluator already cut, cutting its start instead', () => {
    const text = `expected "a", got "${'y'.repeat(500)}\u2026 (29,500 more characters)"`;
    assert.equal(
      cutReason(text, 70),
      `expected "a", got "${'y'.repeat(24)}\u2026 (29,500 more characters)"`,
    );
  });

  it("keeps the method and host:port of a URL whole, cutting the path and the cause's end", () => {
    const text = REFUSED(36045);
    assert.equal(
      cutReason(text, 113),
      'error: POST http://127.0.0.1:36045\u2026 failed (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:36045; after 3 attempts',
    );
    assert.equal(
      cutReason(text, 92),
      'error: POST 127.0.0.1:36045\u2026 failed (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:36045\u2026',
    );
    for (let width = 30; width <= 120; width++) {
      const cut = cutReason(text, width);
      assert.ok(textWidth(cut) <= width, `${width}: ${cut}`);
      assert.match(cut, /^error: POST (http:\/\/)?127\.0\.0\.1:36045[/…]/, `${width}: ${cut}`);
    }
  });

  it('over generated reasons: within the width, hosts whole, quoted values whole or their start', () => {
    // A small fixed generator (no randomness between runs): words, quoted values, URLs, parts.
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const words = ['failed', 'expected', 'got', 'the judge chose', 'error:', 'after 3 attempts'];
    const quoted = ['"a"', '"partially_correct"', `"${'long answer '.repeat(8)}"`, '"Paris"'];
    const urls = ['http://127.0.0.1:8787/answer', 'https://api.example.com:8443/v1/chat?x=1'];
    for (let round = 0; round < 300; round++) {
      const parts: string[] = [];
      const count = 2 + next(5);
      for (let i = 0; i < count; i++) {
        const kind = next(3);
        const piece =
          kind === 0
            ? `${words[next(words.length)]!} ${quoted[next(quoted.length)]!}`
            : kind === 1
              ? `POST ${urls[next(urls.length)]!} ${words[next(words.length)]!}`
              : words[next(words.length)]!;
        parts.push(piece);
      }
      const text = parts.join(next(2) === 0 ? ', ' : '; ');
      const width = 30 + next(130);
      const cut = cutReason(text, width);
      assert.ok(textWidth(cut) <= width, `${width}: ${cut}`);
      for (const value of cut.match(/"[^"]*"/g) ?? []) {
        // Whole, or its start with `…` before the closing quote: never `"ab…yz"`.
        const inner = value.slice(1, -1);
        const whole = quoted.includes(value);
        const start = inner.endsWith('\u2026') && !inner.slice(0, -1).includes('\u2026');
        assert.ok(whole || start, `${width}: ${value} in ${cut}`);
        if (!whole && textWidth(value) > 4) {
          assert.ok(
            quoted.some((q) => q.startsWith(value.slice(0, -2))),
            `${width}: ${value} in ${cut}`,
          );
        }
      }
      // A URL shown at all shows its host and port whole.
      for (const shown of cut.match(/POST \S+/g) ?? []) {
        if (shown === 'POST' || shown.endsWith('POST\u2026')) continue;
        assert.match(shown, /^POST (https?:\/\/)?(127\.0\.0\.1:8787|api\.example\.com:8443)/, cut);
      }
    }
  });
});

describe('the summary through a pipe at several widths', () => {
  it('keeps the http starter host:port whole at COLUMNS=60, 100, 160 and unset (160)', async () => {
    const dir = scratch();
    assert.equal((await runCli(['init', '--template', 'http'], { cwd: dir })).code, 0);
    const port = await freePort();
    for (const columns of ['60', '100', '160', undefined]) {
      const r = await runCli(['run'], {
        cwd: dir,
        env: { COLUMNS: columns, API_URL: `http://127.0.0.1:${port}/answer` },
      });
      assert.equal(r.code, 1, r.stderr);
      const width = Number(columns ?? 160);
      const lines = reasonLines(r.stdout, 'error: POST');
      assert.ok(lines.length > 0, r.stdout);
      for (const line of lines) {
        assert.match(line, new RegExp(`POST (http://)?127\\.0\\.0\\.1:${port}[/\u2026]`), line);
        assert.match(line, /failed \(ECONNREFUSED\)/, line);
      }
      // The reason lines fit (the gate's lines are not cut: outside this test).
      for (const line of r.stdout.split('\n').filter((l) => l.includes('error: POST'))) {
        assert.ok(textWidth(line) <= width, line);
      }
      // Unset (160 columns), the URL and the cause are whole on the reason's line, and the hint
      // on what ECONNREFUSED means and the attempts, which do not fit beside them, on the next.
      if (columns === undefined) {
        const head = `error: POST http://127.0.0.1:${port}/answer failed (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:${port};`;
        const all = r.stdout.split('\n').map((line) => line.trim());
        const at = all.indexOf(head);
        assert.ok(at >= 0, r.stdout);
        assert.equal(
          all[at + 1],
          'nothing accepts connections there: is the server running, on that host and port?; after 3 attempts',
        );
      }
    }
  });

  let server: OpenAiServer;
  useOpenAiServer((started) => (server = started));

  it('shows the judge labels whole or counted at COLUMNS=60, 100, 160 and unset', async () => {
    const dir = scratch();
    assert.equal((await runCli(['init'], { cwd: dir })).code, 0);
    const config = join(dir, 'evals.yaml');
    const yaml = readFileSync(config, 'utf8')
      .replace(
        '  timeout: 30s\n',
        `  timeout: 30s\n  judge: { model: m, baseUrl: ${server.url}, apiKey: sk-test }\n`,
      )
      .replace(
        '    gate:',
        '      - id: accurate\n        use: accuracy\n        with: { expected: "{{case.keywords}}" }\n    gate:',
      );
    writeFileSync(config, yaml);
    server.setDefault({ toolArguments: { choice: 'mostly_right', reason: 'close' } });
    for (const columns of ['60', '100', '160', undefined]) {
      const r = await runCli(['run'], { cwd: dir, env: { COLUMNS: columns } });
      assert.equal(r.code, 1, r.stderr);
      const lines = reasonLines(r.stdout, 'the judge chose');
      assert.ok(lines.length > 0, r.stdout);
      for (const line of lines) {
        for (const value of line.match(/"[^"]*"/g) ?? []) {
          assert.ok(
            ['"mostly_right"', '"correct"', '"partially_correct"', '"incorrect"'].includes(value),
            line,
          );
        }
      }
      if (columns !== '60') assert.ok(lines.some((line) => line.includes('"mostly_right"')));
    }
  });
});
