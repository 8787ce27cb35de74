/**
 * The code a config names is part of the config (configHash): the TypeScript function under
 * test, a module evaluator, and every local file they import, however deep; and the script a
 * command target runs. A run interrupted before one of them was edited is not resumed with the
 * edit, and shards run with two versions of one are not merged: either would make one artifact
 * of two versions' results. Packages (node_modules) and a checkout that changes only line ends
 * or adds a BOM do not count. A partial an earlier evalgate wrote (its hash left modules out)
 * still resumes while the config is the same, with a warning that the code could not be checked.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseConfig } from '../src/config/load.ts';
import { builtinEvaluators } from '../src/evaluators/registry.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { writeInterrupted } from './helpers/interrupted-artifact.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const ROWS = [{ q: 'a' }, { q: 'b' }, { q: 'c' }, { q: 'd' }];

const FILES: Record<string, string> = {
  'app/answer.ts': [
    "import { shout } from './lib/shout.js';",
    "import { pad } from 'padder';",
    'export async function answer({ testCase }: { testCase: { q: string } }): Promise<string> {',
    '  return pad(shout(testCase.q));',
    '}',
    '',
  ].join('\n'),
  // Two levels deep: answer.ts → lib/shout.ts → lib/deep/suffix.ts
  'app/lib/shout.ts': [
    "import { suffix } from './deep/suffix.js';",
    'export const shout = (text: string): string => text.toUpperCase() + suffix;',
    '',
  ].join('\n'),
  'app/lib/deep/suffix.ts': "export const suffix = '!';\n",
  'evaluators/check.ts': [
    "import { expected } from './expected.js';",
    'export const check = ({ output }: { output: unknown }) => ({',
    '  score: String(output).endsWith(expected) ? 1 : 0,',
    '});',
    '',
  ].join('\n'),
  'evaluators/expected.ts': "export const expected = '!';\n",
  // A package: outside the project's own code, never covered.
  'node_modules/padder/package.json': JSON.stringify({
    name: 'padder',
    type: 'module',
    exports: './index.js',
  }),
  'node_modules/padder/index.js': 'export const pad = (text) => ` ${text}`.trim();\n',
};

const SUITE = [
  'function: ./app/answer.ts#answer',
  'evaluators:',
  '  - { id: check, use: ./evaluators/check.ts#check }',
  '  - { use: contains, with: { values: ["!"] } }',
];

function project(): string {
  return jsonlProject(ROWS, SUITE, FILES);
}

function readArtifact(dir: string, file: string): ResultsArtifact {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as ResultsArtifact;
}

/** A complete run of `dir`, then an interrupted copy of it keeping 2 cases, as partial.json. */
async function interrupted(dir: string): Promise<void> {
  const full = await runInProcess(['run', '-o', 'full.json'], dir, {});
  assert.equal(full.code, 0, full.stdout + full.stderr);
  writeInterrupted(dir, 'full.json', 'partial.json', 2);
}

function resume(dir: string): ReturnType<typeof runInProcess> {
  return runInProcess(['run', '--resume', 'partial.json', '-o', 'out.json'], dir, {});
}

function edit(dir: string, file: string, change: (text: string) => string): void {
  writeFileSync(join(dir, file), change(readFileSync(join(dir, file), 'utf8')));
}

/** The hash of `dir`'s evals.yaml as its data alone (no modules), as an earlier evalgate made it. */
function configDataHash(dir: string): string {
  const parsed = parseConfig(readFileSync(join(dir, 'evals.yaml'), 'utf8'), {
    file: 'evals.yaml',
    absPath: join(dir, 'evals.yaml'),
    env: {},
    builtins: builtinEvaluators,
  });
  assert.ok(parsed.ok);
  return parsed.config.hash;
}

