/**
 * Secrets never leave the process: servers and programs that echo a key (in errors and in
 * successful answers), with the key placed across every length limit evalgate cuts text at,
 * and no 6-character piece of any key in the artifact, the JUnit file, the cache, or the
 * terminal.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createScrubber, REDACTED, secretsInHeaders, secretsInUrl } from '../src/shared/secrets.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { allText, runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

const MODEL_KEY = 'sk-Zq8WvT3pLm9XrK2bN7cY4dF6gH1jQ5uE';
const HTTP_TOKEN = 'tok_Hy3Kd9Lw2Qe7Rt5Yu1Io8Pa4Sx6Dc0Vb';
const ENV_SECRET = 'env-Mn4Bv7Cx1Zl9Kj3Hg6Fd2Sa8Qw5Er0Ty';

/** Pieces of `secret` of 6 characters found in `text`. */
function leaks(text: string, secret: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + 6 <= secret.length; i++) {
    const piece = secret.slice(i, i + 6);
    if (text.includes(piece)) found.push(piece);
  }
  return found;
}

/** Offsets that put a key of `length` across a cut at `limit`: from wholly before to wholly after. */
function around(limit: number, length: number): number[] {
  return Array.from({ length: length + 2 }, (_, i) => limit - length - 1 + i).filter((n) => n >= 0);
}

let openai: OpenAiServer;
useOpenAiServer((s) => (openai = s));

