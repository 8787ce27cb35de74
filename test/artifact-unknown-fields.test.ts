/**
 * Artifacts across evalgate versions (docs/artifact.md): within one schemaVersion a newer
 * evalgate may add optional fields, anywhere in the file. A command that only reads an artifact
 * (`show`, `compare`, `report`, `override`, `run --baseline`, a merge's or a resumption's
 * baseline) ignores them and says so in one note; one that writes an artifact from what it reads
 * (`merge`'s shards, `--resume`'s partial) refuses them, naming each by pointer, line and
 * column, rather than drop them. A known field of the wrong type, and another schemaVersion, are
 * refused as before; what this evalgate writes stays valid against its own strict schema.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { ARTIFACT_PROJECT } from '../scripts/fuzz-artifacts.ts';
import { serializeArtifact } from '../src/artifact/artifact.ts';
import { validateArtifact } from '../src/artifact/schema.ts';
import { openArtifactFile } from '../src/artifact/read.ts';
import { isNewerVersion, unknownFieldsNote } from '../src/artifact/unknown-fields.ts';
import { toolVersion } from '../src/shared/version.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { runCli, tempFolder, writeFiles } from './helpers/cli.ts';

const NEWER = '999.0.0';

/** The fields {@link withNewFields} adds, as the note names them. */
const ADDED = [
  '/producedBy',
  '/tool/build',
  '/runs/*/plan/gate/maxCost',
  '/runs/*/summary/evaluators/*/median',
  '/runs/*/cases/*/reviewer',
  '/runs/*/cases/*/evaluations/*/confidence',
];

/**
 * `artifact` as a newer evalgate of the same schemaVersion might write it: its version, and a
 * new optional field at every level (top, a nested frame object, the plan's gate, an evaluator's
 * summary in a map, each case, each evaluation).
 */
function withNewFields(artifact: ResultsArtifact, version = NEWER): ResultsArtifact {
  const copy = structuredClone(artifact);
  Object.assign(copy, { producedBy: { ci: 'github' } });
  copy.tool = Object.assign({ ...copy.tool, version }, { build: 'abc' });
  for (const run of copy.runs) {
    if (run.plan !== undefined) Object.assign(run.plan.gate, { maxCost: 1.5 });
    for (const summary of Object.values(run.summary.evaluators)) {
      Object.assign(summary, { median: 0.5 });
    }
    for (const result of run.cases) {
      Object.assign(result, { reviewer: 'ann' });
      for (const evaluation of result.evaluations) Object.assign(evaluation, { confidence: 0.9 });
    }
  }
  return copy;
}

/** The one `note:` line of `stderr` (asserting there is exactly one). */
function note(stderr: string): string {
  const notes = stderr.split('\n').filter((line) => line.startsWith('note: '));
  assert.equal(notes.length, 1, stderr);
  return notes[0]!;
}

/** Asserts `line` is the note for `file` written by a newer evalgate, counting {@link ADDED}. */
function assertNewerNote(line: string, file: string): void {
  assert.equal(
    line,
    `note: ${file} was written by evalgate ${NEWER}, newer than this one (${toolVersion}): ${ADDED.length} fields it does not know were ignored (${[...ADDED].sort().slice(0, 3).join(', ')}, \u2026)`,
  );
}

