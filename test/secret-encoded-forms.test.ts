/**
 * Secrets that travel encoded (docs/config.md#secrets): a key sent as HTTP Basic authorization
 * (`Authorization: Basic base64(user:password)`) that a server decodes and echoes, and a key a
 * server echoes base64-encoded inside a longer error body, reached a case error (and so the
 * artifact, the JUnit file and the terminal) because only the forms as written, JSON-escaped and
 * URL-encoded were scrubbed. The pair, its password, and the base64 of every secret at any of
 * the three byte offsets a longer text can put it at are scrubbed now.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allText, artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

const PASSWORD = 'Pw7Zq8WvT3pLm9XrK2';
const PAIR = `deploy:${PASSWORD}`;
const BASIC = Buffer.from(PAIR).toString('base64');
const API_KEY = 'sk-Enc0dedKeyQ4WX8ZP2LN7MR5';

/** Every 8 characters in a row of the base64 of `secret` alone, at each byte offset. */
function base64Pieces(secret: string): string[] {
  const pieces: string[] = [];
  for (const prefix of ['', 'a', 'ab']) {
    for (const encoding of ['base64', 'base64url'] as const) {
      // The characters that encode the secret's bytes only: from the first whole group on.
      const encoded = Buffer.from(`${prefix}${secret}`).toString(encoding);
      const core = encoded.slice(prefix === '' ? 0 : 4, -4);
      for (let i = 0; i + 8 <= core.length; i++) pieces.push(core.slice(i, i + 8));
    }
  }
  return pieces;
}

// The case's `q` picks what the server echoes, behind `pad` characters so each byte offset is hit.
const server = useLoopbackServer((req, res) => {
  req.resume().on('end', () => {
    const url = new URL(req.url ?? '/', 'http://x');
    const pad = 'e'.repeat(Number(url.searchParams.get('pad')));
    const auth = req.headers.authorization ?? '';
    const pair = Buffer.from(auth.replace(/^Basic /, ''), 'base64').toString('utf8');
    const key = String(req.headers['x-api-key'] ?? '');
    const body =
      url.searchParams.get('q') === 'pair'
        ? `${pad}invalid credentials ${pair} (password ${pair.split(':')[1]})`
        : `${pad}trace ${Buffer.from(`${pad}refused ${key}, ${auth}`).toString('base64')}`;
    res.writeHead(401).end(body);
  });
});

describe('secrets sent or echoed encoded', () => {
  it('a Basic pair decoded and a key base64-encoded in an error body are scrubbed', async () => {
    const rows = [0, 1, 2, 3, 4, 5].flatMap((pad) => [
      { q: 'pair', pad },
      { q: 'b64', pad },
    ]);
    const dir = jsonlProject(
      rows,
      [
        'target:',
        '  type: http',
        `  url: "${server.base}/x?q={{case.q}}&pad={{case.pad}}"`,
        '  headers: { authorization: "Basic ${DEPLOY_BASIC}", x-api-key: "${API_KEY}" }',
        '  maxRetries: 0',
        'evaluators:',
        '  - { use: is-equals, with: { expected: x } }',
      ],
      {},
      [
        // Every row's own answer, however the 401s fall in a row: with the default, a sixth 401
        // in a row stops calls to the host, and a later row's error is the first one's cause.
        'defaults: { stopAfterErrors: 0 }',
      ],
    );
    const env = { DEPLOY_BASIC: BASIC, API_KEY };
    const result = await runInProcess(
      ['run', '-o', 'results.json', '--junit', 'junit.xml'],
      dir,
      env,
    );
    assert.equal(result.code, 1, result.stdout + result.stderr);
    const errors = artifactCases(dir)[0]!.cases.map((c) => c.error ?? '');
    // The server's answers did reach the case errors, with what they echoed redacted.
    assert.equal(errors.filter((e) => /invalid credentials \[redacted\]/.test(e)).length, 6);
    assert.equal(errors.filter((e) => /trace \S*\[redacted\]/.test(e)).length, 6);
    const everywhere = `${result.stdout}\n${result.stderr}\n${allText(dir)}`;
    for (const secret of [PAIR, PASSWORD, BASIC, API_KEY]) {
      assert.ok(!everywhere.includes(secret), `${secret} is in the output`);
    }
    for (const secret of [PAIR, API_KEY]) {
      const piece = base64Pieces(secret).find((p) => everywhere.includes(p));
      assert.equal(piece, undefined, `a piece of the base64 of ${secret} is in the output`);
    }
  });
});