let httpBase = '';
const http = createServer((req, res) => {
  const pad = Number(/\/echo\/(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
  const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
  res.writeHead(500).end(`${'h'.repeat(pad)}${token} and ${req.headers.authorization}`);
});
before(async () => {
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  httpBase = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
after(async () => {
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
});

describe('secrets', () => {
  it('no piece of any key reaches the artifact, JUnit, cache or terminal, at any cut offset', async () => {
    // The fake answers with the caller's key after `pad` characters: in a 200 answer's text for
    // prompts starting "ok", in a 401 error otherwise.
    openai.setResponder((request) => {
      const body = request.body as { messages: { content: string }[] };
      const [kind, padText] = (body.messages.at(-1)?.content ?? '').split(' ');
      const pad = Number(padText);
      const key = String(request.headers.authorization).replace(/^Bearer /, '');
      return kind === 'ok'
        ? { content: `${'m'.repeat(pad)}${key}` }
        : { status: 401, body: { error: { message: `${'e'.repeat(pad)}${key} is not valid` } } };
    });
    const okPads = around(500, MODEL_KEY.length);
    const errorPads = [
      ...around(200, MODEL_KEY.length),
      ...around(300, MODEL_KEY.length),
      ...around(2048, MODEL_KEY.length),
    ];
    const httpPads = around(500, HTTP_TOKEN.length + 'Bearer '.length);
    const dir = scratch();
    const rows = (pads: number[], kind: string) =>
      pads.map((pad) => JSON.stringify({ kind, pad })).join('\n') + '\n';
    writeFiles(dir, {
      'model-ok.jsonl': rows(okPads, 'ok'),
      'model-error.jsonl': rows(errorPads, 'error'),
      'http.jsonl': rows(httpPads, 'http'),
      'command.jsonl': rows([0, 10, 100], 'command'),
      'evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: model-ok',
        '    testset: { path: model-ok.jsonl }',
        `    target: { type: model, model: m, baseUrl: "${openai.url}", apiKey: "\${MODEL_CREDENTIAL}", prompt: "{{case.kind}} {{case.pad}}" }`,
        // levenshtein keeps the output in its metadata, cut at 500 characters.
        '    evaluators: [{ use: levenshtein, with: { expected: y } }]',
        '  - id: model-error',
        '    testset: { path: model-error.jsonl }',
        `    target: { type: model, model: m, baseUrl: "${openai.url}", apiKey: "\${MODEL_CREDENTIAL}", prompt: "{{case.kind}} {{case.pad}}", maxRetries: 0 }`,
        '  - id: http',
        '    testset: { path: http.jsonl }',
        `    target: { type: http, url: "${httpBase}/echo/{{case.pad}}", headers: { Authorization: "Bearer \${STAGING_CRED}" }, maxRetries: 0 }`,
        '  - id: command',
        '    testset: { path: command.jsonl }',
        '    target:',
        '      type: command',
        '      run: [node, -e, "const p=\'c\'.repeat(+process.argv[1]); console.log(p+process.env.DEPLOY_TOKEN); console.error(p+process.env.DEPLOY_TOKEN); process.exit(1)", "{{case.pad}}"]',
        '',
      ].join('\n'),
    });
    const result = await runInProcess(['run', '-o', 'results.json', '--junit', 'junit.xml'], dir, {
      // MODEL_CREDENTIAL and STAGING_CRED do not look secret by name: they are secrets because
      // the config puts them in an apiKey and a header. DEPLOY_TOKEN is one by its name.
      MODEL_CREDENTIAL: MODEL_KEY,
      STAGING_CRED: HTTP_TOKEN,
      DEPLOY_TOKEN: ENV_SECRET,
    });
    assert.equal(result.code, 1, result.stderr);
    const artifact = readFileSync(join(dir, 'results.json'), 'utf8');
    // The run did see the echoes: the redaction marks are there.
    assert.ok(artifact.includes(REDACTED));
    const outputs = {
      artifact,
      junit: readFileSync(join(dir, 'junit.xml'), 'utf8'),
      cache: allText(join(dir, '.evalgate', 'cache')),
      terminal: result.stdout + result.stderr,
    };
    for (const [where, text] of Object.entries(outputs)) {
      for (const secret of [MODEL_KEY, HTTP_TOKEN, ENV_SECRET]) {
        assert.deepEqual(
          leaks(text, secret),
          [],
          `${where} holds pieces of ${secret.slice(0, 4)}…`,
        );
      }
    }
    // Every case of every suite ran and was recorded, none lost to the scrubbing.
    const runs = (JSON.parse(artifact) as { runs: { cases: unknown[] }[] }).runs;
    assert.deepEqual(
      runs.map((r) => r.cases.length),
      [okPads.length, errorPads.length, httpPads.length, 3],
    );
  });
});

describe('the scrubber', () => {
  it('replaces a secret raw, JSON-escaped and percent-encoded, and pieces cut by an ellipsis', () => {
    const secret = 'a"b/c+d=e&f1234';
    const scrub = createScrubber([secret]);
    assert.equal(scrub.text(`x ${secret} y`), `x ${REDACTED} y`);
    assert.equal(
      scrub.json(JSON.stringify({ v: `x${secret}` })),
      JSON.stringify({ v: `x${REDACTED}` }),
    );
    assert.equal(scrub.text(`?k=${encodeURIComponent(secret)}`), `?k=${REDACTED}`);
    assert.equal(scrub.json('"…c+d=e&f1234 end"'), `"…${REDACTED} end"`);
    assert.equal(
      scrub.json('"start a\\"b/c+d… (9 more characters)"'),
      `"start ${REDACTED}… (9 more characters)"`,
    );
  });

  it('replaces a secret base64-encoded, on its own or at any offset of a longer text encoded', () => {
    const secret = 'sk-Zq8WvT3pLm9XrK2b?>~';
    const scrub = createScrubber([secret]);
    const b64 = (text: string): string => Buffer.from(text).toString('base64');
    const b64url = (text: string): string => Buffer.from(text).toString('base64url');
    assert.equal(scrub.text(`Basic ${b64(secret)}`), `Basic ${REDACTED}`);
    assert.equal(scrub.text(`t=${b64url(secret)}`), `t=${REDACTED}`);
    // The key inside a longer text, encoded whole: at each of the three byte offsets, what
    // encodes the key's bytes alone is replaced; at most 3 characters either side of it stay.
    for (const prefix of ['', 'a', 'ab', 'abc', 'error: bad key ']) {
      for (const encode of [b64, b64url]) {
        const body = encode(`${prefix}${secret} was refused`);
        const out = scrub.text(`body ${body}`);
        assert.ok(out.includes(REDACTED), `${prefix}: ${out}`);
        const [before = '', after = ''] = out.slice(5).split(REDACTED);
        // Of the key's bytes, at most 2 at either end are in characters left (with the text's).
        const sharedGroup = (bytes: number): number => 4 * Math.ceil(bytes / 3);
        assert.ok(before.length <= sharedGroup(prefix.length + 2), `${prefix}: ${out}`);
        assert.ok(after.length <= sharedGroup(2 + ' was refused'.length), `${prefix}: ${out}`);
      }
    }
  });

  it('takes the user:password of a Basic authorization and of a URL, and removes both encoded', () => {
    const pair = 'deploy:Pw7Zq8WvT3pLm';
    const header = `Basic ${Buffer.from(pair).toString('base64')}`;
    const found = secretsInHeaders({ Authorization: header });
    assert.deepEqual(found, [header, header.slice(6), pair, 'Pw7Zq8WvT3pLm']);
    const scrub = createScrubber(found);
    assert.equal(scrub.text(`refused ${pair}`), `refused ${REDACTED}`);
    assert.ok(secretsInUrl('http://deploy:Pw7Zq8WvT3pLm@proxy.test:3128/').includes(pair));
    const fromUrl = createScrubber(secretsInUrl('http://deploy:Pw7Zq8WvT3pLm@proxy.test/'));
    assert.equal(fromUrl.text(header), `Basic ${REDACTED}`);
    // A token that is no base64 of a pair adds nothing.
    assert.deepEqual(secretsInHeaders({ Authorization: 'Basic not-base64!!' }), [
      'Basic not-base64!!',
      'not-base64!!',
    ]);
  });

  it('leaves short values alone and takes credentials from URL queries', () => {
    assert.equal(createScrubber(['local']).empty, true);
    assert.deepEqual(secretsInUrl('https://x/v1?api-version=2024-01-01&api-key=abc%2Fdef123'), [
      'abc%2Fdef123',
      'abc/def123',
    ]);
    assert.deepEqual(secretsInUrl('https://x/{{case.q}}?token={{params.t}}'), []);
  });
});

describe('secrets written with an escaped {{', () => {
  it('are the values as sent, the escape read (and a real template is none)', () => {
    assert.deepEqual(secretsInHeaders({ 'X-Api-Key': 'k3y-\\{{Zq8WvT3p' }), ['k3y-{{Zq8WvT3p']);
    assert.deepEqual(secretsInHeaders({ 'X-Api-Key': 'k3y-{{ case.key }}' }), []);
    assert.ok(
      secretsInUrl('https://h.example/?api_key=k3y-\\{{Zq8WvT3p').includes('k3y-{{Zq8WvT3p'),
    );
  });
});