describe('an artifact a newer evalgate of the same schemaVersion wrote, with fields this one does not know', () => {
  const dir = tempFolder('evalgate-unknown-fields-');
  let base: ResultsArtifact;
  before(async () => {
    writeFiles(dir, ARTIFACT_PROJECT);
    for (const [file, shard] of [
      ['base.json', []],
      ['s1.json', ['--shard', '1/2']],
      ['s2.json', ['--shard', '2/2']],
    ] as const) {
      const run = await runCli(['run', 'evals.yaml', ...shard, '-o', file], { cwd: dir });
      assert.ok(run.code === 0 || run.code === 1, run.stderr);
    }
    base = JSON.parse(readFileSync(join(dir, 'base.json'), 'utf8')) as ResultsArtifact;
    const s1 = JSON.parse(readFileSync(join(dir, 's1.json'), 'utf8')) as ResultsArtifact;
    // In evalgate's own layout (read a case at a time), and compact on one line (read whole).
    writeFileSync(join(dir, 'new.json'), serializeArtifact(withNewFields(base)));
    writeFileSync(join(dir, 'new-compact.json'), JSON.stringify(withNewFields(base)));
    writeFileSync(join(dir, 'new-s1.json'), serializeArtifact(withNewFields(s1)));
    // A partial of this evalgate to resume: cut short, its last case never finished.
    const partial = structuredClone(base);
    partial.interrupted = true;
    partial.verdict = 'fail';
    partial.runs[0]!.cases.pop();
    writeFileSync(join(dir, 'partial.json'), serializeArtifact(partial));
    writeFileSync(join(dir, 'new-partial.json'), serializeArtifact(withNewFields(partial)));
  });

  it('fails the strict schema this evalgate writes by, naming each new field', () => {
    const problems = validateArtifact(withNewFields(base));
    assert.ok(problems.includes('/: unexpected property "producedBy"'), problems.join('\n'));
    assert.ok(problems.includes('/runs/0/cases/0: unexpected property "reviewer"'));
    assert.deepEqual(validateArtifact(base), []);
  });

  it('evals show reads it, shows what it knows, and says once what it ignored', async () => {
    for (const file of ['new.json', 'new-compact.json']) {
      const shown = await runCli(['show', file, '--limit', '1'], { cwd: dir });
      assert.equal(shown.code, 0, shown.stderr);
      const plain = await runCli(['show', 'base.json', '--limit', '1'], { cwd: dir });
      assert.equal(shown.stdout, plain.stdout.replace('base.json', file));
      assertNewerNote(note(shown.stderr), file);
    }
    const json = await runCli(['show', 'new.json', '--json'], { cwd: dir });
    assert.equal(json.code, 0, json.stderr);
    const parsed = JSON.parse(json.stdout) as { shown: number };
    assert.ok(parsed.shown > 0, 'stdout stays one JSON document');
    assertNewerNote(note(json.stderr), 'new.json');
  });

  it('evals compare compares it as the artifact it extends, on either side', async () => {
    const same = await runCli(['compare', 'base.json', 'base.json'], { cwd: dir });
    for (const [a, b] of [
      ['base.json', 'new.json'],
      ['new-compact.json', 'base.json'],
    ] as const) {
      const compared = await runCli(['compare', a, b], { cwd: dir });
      assert.equal(compared.code, same.code, compared.stderr);
      assert.equal(compared.stdout, same.stdout.replace('base.json', a).replace('base.json', b));
      assertNewerNote(note(compared.stderr), a === 'base.json' ? b : a);
    }
  });

  it('evals report writes its reports, with or without it as the baseline', async () => {
    const report = await runCli(['report', 'new.json', '-o', 'r.html', '--junit', 'j.xml'], {
      cwd: dir,
    });
    assert.equal(report.code, 0, report.stderr);
    assert.ok(readFileSync(join(dir, 'j.xml'), 'utf8').includes('<testsuite'));
    assertNewerNote(note(report.stderr), 'new.json');
    const against = await runCli(
      ['report', 'base.json', '--baseline', 'new.json', '-o', 'b.html'],
      {
        cwd: dir,
      },
    );
    assert.equal(against.code, 0, against.stderr);
    assertNewerNote(note(against.stderr), 'new.json');
  });

  it('evals run --baseline compares with it, and writes an artifact valid by its own schema', async () => {
    const run = await runCli(['run', 'evals.yaml', '--baseline', 'new.json', '-o', 'o.json'], {
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    assertNewerNote(note(run.stderr), 'new.json');
    const written = JSON.parse(readFileSync(join(dir, 'o.json'), 'utf8')) as ResultsArtifact;
    assert.deepEqual(validateArtifact(written), []);
    assert.equal((written.comparison as { base?: { path?: string } }).base?.path, 'new.json');
  });

  it('evals merge takes it as the baseline, but refuses it as a shard, whose new fields it would drop', async () => {
    const merged = await runCli(
      ['merge', 's1.json', 's2.json', '--baseline', 'new.json', '-o', 'm.json'],
      { cwd: dir },
    );
    assert.ok(merged.code === 0 || merged.code === 1, merged.stderr);
    assertNewerNote(note(merged.stderr), 'new.json');
    assert.deepEqual(validateArtifact(JSON.parse(readFileSync(join(dir, 'm.json'), 'utf8'))), []);

    const refused = await runCli(['merge', 'new-s1.json', 's2.json', '-o', 'm2.json'], {
      cwd: dir,
    });
    assert.equal(refused.code, 2, refused.stderr);
    const text = readFileSync(join(dir, 'new-s1.json'), 'utf8');
    const line = text.slice(0, text.indexOf('"producedBy"')).split('\n').length;
    assert.match(
      refused.stderr,
      new RegExp(
        `error: evals merge: a shard was written by a newer evalgate than this one \\(${toolVersion.replaceAll('.', '\\.')}\\): new-s1\\.json by evalgate ${NEWER.replaceAll('.', '\\.')}; .* \\(new-s1\\.json has fields this one does not know: /producedBy \\(line ${line}, column \\d+\\), .*\\): merge them with evalgate ${NEWER.replaceAll('.', '\\.')} or newer\\n`,
      ),
    );
    assert.doesNotMatch(refused.stderr, /unexpected property/);
    assert.equal(existsSync(join(dir, 'm2.json')), false, 'nothing is written');
  });

  it('evals run --resume takes it as the baseline, but refuses it as the partial', async () => {
    const resumed = await runCli(
      ['run', 'evals.yaml', '--resume', 'partial.json', '--baseline', 'new.json', '-o', 'r.json'],
      { cwd: dir },
    );
    assert.equal(resumed.code, 0, resumed.stderr);
    assertNewerNote(note(resumed.stderr), 'new.json');
    const written = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as ResultsArtifact;
    assert.deepEqual(validateArtifact(written), []);
    assert.equal(written.runs[0]!.cases.length, base.runs[0]!.cases.length);

    const refused = await runCli(
      ['run', 'evals.yaml', '--resume', 'new-partial.json', '-o', 'r2.json'],
      { cwd: dir },
    );
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(
      refused.stderr,
      /--resume new-partial\.json was written by evalgate 999\.0\.0, newer than this one \(.*\), and has fields this evalgate does not know, which the artifact it writes from the file would lose: .*\/runs\/0\/summary\/evaluators\/exact\/median \(line \d+, column \d+\) \(and 5 more\); use evalgate 999\.0\.0 or newer for it\n/,
    );
    assert.equal(existsSync(join(dir, 'r2.json')), false);
  });

  it('still refuses a known field of the wrong type beside them, by file and pointer', async () => {
    const broken = withNewFields(base);
    Object.assign(broken.runs[1]!.cases[2]!, { passed: 'yes' });
    const text = serializeArtifact(broken);
    writeFileSync(join(dir, 'broken.json'), text);
    const at = text.indexOf('"passed":"yes"');
    const before = text.slice(0, at).split('\n');
    const where = `line ${before.length}, column ${(before.at(-1) ?? '').length + 10}`;
    for (const argv of [
      ['show', 'broken.json'],
      ['compare', 'base.json', 'broken.json'],
      ['run', 'evals.yaml', '--baseline', 'broken.json', '-o', 'x.json'],
    ]) {
      const result = await runCli(argv, { cwd: dir });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /broken\.json/);
      assert.ok(
        result.stderr.includes(`/runs/1/cases/2/passed (${where}): must be boolean, found "yes"`),
        `${argv.join(' ')}: ${result.stderr}`,
      );
      assert.doesNotMatch(result.stderr, /reviewer|does not know/);
    }
  });

  it('still refuses schemaVersion 2, with or without new fields', async () => {
    const v2 = serializeArtifact(withNewFields(base)).replace(
      '"schemaVersion": 1',
      '"schemaVersion": 2',
    );
    writeFileSync(join(dir, 'v2.json'), v2);
    for (const argv of [
      ['show', 'v2.json'],
      ['merge', 'v2.json', '-o', 'v.json'],
      ['compare', 'base.json', 'v2.json'],
    ]) {
      const result = await runCli(argv, { cwd: dir });
      assert.equal(result.code, 2, result.stderr);
      assert.match(
        result.stderr,
        /v2\.json.*this evalgate reads schemaVersion 1, found 2: a newer evalgate wrote it; update evalgate here to read it/,
      );
      assert.doesNotMatch(result.stderr, /does not know/);
    }
  });

  it('calls fields in a file of its own version or older a hand edit, not a newer evalgate', async () => {
    const edited = withNewFields(base, toolVersion);
    writeFileSync(join(dir, 'edited.json'), serializeArtifact(edited));
    const shown = await runCli(['show', 'edited.json', '--limit', '1'], { cwd: dir });
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(
      note(shown.stderr),
      new RegExp(
        `^note: edited\\.json says it was written by evalgate ${toolVersion.replaceAll('.', '\\.')}, not newer than this one .*: 6 fields it does not know were ignored`,
      ),
    );
  });

  // Last: it records an override beside evals.yaml.
  it('evals override records a human score for a case of it', async () => {
    const id = base.runs[0]!.cases[0]!.id;
    const style = String(base.runs[0]!.params.style);
    const argv = ['override', 'new.json', '--case', id, '--grid', `style=${style}`];
    const result = await runCli([...argv, '--evaluator', 'exact', '--score', '1'], { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^recorded in /);
    assertNewerNote(note(result.stderr), 'new.json');
  });
});

describe('the note on unknown fields', () => {
  const dir = tempFolder('evalgate-unknown-note-');
  let text: string;
  before(async () => {
    writeFiles(dir, ARTIFACT_PROJECT);
    const run = await runCli(['run', 'evals.yaml', '-o', 'base.json'], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    text = readFileSync(join(dir, 'base.json'), 'utf8');
  });

  /** The note for `artifact` written to `file` and read whole, every case included. */
  function noteOf(file: string, artifact: ResultsArtifact): string | null {
    writeFileSync(join(dir, file), serializeArtifact(artifact));
    const read = openArtifactFile(join(dir, file), file);
    read.frame.runs.forEach((_, r) => [...read.cases(r)]);
    return unknownFieldsNote(file, read.frame.tool.version, '1.0.0', read.unknown);
  }

  it('is null for a file with no unknown field', () => {
    assert.equal(noteOf('same.json', JSON.parse(text) as ResultsArtifact), null);
  });

  it('counts at most 100 fields, and says there are more', () => {
    const artifact = withNewFields(JSON.parse(text) as ResultsArtifact, '2.0.0');
    for (let i = 0; i < 150; i++) Object.assign(artifact, { [`extra${i}`]: i });
    assert.match(
      noteOf('many.json', artifact) ?? '',
      /^many\.json was written by evalgate 2\.0\.0, newer than this one \(1\.0\.0\): 100 or more fields it does not know were ignored \(\/extra0, \/extra1, \/extra10, \u2026\)$/,
    );
  });

  it('names a long key by its length and a key with a control character escaped', () => {
    const artifact = JSON.parse(text) as ResultsArtifact;
    Object.assign(artifact, { ['k'.repeat(60)]: 1, 'bell\u0007': 2 });
    assert.equal(
      noteOf('keys.json', artifact),
      `keys.json says it was written by evalgate ${artifact.tool.version}, not newer than this one (1.0.0): 2 fields it does not know were ignored (/(a key of 60 characters), /bell\\u0007)`,
    );
  });
});

describe('isNewerVersion', () => {
  const cases: [string, string, boolean][] = [
    ['1.2.3', '1.2.2', true],
    ['1.10.0', '1.9.9', true],
    ['2.0.0', '10.0.0', false],
    ['1.2.3', '1.2.3', false],
    ['1.2.3', '1.2.3-rc.1', true],
    ['1.2.3-rc.1', '1.2.3', false],
    ['0.0.0-unknown', '0.1.0', false],
    ['not a version', '0.1.0', false],
  ];
  for (const [a, b, newer] of cases) {
    it(`${a} ${newer ? 'is' : 'is not'} newer than ${b}`, () => {
      assert.equal(isNewerVersion(a, b), newer);
    });
  }
});
