/**
 * The configHash hashes what evals.yaml means, not how it is written: comments, indentation,
 * key order, quoting and anchors leave it as it was, so `evals run --resume` and `evals merge`
 * accept a config that was only reformatted, and still refuse one whose meaning changed
 * (a threshold, the name of an environment reference). It is taken before `${VAR}`
 * substitution, so the value of a variable (a secret, say) never shows in it. An artifact an
 * earlier evalgate wrote with the hash of the text still resumes while the text is the same.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseConfig } from '../src/config/load.ts';
import type { LoadedConfig } from '../src/config/types.ts';
import { builtinEvaluators } from '../src/evaluators/registry.ts';
import { canonicalJson } from '../src/shared/canonical-json.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

const ROWS = 12;
const KEPT = 5;

/** The config every variant below means: one suite echoing n, two evaluators, an env reference. */
const BASE = [
  'version: 1',
  'defaults:',
  '  concurrency: ${EG_HASH_CONCURRENCY:-2}',
  'suites:',
  '  - id: echo',
  '    testset: { path: rows.csv }',
  '    function: ./fn.mjs#echo',
  '    evaluators:',
  '      - { id: same, use: is-equals, with: { expected: "{{case.n}}" } }',
  '      - { id: again, use: is-equals, with: { expected: "{{case.n}}" }, threshold: { gte: 0.5 } }',
  '',
].join('\n');

/** The same config written differently: each must hash (and resume) as BASE. */
const SAME: Record<string, string> = {
  'a comment added': `# the echo suite\n${BASE.replace('  - id: echo', '  - id: echo # one suite')}# end\n`,
  reindented: [
    'version: 1',
    'defaults:',
    '    concurrency: ${EG_HASH_CONCURRENCY:-2}',
    '',
    'suites:',
    '-   id: echo',
    '    testset:',
    '        path: rows.csv',
    '    function: ./fn.mjs#echo',
    '    evaluators:',
    '    -   id: same',
    '        use: is-equals',
    '        with:',
    '            expected: "{{case.n}}"',
    '    -   id: again',
    '        use: is-equals',
    '        with: {expected: "{{case.n}}"}',
    '        threshold: {gte: 0.5}',
    '',
  ].join('\n'),
  'keys reordered and requoted': [
    'suites:',
    '  - evaluators:',
    "      - { with: { expected: '{{case.n}}' }, use: 'is-equals', id: same }",
    '      - { threshold: { gte: 0.5 }, id: "again", with: { expected: "{{case.n}}" }, use: is-equals }',
    "    function: './fn.mjs#echo'",
    '    testset: { path: "rows.csv" }',
    '    id: echo',
    'defaults:',
    '  concurrency: ${EG_HASH_CONCURRENCY:-2}',
    'version: 1',
    '',
  ].join('\n'),
  'anchors and merge keys': [
    'version: 1',
    'defaults:',
    '  concurrency: ${EG_HASH_CONCURRENCY:-2}',
    'suites:',
    '  - id: echo',
    '    testset: { path: rows.csv }',
    '    function: ./fn.mjs#echo',
    '    evaluators:',
    '      - &same { id: same, use: is-equals, with: &expected { expected: "{{case.n}}" } }',
    '      - <<: *same',
    '        id: again',
    '        with: *expected',
    '        threshold: { gte: 0.5 }',
    '',
  ].join('\n'),
};

/** Configs that mean something else than BASE. */
const CHANGED: Record<string, string> = {
  'a changed threshold': BASE.replace('gte: 0.5', 'gte: 0.6'),
  'a renamed environment reference': BASE.replace('EG_HASH_CONCURRENCY:-2', 'EG_HASH_WORKERS:-2'),
};

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function load(text: string, env: Record<string, string | undefined> = {}): LoadedConfig {
  const result = parseConfig(text, {
    file: 'evals.yaml',
    absPath: join(scratch(), 'evals.yaml'),
    env,
    builtins: builtinEvaluators,
  });
  if (!result.ok) throw new Error(JSON.stringify(result.issues, null, 2));
  return result.config;
}