describe('modules and the files they import in the configHash', () => {
  const EDITS: Record<string, [file: string, change: (text: string) => string, named: string]> = {
    'the function module': [
      'app/answer.ts',
      (t) => t.replace('pad(shout', 'pad( shout'),
      'the module app/answer.ts',
    ],
    'a file the function imports, two levels down': [
      'app/lib/deep/suffix.ts',
      () => "export const suffix = '?';\n",
      'the file app/lib/deep/suffix.ts, imported by a module,',
    ],
    'a file a module evaluator imports': [
      'evaluators/expected.ts',
      () => "export const expected = '?';\n",
      'the file evaluators/expected.ts, imported by a module,',
    ],
  };
  for (const [what, [file, change, named]] of Object.entries(EDITS)) {
    it(`refuses to resume after an edit of ${what}, naming the file`, async () => {
      const dir = project();
      await interrupted(dir);
      const before = readFileSync(join(dir, 'partial.json'), 'utf8');
      edit(dir, file, change);
      const r = await resume(dir);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, /^error: partial\.json was written by another config \(configHash /);
      assert.ok(
        r.stderr.includes(`: since the interrupted run, ${named} changed; resuming needs`),
        r.stderr,
      );
      assert.equal(readFileSync(join(dir, 'partial.json'), 'utf8'), before, 'the partial is kept');
    });
  }

  it('names what the hash covers when the partial does not record what changed (an earlier evalgate)', async () => {
    const dir = project();
    await interrupted(dir);
    const partial = readArtifact(dir, 'partial.json');
    delete partial.configHashParts;
    writeFileSync(join(dir, 'partial.json'), JSON.stringify(partial));
    edit(dir, 'app/lib/deep/suffix.ts', () => "export const suffix = '?';\n");
    const r = await resume(dir);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /the hash covers the modules app\/answer\.ts, evaluators\/check\.ts and the 3 local files they import: if the config is the same, one of those changed since/,
    );
  });

  it('resumes when only a package under node_modules, line ends or a BOM changed', async () => {
    const dir = project();
    await interrupted(dir);
    edit(dir, 'node_modules/padder/index.js', (t) => `// another version\n${t}`);
    edit(dir, 'app/lib/shout.ts', (t) => `\ufeff${t.replaceAll('\n', '\r\n')}`);
    const r = await resume(dir);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(readArtifact(dir, 'out.json').interrupted, false);
    assert.equal(readArtifact(dir, 'out.json').runs[0]?.cases.length, ROWS.length);
  });

  it('refuses to merge shards run with two versions of an imported file', async () => {
    const dir = project();
    const one = await runInProcess(['run', '--shard', '1/2', '-o', 's1.json'], dir, {});
    assert.equal(one.code, 0, one.stderr);
    edit(dir, 'app/lib/shout.ts', (t) => t.replace('toUpperCase()', 'toLowerCase()'));
    const two = await runInProcess(['run', '--shard', '2/2', '-o', 's2.json'], dir, {});
    assert.equal(two.code, 0, two.stderr);
    const r = await runInProcess(['merge', 's1.json', 's2.json', '-o', 'm.json'], dir, {});
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /different configs \(configHash\): s1\.json ran \w+; s2\.json ran \w+\. From s1\.json to s2\.json: the module file app\/lib\/shout\.ts changed\. Merge only/,
    );
  });

  it('resumes a partial an earlier evalgate wrote while the config is the same, warning that the code was not checked', async () => {
    const dir = project();
    await interrupted(dir);
    // As an earlier evalgate wrote it: the hash of the config's data alone (no prompt files).
    const dataHash = configDataHash(dir);
    const partial = readArtifact(dir, 'partial.json');
    assert.notEqual(partial.configHash, dataHash, 'the hash now covers the modules');
    partial.configHash = dataHash;
    writeFileSync(join(dir, 'partial.json'), JSON.stringify(partial));
    const r = await resume(dir);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /warning: partial\.json was written by an earlier evalgate, whose configHash did not cover modules and command scripts: resuming it cannot tell whether the modules app\/answer\.ts, evaluators\/check\.ts and the 3 local files they import changed since the interrupted run/,
    );
    const out = readArtifact(dir, 'out.json');
    assert.equal(out.interrupted, false);
    assert.equal(out.configHash, dataHash, 'it still merges with its sibling shards');
  });
});

describe('the script of a command target in the configHash', () => {
  /** A project whose command target is `target` (a YAML flow mapping's inside). */
  function commandProject(target: string): string {
    return jsonlProject(
      ROWS,
      [
        `target: { type: command, ${target} }`,
        'evaluators: [ { use: contains, with: { values: ["!"] } } ]',
      ],
      {
        'agent.sh': 'printf "%s!" "$1"\n',
        'scripts/agent.mjs': "process.stdout.write(process.argv[2] + '!');\n",
      },
    );
  }

  const TARGETS: Record<string, [target: string, script: string, comment: string]> = {
    'an interpreter and its script': ['run: [sh, agent.sh, "{{ case.q }}"]', 'agent.sh', '#'],
    'an interpreter with options': [
      'run: [node, --no-warnings, scripts/agent.mjs, "{{ case.q }}"]',
      'scripts/agent.mjs',
      '//',
    ],
    'a shell line': ['shell: true, run: \'sh ./agent.sh "{{ case.q }}"\'', 'agent.sh', '#'],
  };
  for (const [what, [target, script, comment]] of Object.entries(TARGETS)) {
    it(`refuses to resume after the script was edited: ${what}`, async () => {
      const dir = commandProject(target);
      await interrupted(dir);
      edit(dir, script, (text) => `${text}${comment} edited\n`);
      const r = await resume(dir);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.ok(
        r.stderr.includes(`: since the interrupted run, the command script ${script} changed;`),
        r.stderr,
      );
    });
  }

  it('covers no program found on PATH: the hash is the config data alone', async () => {
    const dir = commandProject('run: [printf, "%s!", "{{ case.q }}"]');
    const r = await runInProcess(['run', '-o', 'out.json'], dir, {});
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(readArtifact(dir, 'out.json').configHash, configDataHash(dir));
  });
});
