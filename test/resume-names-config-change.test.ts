/**
 * `evals run --resume` refusing a partial written by another config says what changed, as
 * precisely as the partial's record allows: in the config itself, which suite (and which of its
 * keys), which other top-level key, or which environment variable's value (`configDataParts`,
 * recorded also when the hash covers no file); beside it, which kind of file (a prompt file, a
 * module or a file a module imports, a command script) and which one; then how to go on. A
 * partial without `configDataParts` (an earlier evalgate) is refused as before.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { validateArtifact } from '../src/artifact/schema.ts';
import { describeDataChanges } from '../src/config/config-data-parts.ts';
import type { ConfigDataParts, ResultsArtifact } from '../src/types/index.ts';
import { writeFiles, scratch } from './helpers/cli.ts';
import { writeInterrupted } from './helpers/interrupted-artifact.ts';
import { runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

const ROWS = ['a', 'b', 'c', 'd'].map((q) => JSON.stringify({ q, output: `${q}!` })).join('\n');

/** Two suites of recorded outputs (no file covered beside the config), `LABEL` from the env. */
const CONFIG = [
  'version: 1',
  'defaults: { concurrency: 2 }',
  'suites:',
  '  - id: s',
  '    testset: { path: rows.jsonl }',
  '    evaluators: [ { use: contains, with: { values: ["!"] } } ]',
  '  - id: t',
  '    testset: { path: rows.jsonl }',
  '    evaluators: [ { id: "${LABEL:-plain}", use: contains, with: { values: ["!"] } } ]',
  '',
].join('\n');

const ENV = { LABEL: 'first' };

function readArtifact(dir: string, file: string): ResultsArtifact {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as ResultsArtifact;
}

/** A project run whole (full.json), then cut after 2 cases of its first run (partial.json). */
async function interrupted(config = CONFIG, files: Record<string, string> = {}): Promise<string> {
  const dir = scratch();
  writeFiles(dir, { 'evals.yaml': config, 'rows.jsonl': `${ROWS}\n`, ...files });
  const r = await runInProcess(['run', '-o', 'full.json', '--no-cache'], dir, ENV);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  writeInterrupted(dir, 'full.json', 'partial.json', 2);
  return dir;
}

function resume(dir: string, env: Record<string, string> = ENV) {
  return runInProcess(
    ['run', '--resume', 'partial.json', '-o', 'out.json', '--no-cache'],
    dir,
    env,
  );
}

function edit(dir: string, file: string, change: (text: string) => string): void {
  writeFileSync(join(dir, file), change(readFileSync(join(dir, file), 'utf8')));
}

/** The refusal's account of what changed, and that it ends with how to go on. */
function changes(stderr: string): string {
  const match =
    /^error: partial\.json was written by another config \(configHash [0-9a-f]{64}, now [0-9a-f]{64}\): since the interrupted run, (.*); resuming needs the config and code the interrupted run used: undo those changes, or run evals run without --resume to run every case again\n$/.exec(
      stderr,
    );
  assert.ok(match, stderr);
  return match[1]!;
}