/** A project holding `config` as evals.yaml, its rows and its function. */
function project(config: string): string {
  const dir = scratch();
  writeFiles(dir, {
    'evals.yaml': config,
    'rows.csv': `n\n${Array.from({ length: ROWS }, (_, i) => i + 1).join('\n')}\n`,
    'fn.mjs': 'export const echo = ({ testCase }) => String(testCase.n);\n',
  });
  return dir;
}

function readArtifact(dir: string, file: string): ResultsArtifact {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as ResultsArtifact;
}

/**
 * What an interrupted run leaves: a complete run of `dir` (with `args`, to `file`) cut to its
 * first KEPT cases per run and marked interrupted, as `file`.
 */
async function interrupt(dir: string, file: string, args: string[] = []): Promise<void> {
  const full = await runInProcess(['run', ...args, '-o', file], dir);
  assert.equal(full.code, 0, full.stderr);
  const artifact = readArtifact(dir, file);
  for (const run of artifact.runs) run.cases = run.cases.slice(0, KEPT);
  artifact.interrupted = true;
  writeFileSync(join(dir, file), JSON.stringify(artifact));
}

async function resume(dir: string, file: string): Promise<{ code: number; stderr: string }> {
  return runInProcess(['run', '--resume', file, '-o', file], dir, {
    EG_HASH_CONCURRENCY: undefined,
    EG_HASH_WORKERS: undefined,
  });
}

// The partial records its data hash broken down, so the refusal names what changed in the
// config (the suite and its key, or the top-level key), not the module, and how to go on.
const REFUSED =
  /^error: part\.json was written by another config \(configHash [0-9a-f]{64}, now [0-9a-f]{64}\): since the interrupted run, (suite echo of evals\.yaml changed \(its evaluators\)|the top-level defaults of evals\.yaml changed); resuming needs the config and code the interrupted run used: undo those changes, or run evals run without --resume to run every case again\n$/;

// A partial whose recorded parts are not those of its configHash (an earlier evalgate's): what
// changed cannot be named, only what the hash covers.
const LEGACY_REFUSED =
  /^error: part\.json was written by another config \(configHash [0-9a-f]{64}, now [0-9a-f]{64}: another file, or the meaning of this one, a prompt or message file it reads, or a non-secret environment variable it refers to, changed since; comments, formatting, key order, quoting and anchors do not count\); resuming needs the config the interrupted run used\. Beside the config, the hash covers the module fn\.mjs: if the config is the same, one of those changed since\n$/;

