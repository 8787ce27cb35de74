/**
 * An artifact records what its configHash covered (`configHashParts`: the config's data hash
 * and each covered file's digest), so `evals run --resume` and `evals merge` name what changed
 * (the config itself, or which file changed, is new, is gone, or cannot be read) instead of
 * listing everything the hash covers. Parts that do not hash to the recorded configHash (an
 * earlier evalgate's, or a hand edit) are not trusted: the message then says what the hash
 * covers, as before.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  describeConfigChanges,
  hashOfParts,
  recordedParts,
} from '../src/config/config-hash-parts.ts';
import { validateArtifact } from '../src/artifact/schema.ts';
import type { ConfigHashParts, ResultsArtifact } from '../src/types/index.ts';
import { writeInterrupted } from './helpers/interrupted-artifact.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const ROWS = [{ q: 'a' }, { q: 'b' }, { q: 'c' }, { q: 'd' }];

const FILES: Record<string, string> = {
  'app/answer.mjs': [
    "import { shout } from './shout.mjs';",
    'export const answer = ({ testCase }) => shout(testCase.q);',
    '',
  ].join('\n'),
  'app/shout.mjs': "export const shout = (text) => text.toUpperCase() + '!';\n",
  'app/extra.mjs': "export const extra = '!';\n",
};

const SUITE = [
  'function: ./app/answer.mjs#answer',
  'evaluators: [ { use: contains, with: { values: ["!"] } } ]',
];

function readArtifact(dir: string, file: string): ResultsArtifact {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as ResultsArtifact;
}

async function run(dir: string, args: string[]): Promise<void> {
  const r = await runInProcess(['run', ...args], dir, {});
  assert.equal(r.code, 0, r.stdout + r.stderr);
}

/** A project interrupted after 2 of its 4 cases, as partial.json. */
async function interruptedProject(): Promise<string> {
  const dir = jsonlProject(ROWS, SUITE, FILES);
  await run(dir, ['-o', 'full.json']);
  writeInterrupted(dir, 'full.json', 'partial.json', 2);
  return dir;
}

function resume(dir: string): ReturnType<typeof runInProcess> {
  return runInProcess(['run', '--resume', 'partial.json', '-o', 'out.json'], dir, {});
}

/** The refusal's account of what changed: the text between "since the interrupted run, " and "; resuming". */
function changes(stderr: string): string {
  const match = /: since the interrupted run, (.*); resuming needs the config and code/.exec(
    stderr,
  );
  assert.ok(match, stderr);
  return match[1]!;
}

describe('configHashParts in the artifact', () => {
  it('records the data hash and every covered file, and hashes to configHash', async () => {
    const dir = jsonlProject(ROWS, SUITE, FILES);
    await run(dir, ['-o', 'out.json']);
    const artifact = readArtifact(dir, 'out.json');
    const parts = artifact.configHashParts;
    assert.ok(parts, 'recorded');
    assert.deepEqual(Object.keys(parts), ['config', 'modules']);
    assert.deepEqual(Object.keys(parts.modules ?? {}).sort(), ['app/answer.mjs', 'app/shout.mjs']);
    assert.match(parts.modules?.['app/shout.mjs'] ?? '', /^[0-9a-f]{64}$/);
    assert.equal(hashOfParts(parts), artifact.configHash);
    assert.deepEqual(validateArtifact(artifact), []);
  });

  it('is absent when the hash covers no file (it would only repeat configHash)', async () => {
    const recorded = ROWS.map((row) => ({ ...row, output: `${row.q}!` }));
    const dir = jsonlProject(recorded, [
      'evaluators: [ { use: contains, with: { values: ["!"] } } ]',
    ]);
    await run(dir, ['-o', 'out.json']);
    assert.equal(readArtifact(dir, 'out.json').configHashParts, undefined);
  });

  it('is kept by a resumed run and by a merge', async () => {
    const dir = await interruptedProject();
    const parts = readArtifact(dir, 'full.json').configHashParts;
    const resumed = await resume(dir);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.deepEqual(readArtifact(dir, 'out.json').configHashParts, parts);
    await run(dir, ['--shard', '1/2', '-o', 's1.json']);
    await run(dir, ['--shard', '2/2', '-o', 's2.json']);
    const merged = await runInProcess(['merge', 's1.json', 's2.json', '-o', 'm.json'], dir, {});
    assert.equal(merged.code, 0, merged.stderr);
    assert.deepEqual(readArtifact(dir, 'm.json').configHashParts, parts);
  });
});