describe('evals run --resume names what changed in the config', () => {
  it('records configDataParts even when the hash covers no file, in a valid artifact', async () => {
    const dir = await interrupted();
    const artifact = readArtifact(dir, 'full.json');
    assert.equal(artifact.configHashParts, undefined);
    const data = artifact.configDataParts;
    assert.ok(data, 'recorded');
    assert.equal(data.of, artifact.configHash);
    assert.deepEqual(Object.keys(data.keys).sort(), ['defaults', 'version']);
    assert.deepEqual(
      data.suites.map((suite) => suite.id),
      ['s', 't'],
    );
    assert.deepEqual(Object.keys(data.env ?? {}), ['LABEL']);
    assert.deepEqual(validateArtifact(artifact), []);
  });

  it('the suite that changed, and which of its keys', async () => {
    const dir = await interrupted();
    edit(dir, 'evals.yaml', (text) =>
      text.replace(
        'plain}", use: contains, with: { values: ["!"]',
        'plain}", use: contains, with: { values: ["?"]',
      ),
    );
    const r = await resume(dir);
    assert.equal(r.code, 2);
    assert.equal(changes(r.stderr), 'suite t of evals.yaml changed (its evaluators)');
  });

  it('a suite added, another top-level key changed', async () => {
    const dir = await interrupted();
    edit(dir, 'evals.yaml', (text) =>
      text
        .replace('concurrency: 2', 'concurrency: 3')
        .concat(
          '  - id: u\n    testset: { path: rows.jsonl }\n    evaluators: [ { use: contains, with: { values: ["!"] } } ]\n',
        ),
    );
    const r = await resume(dir);
    assert.equal(r.code, 2);
    assert.equal(
      changes(r.stderr),
      'the top-level defaults of evals.yaml changed; suite u is new in evals.yaml',
    );
  });

  it('the suites reordered', async () => {
    const dir = await interrupted();
    edit(dir, 'evals.yaml', (text) => {
      const [head, tail] = text.split('  - id: t\n');
      const [top, s] = head!.split('  - id: s\n');
      return `${top}  - id: t\n${tail}  - id: s\n${s}`;
    });
    const r = await resume(dir);
    assert.equal(r.code, 2);
    assert.equal(changes(r.stderr), 'the suites of evals.yaml are in another order');
  });

  it('the value of an environment variable the config refers to', async () => {
    const dir = await interrupted();
    const r = await resume(dir, { LABEL: 'second' });
    assert.equal(r.code, 2);
    assert.equal(
      changes(r.stderr),
      'the environment variable LABEL that evals.yaml refers to has another value',
    );
    const unset = await resume(dir, { LABEL: '' });
    assert.equal(unset.code, 2);
    assert.match(unset.stderr, /the environment variable LABEL that evals\.yaml refers to/);
  });

  it('a partial without configDataParts (an earlier evalgate) is refused as before, or resumes', async () => {
    const dir = await interrupted();
    const partial = readArtifact(dir, 'partial.json');
    delete partial.configDataParts;
    writeFileSync(join(dir, 'partial.json'), JSON.stringify(partial));
    const same = await runInProcess(
      ['run', '--resume', 'partial.json', '-o', 'same.json'],
      dir,
      ENV,
    );
    assert.equal(same.code, 0, same.stderr);
    edit(dir, 'evals.yaml', (text) => text.replace('concurrency: 2', 'concurrency: 3'));
    const r = await resume(dir);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /partial\.json was written by another config \(configHash /);
    assert.doesNotMatch(r.stderr, /defaults/);
  });

  it('parts recorded for another data hash (edited by hand) are not trusted', async () => {
    const dir = await interrupted();
    const partial = readArtifact(dir, 'partial.json');
    partial.configDataParts!.of = '0'.repeat(64);
    writeFileSync(join(dir, 'partial.json'), JSON.stringify(partial));
    edit(dir, 'evals.yaml', (text) => text.replace('concurrency: 2', 'concurrency: 3'));
    const r = await resume(dir);
    assert.equal(r.code, 2);
    assert.doesNotMatch(r.stderr, /defaults/);
  });
});

describe('evals run --resume names the kind of file that changed', () => {
  const FILES = {
    'app/answer.mjs':
      "import { shout } from './shout.mjs';\nexport const answer = ({ testCase }) => shout(testCase.q);\n",
    'app/shout.mjs': "export const shout = (text) => text + '!';\n",
  };
  const MODULE_CONFIG = [
    'version: 1',
    'suites:',
    '  - id: s',
    '    testset: { path: rows.jsonl }',
    '    function: ./app/answer.mjs#answer',
    '    evaluators: [ { use: contains, with: { values: ["!"] } } ]',
    '',
  ].join('\n');

  it('a module, and a file a module imports', async () => {
    const dir = await interrupted(MODULE_CONFIG, FILES);
    edit(dir, 'app/shout.mjs', (text) => `${text}// edited\n`);
    const imported = await resume(dir);
    assert.equal(imported.code, 2);
    assert.equal(changes(imported.stderr), 'the file app/shout.mjs, imported by a module, changed');
    edit(dir, 'app/answer.mjs', (text) => `${text}// edited\n`);
    const both = await resume(dir);
    assert.equal(
      changes(both.stderr),
      'the module app/answer.mjs changed; the file app/shout.mjs, imported by a module, changed',
    );
  });

  it('a prompt file', async () => {
    const config = [
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset: { path: rows.jsonl }',
      '    target:',
      '      type: model',
      '      model: m',
      `      baseUrl: ${server.url}`,
      '      apiKey: sk-test-key-1',
      '      messages:',
      '        - { role: system, content: { file: prompts/p.md } }',
      '        - { role: user, content: "{{case.q}}" }',
      '    evaluators: [ { use: contains, with: { values: ["{{case.q}}"] } } ]',
      '',
    ].join('\n');
    const dir = await interrupted(config, { 'prompts/p.md': 'Answer briefly.\n' });
    writeFileSync(join(dir, 'prompts/p.md'), 'Answer at length.\n');
    const r = await resume(dir);
    assert.equal(r.code, 2);
    assert.equal(changes(r.stderr), 'the prompt file prompts/p.md changed');
  });

  it('a command script', async () => {
    const config = [
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset: { path: rows.jsonl }',
      '    target: { type: command, run: [sh, agent.sh, "{{ case.q }}"] }',
      '    evaluators: [ { use: contains, with: { values: ["!"] } } ]',
      '',
    ].join('\n');
    const dir = await interrupted(config, { 'agent.sh': 'printf "%s!" "$1"\n' });
    edit(dir, 'agent.sh', (text) => `${text}# edited\n`);
    const r = await resume(dir);
    assert.equal(r.code, 2);
    assert.equal(changes(r.stderr), 'the command script agent.sh changed');
  });
});