describe('configHash: the meaning of evals.yaml, not its text', () => {
  it('is the same for a config written differently', () => {
    const hash = load(BASE).hash;
    for (const [what, text] of Object.entries(SAME)) {
      assert.notEqual(text, BASE);
      assert.equal(load(text).hash, hash, what);
    }
    for (const [what, text] of Object.entries(CHANGED)) {
      assert.notEqual(load(text).hash, hash, what);
    }
  });

  it('covers environment references by name, and the values of those that are not secrets', () => {
    const secret = 'sk-secret-value-1234';
    const text = BASE.replace('"{{case.n}}" } }', '"{{case.n}}${EG_HASH_KEY}" } }');
    const one = load(text, { EG_HASH_CONCURRENCY: '3', EG_HASH_KEY: secret });
    // Reformatted, and the secret rotated: the same config.
    const rotated = load(`${text}# reformatted\n`, { EG_HASH_CONCURRENCY: '3', EG_HASH_KEY: 'x' });
    assert.equal(rotated.hash, one.hash);
    // Another value of a variable that is not a secret: another config (a ${MODEL} that named
    // another model would mix two runs' results); unset, it counts as such.
    const other = load(text, { EG_HASH_CONCURRENCY: '7', EG_HASH_KEY: secret });
    assert.equal(one.defaults.concurrency, 3);
    assert.equal(other.defaults.concurrency, 7);
    assert.notEqual(other.hash, one.hash);
    assert.notEqual(load(text, { EG_HASH_KEY: secret }).hash, one.hash);
    // It is the hash of the data as written, with the non-secret values beside it.
    const written = {
      version: 1,
      defaults: {
        concurrency: { '\u0000evalgate': 'unquoted', value: '${EG_HASH_CONCURRENCY:-2}' },
      },
      suites: [
        {
          id: 'echo',
          testset: { path: 'rows.csv' },
          function: './fn.mjs#echo',
          evaluators: [
            { id: 'same', use: 'is-equals', with: { expected: '{{case.n}}${EG_HASH_KEY}' } },
            {
              id: 'again',
              use: 'is-equals',
              with: { expected: '{{case.n}}' },
              threshold: { gte: 0.5 },
            },
          ],
        },
      ],
    };
    const hashed = { config: written, env: { EG_HASH_CONCURRENCY: '3' } };
    assert.equal(one.hash, sha256(canonicalJson(hashed)));
    assert.ok(!canonicalJson(hashed).includes(secret));
    // Another name is another config, whatever the values.
    const renamed = load(text.replace('${EG_HASH_KEY}', '${EG_HASH_TOKEN}'), {
      EG_HASH_CONCURRENCY: '3',
      EG_HASH_TOKEN: secret,
    });
    assert.notEqual(renamed.hash, one.hash);
  });

  it('keeps out the value of a variable the config uses as a key, whatever its name', () => {
    const text = [
      'version: 1',
      'defaults:',
      '  judge: { model: m, apiKey: "${EG_HASH_PLAIN}" }',
      'suites:',
      '  - id: echo',
      '    testset: { path: rows.csv }',
      '    function: ./fn.mjs#echo',
      '',
    ].join('\n');
    const one = load(text, { EG_HASH_PLAIN: 'first-key-value' });
    assert.equal(load(text, { EG_HASH_PLAIN: 'second-key-value' }).hash, one.hash);
  });

  it('tells an unquoted reference (which may become a number) from a quoted one', () => {
    const at = (value: string): string =>
      load(
        [
          'version: 1',
          'suites:',
          '  - id: echo',
          '    testset: { path: rows.csv }',
          '    function: ./fn.mjs#echo',
          '    evaluators:',
          '      - id: same',
          '        use: is-equals',
          '        with:',
          `          expected: ${value}`,
          '',
        ].join('\n'),
        { EG_HASH_N: '1' },
      ).hash;
    assert.equal(at("'{{case.n}}'"), at('"{{case.n}}"'));
    assert.equal(at("'${EG_HASH_N}'"), at('"${EG_HASH_N}"'));
    assert.notEqual(at('"${EG_HASH_N}"'), at('${EG_HASH_N}'));
    // An escaped $${ is no reference: quoted or not, it is the same text.
    assert.equal(at('"$${EG_HASH_N}"'), at('$${EG_HASH_N}'));
  });

  it('keeps the hash of the text, which earlier versions recorded', () => {
    const config = load(BASE);
    assert.equal(config.textHash, sha256(BASE));
    assert.notEqual(config.hash, config.textHash);
  });
});