describe('evals run --resume names what changed', () => {
  it('a newly imported file and an edited one', async () => {
    const dir = await interruptedProject();
    writeFileSync(
      join(dir, 'app/shout.mjs'),
      "import { extra } from './extra.mjs';\nexport const shout = (text) => text.toUpperCase() + extra;\n",
    );
    const r = await resume(dir);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    // Files in the order the current import graph lists them.
    assert.equal(
      changes(r.stderr),
      'the file app/extra.mjs, imported by a module, is new (not covered then); the file app/shout.mjs, imported by a module, changed',
    );
  });

  it('an import taken out, and the config edited too', async () => {
    const dir = await interruptedProject();
    writeFileSync(
      join(dir, 'app/answer.mjs'),
      'export const answer = ({ testCase }) => `${testCase.q}!`;\n',
    );
    const config = readFileSync(join(dir, 'evals.yaml'), 'utf8');
    writeFileSync(join(dir, 'evals.yaml'), config.replace('values: ["!"]', 'values: ["?"]'));
    const r = await resume(dir);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.equal(
      changes(r.stderr),
      'suite s of evals.yaml changed (its evaluators); the module app/answer.mjs changed; the file app/shout.mjs, imported by a module, is no longer covered (not named or imported now)',
    );
  });

  it('a file that cannot be read now', async () => {
    const dir = await interruptedProject();
    rmSync(join(dir, 'app/shout.mjs'));
    const r = await resume(dir);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    // esbuild does not list an import it cannot resolve; the module that names it did not change.
    assert.match(
      r.stderr,
      /app\/shout\.mjs, imported by a module, (is no longer covered|cannot be read now)/,
    );
    assert.doesNotMatch(r.stderr, /app\/answer\.mjs changed/);
  });

  it('says what the hash covers when the recorded parts are not those of configHash', async () => {
    const dir = await interruptedProject();
    const partial = readArtifact(dir, 'partial.json');
    partial.configHashParts = { ...partial.configHashParts!, config: '0'.repeat(64) };
    writeFileSync(join(dir, 'partial.json'), JSON.stringify(partial));
    writeFileSync(join(dir, 'app/shout.mjs'), "export const shout = (text) => text + '!';\n");
    const r = await resume(dir);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.doesNotMatch(r.stderr, /since the interrupted run/);
    assert.match(
      r.stderr,
      /the hash covers the module app\/answer\.mjs and the 1 local file it imports: if the config is the same, one of those changed since/,
    );
  });
});

describe('evals merge names what changed between shards', () => {
  it('from the first input to each input with another configHash', async () => {
    const dir = jsonlProject(ROWS, SUITE, FILES);
    await run(dir, ['--shard', '1/3', '-o', 's1.json']);
    await run(dir, ['--shard', '2/3', '-o', 's2.json']);
    writeFileSync(join(dir, 'app/shout.mjs'), "export const shout = (text) => text + '!';\n");
    await run(dir, ['--shard', '3/3', '-o', 's3.json']);
    const r = await runInProcess(['merge', 's1.json', 's2.json', 's3.json'], dir, {});
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /different configs \(configHash\): s1\.json, s2\.json ran [0-9a-f]{64}; s3\.json ran [0-9a-f]{64}\. From s1\.json to s3\.json: the module file app\/shout\.mjs changed\. Merge only shards/,
    );
  });
});

describe('describeConfigChanges', () => {
  const digest = (c: string): string => c.repeat(64);
  const base: ConfigHashParts = {
    config: digest('a'),
    promptFiles: { 'prompts/a.md': digest('1') },
    scripts: { 'agent.sh': digest('2') },
  };

  it('is empty for the same parts', () => {
    assert.deepEqual(describeConfigChanges(base, structuredClone(base)), []);
  });

  it('names files of every kind, and one unreadable now', () => {
    const after: ConfigHashParts = {
      config: digest('a'),
      promptFiles: { 'prompts/a.md': null },
      modules: { 'app/x.ts': digest('3') },
    };
    assert.deepEqual(describeConfigChanges(base, after), [
      'the prompt file prompts/a.md cannot be read now',
      'the module file app/x.ts is new (not covered then)',
      'the command script agent.sh is no longer covered (not named or imported now)',
    ]);
  });

  it('lists 8 files and counts the rest', () => {
    const many = (d: string): Record<string, string> =>
      Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`f${i}.ts`, digest(d)]));
    const out = describeConfigChanges(
      { config: digest('a'), modules: many('1') },
      { config: digest('a'), modules: many('2') },
    );
    assert.equal(out.length, 9);
    assert.equal(out[7], 'the module file f7.ts changed');
    assert.equal(out[8], '3 more files changed');
  });

  it('trusts recorded parts only when they hash to the recorded configHash', () => {
    assert.equal(recordedParts(hashOfParts(base), base), base);
    assert.equal(recordedParts(digest('f'), base), undefined);
    assert.equal(recordedParts(digest('f'), undefined), undefined);
  });
});