describe('describeDataChanges', () => {
  const parts = (
    suites: [string, Record<string, string>][],
    keys: Record<string, string> = { version: '1' },
    env?: Record<string, string | null>,
  ): ConfigDataParts => ({
    of: 'x',
    keys,
    suites: suites.map(([id, fields]) => ({ id, keys: fields })),
    ...(env !== undefined && { env }),
  });

  it('names suites gone and reordered, keys gone, and variables set or unset', () => {
    const before = parts(
      [
        ['a', { id: 'a', grid: '1' }],
        ['b', { id: 'b' }],
        ['c', { id: 'c' }],
      ],
      { version: '1', defaults: '2' },
      { A: 'h1', B: null, C: 'h3' },
    );
    const after = parts(
      [
        ['c', { id: 'c' }],
        ['a', { id: 'a', gate: '3' }],
      ],
      { version: '1' },
      { A: null, B: 'h2', C: 'h3' },
    );
    assert.deepEqual(describeDataChanges(before, after, 'evals.yaml'), [
      'the top-level key defaults is no longer in evals.yaml',
      'suite a of evals.yaml changed (its gate and grid)',
      'suite b is no longer in evals.yaml',
      'the suites of evals.yaml are in another order',
      'the environment variable A that evals.yaml refers to is unset now',
      'the environment variable B that evals.yaml refers to is set now',
    ]);
  });

  it('is empty for the same parts', () => {
    const same = parts([['a', { id: 'a' }]]);
    assert.deepEqual(describeDataChanges(same, structuredClone(same), 'the config'), []);
  });
});

describe('evals merge names what changed in the config between shards', () => {
  it('with no file covered beside the config', async () => {
    const dir = scratch();
    writeFiles(dir, { 'evals.yaml': CONFIG, 'rows.jsonl': `${ROWS}\n` });
    const one = await runInProcess(['run', '--shard', '1/2', '-o', 's1.json'], dir, ENV);
    assert.equal(one.code, 0, one.stderr);
    edit(dir, 'evals.yaml', (text) => text.replace('concurrency: 2', 'concurrency: 3'));
    const two = await runInProcess(['run', '--shard', '2/2', '-o', 's2.json'], dir, ENV);
    assert.equal(two.code, 0, two.stderr);
    const r = await runInProcess(['merge', 's1.json', 's2.json', '-o', 'm.json'], dir, ENV);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /From s1\.json to s2\.json: the top-level defaults of the config changed\. Merge only/,
    );
  });

  it('keeps configDataParts in the merged artifact', async () => {
    const dir = scratch();
    writeFiles(dir, { 'evals.yaml': CONFIG, 'rows.jsonl': `${ROWS}\n` });
    for (const shard of ['1/2', '2/2']) {
      const r = await runInProcess(['run', '--shard', shard, '-o', `s${shard[0]}.json`], dir, ENV);
      assert.equal(r.code, 0, r.stderr);
    }
    const r = await runInProcess(['merge', 's1.json', 's2.json', '-o', 'm.json'], dir, ENV);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      readArtifact(dir, 'm.json').configDataParts,
      readArtifact(dir, 's1.json').configDataParts,
    );
  });
});