describe('evals run --resume across edits of evals.yaml', () => {
  for (const [what, text] of Object.entries(SAME)) {
    it(`resumes after ${what}`, async () => {
      const dir = project(BASE);
      await interrupt(dir, 'part.json');
      const written = readArtifact(dir, 'part.json').configHash;
      writeFileSync(join(dir, 'evals.yaml'), text);
      const r = await resume(dir, 'part.json');
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, new RegExp(`resuming part\\.json: ${KEPT} case results kept`));
      const done = readArtifact(dir, 'part.json');
      assert.equal(done.interrupted, false);
      assert.equal(done.runs[0]?.cases.length, ROWS);
      assert.equal(done.configHash, written);
    });
  }

  for (const [what, text] of Object.entries(CHANGED)) {
    it(`refuses ${what}, saying the meaning changed`, async () => {
      const dir = project(BASE);
      await interrupt(dir, 'part.json');
      const before = readFileSync(join(dir, 'part.json'), 'utf8');
      writeFileSync(join(dir, 'evals.yaml'), text);
      const r = await resume(dir, 'part.json');
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, REFUSED);
      assert.equal(readFileSync(join(dir, 'part.json'), 'utf8'), before, 'the partial is kept');
    });
  }

  it('resumes a partial an earlier version wrote with the hash of the text, while the text is the same', async () => {
    const dir = project(BASE);
    await interrupt(dir, 'part.json', ['--shard', '2/2']);
    await interrupt(dir, 's1.json', ['--shard', '1/2']);
    // As an earlier evalgate wrote them: configHash is the sha256 of the text.
    for (const file of ['part.json', 's1.json']) {
      const legacy = readArtifact(dir, file);
      assert.notEqual(legacy.configHash, sha256(BASE));
      legacy.configHash = sha256(BASE);
      writeFileSync(join(dir, file), JSON.stringify(legacy));
    }
    const legacyPartial = readFileSync(join(dir, 'part.json'), 'utf8');

    // The text edited: only the hash of the data could match, and the partial does not have it.
    writeFileSync(join(dir, 'evals.yaml'), `${BASE}# edited\n`);
    const edited = await resume(dir, 'part.json');
    assert.equal(edited.code, 2, edited.stderr);
    assert.match(edited.stderr, LEGACY_REFUSED);

    // The same text: resumed, and the finished shard keeps the hash its sibling records.
    writeFileSync(join(dir, 'evals.yaml'), BASE);
    const same = await resume(dir, 'part.json');
    assert.equal(same.code, 0, same.stderr);
    assert.equal(readArtifact(dir, 'part.json').configHash, sha256(BASE));
    assert.equal(readArtifact(dir, 'part.json').interrupted, false);
    assert.notEqual(readFileSync(join(dir, 'part.json'), 'utf8'), legacyPartial);
    const s1 = await resume(dir, 's1.json');
    assert.equal(s1.code, 0, s1.stderr);
    const merged = await runInProcess(['merge', 's1.json', 'part.json', '-o', 'all.json'], dir);
    assert.equal(merged.code, 0, merged.stderr);
    assert.equal(readArtifact(dir, 'all.json').runs[0]?.cases.length, ROWS);
  });
});

describe('evals merge across edits of evals.yaml', () => {
  /** Shard 1/2 run with the base config, shard 2/2 with `edited`, then the two merged. */
  async function mergeAcross(
    edited: string,
  ): Promise<{ dir: string; code: number; stderr: string }> {
    const dir = project(BASE);
    const s1 = await runInProcess(['run', '--shard', '1/2', '-o', 's1.json'], dir);
    assert.equal(s1.code, 0, s1.stderr);
    writeFileSync(join(dir, 'evals.yaml'), edited);
    const s2 = await runInProcess(['run', '--shard', '2/2', '-o', 's2.json'], dir);
    assert.equal(s2.code, 0, s2.stderr);
    const merged = await runInProcess(['merge', 's1.json', 's2.json', '-o', 'all.json'], dir);
    return { dir, ...merged };
  }

  it('merges shards whose config only got a comment in between', async () => {
    const merged = await mergeAcross(SAME['a comment added']!);
    assert.equal(merged.code, 0, merged.stderr);
    const all = readArtifact(merged.dir, 'all.json');
    assert.equal(all.runs[0]?.cases.length, ROWS);
    assert.equal(all.configHash, readArtifact(merged.dir, 's1.json').configHash);
  });

  it('refuses shards whose config changed meaning, saying so', async () => {
    const merged = await mergeAcross(CHANGED['a changed threshold']!);
    assert.equal(merged.code, 2, merged.stderr);
    assert.match(merged.stderr, /the inputs ran different configs \(configHash\)/);
    assert.match(
      merged.stderr,
      /From s1\.json to s2\.json: suite echo of the config changed \(its evaluators\)\. Merge only/,
    );
  });
});
