/**
 * A recovery journal written by a newer evalgate (docs/cli.md, **Recovery journal**): its frame
 * and case lines hold fields this evalgate does not know. It is not damaged, so `--resume` does
 * not call it so: it says which evalgate wrote it, which fields, and the two ways on (that
 * evalgate, or removing the journal, by the exact command, to start afresh). A plain run keeps it
 * aside, saying the same. On the built CLI, from a run killed for real.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { toolVersion } from '../src/shared/version.ts';
import { runCli } from './helpers/cli.ts';
import { casesFileOf, casesFolders, journalOf, killedRun, project } from './helpers/journal-run.ts';

const NEWER = '999.0.0';

/**
 * Rewrites the journal of r.json in `dir` as evalgate `version` would have written it with a
 * field of its own in the frame and in every case line.
 */
function asWrittenBy(dir: string, version: string): void {
  const path = journalOf(dir);
  const [head, frame, ...rest] = readFileSync(path, 'utf8').split('\n');
  const parsed = JSON.parse(frame!.slice(2)) as {
    artifact: { tool: { version: string }; producedBy?: unknown };
  };
  parsed.artifact.tool.version = version;
  parsed.artifact.producedBy = { ci: 'github' };
  writeFileSync(path, [head, `F ${JSON.stringify(parsed)}`, ...rest].join('\n'));
  const cases = casesFileOf(dir);
  const text = readFileSync(cases, 'utf8');
  assert.match(text, /^ {8}\{"id":/);
  writeFileSync(cases, text.replaceAll(/^ {8}\{"id":/gm, '        {"reviewer":"ann","id":'));
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('a recovery journal written by a newer evalgate', () => {
  it('--resume names the version, the fields and both ways on; the rm it prints starts afresh', async () => {
    const dir = project();
    await killedRun(dir, 2);
    asWrittenBy(dir, NEWER);
    const journal = journalOf(dir);
    const [folder] = casesFolders(dir);
    const resumed = await runCli(['run', '--resume', 'r.json'], { cwd: dir });
    assert.equal(resumed.code, 2, resumed.stderr);
    assert.match(
      resumed.stderr,
      new RegExp(
        `the recovery journal ${escaped(journal)} was written by evalgate 999\\.0\\.0, newer than this one \\(${escaped(toolVersion)}\\): it holds 2 fields this evalgate does not know \\(/producedBy, /runs/\\*/cases/\\*/reviewer\\), which the partial artifact this evalgate would write from it would lose; finish the run with evalgate 999\\.0\\.0 or newer \\(\`evals run --resume r\\.json\`\\), or start afresh, losing its cases: remove it \\(\`rm -r ${escaped(journal)} ${escaped(folder!)}\`\\) and run evals run without --resume\\n`,
      ),
    );
    assert.doesNotMatch(resumed.stderr, /unexpected property|not a case of its run/);
    assert.ok(existsSync(journal), 'the journal is left for the newer evalgate');
    assert.ok(!existsSync(join(dir, 'r.json')));

    // The command it prints, run as printed, leaves nothing a plain run would keep aside.
    const rm = /`(rm -r [^`]+)`/.exec(resumed.stderr)?.[1];
    execFileSync('sh', ['-c', rm!], { cwd: dir });
    const fresh = await runCli(['run', '-o', 'r.json'], { cwd: dir });
    assert.equal(fresh.code, 0, fresh.stderr);
    assert.doesNotMatch(fresh.stderr, /warning/);
  });

  it('a plain run keeps it aside where --resume finds it, prints the command, and starts afresh', async () => {
    const dir = project();
    await killedRun(dir, 2);
    asWrittenBy(dir, NEWER);
    const journal = journalOf(dir);
    const fresh = await runCli(['run', '-o', 'r.json'], { cwd: dir });
    assert.equal(fresh.code, 0, fresh.stderr);
    const said = new RegExp(
      `warning: the recovery journal ${escaped(journal)} was written by evalgate 999\\.0\\.0, newer than this one .*: it is kept as the recovery journal of (r\\.killed-(\\d+)\\.json) \\(${escaped(dir)}/\\.r\\.killed-\\d+\\.json\\.journal\\), and this run starts afresh; \`(evals run --resume r\\.killed-\\d+\\.json)\` with evalgate 999\\.0\\.0 or newer finishes it\\n`,
    ).exec(fresh.stderr);
    assert.ok(said, fresh.stderr);
    const [, kept = '', pid = '', command = ''] = said;
    // Nothing left to rename by hand: the journal and its folder are those of the kept name.
    assert.ok(existsSync(journalOf(dir, kept)));
    assert.ok(existsSync(`${journalOf(dir, kept)}.${pid}.d`));
    assert.ok(!existsSync(join(dir, kept)));

    // This evalgate, given the printed command, finds it and says who wrote it.
    const refused = await runCli(command.split(' ').slice(1), { cwd: dir });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(
      refused.stderr,
      new RegExp(
        `the recovery journal ${escaped(journalOf(dir, kept))} was written by evalgate 999\\.0\\.0, .*finish the run with evalgate 999\\.0\\.0 or newer \\(\`evals run --resume ${escaped(kept)}\`\\)`,
      ),
    );

    // The evalgate that wrote it (here: the journal as this one would have written it) finishes
    // it with that command, as printed.
    const path = journalOf(dir, kept);
    const [head, frame, ...rest] = readFileSync(path, 'utf8').split('\n');
    const parsed = JSON.parse(frame!.slice(2)) as {
      artifact: { tool: { version: string }; producedBy?: unknown };
    };
    parsed.artifact.tool.version = toolVersion;
    delete parsed.artifact.producedBy;
    writeFileSync(path, [head, `F ${JSON.stringify(parsed)}`, ...rest].join('\n'));
    const cases = join(`${path}.${pid}.d`, 'run-0.jsonl');
    writeFileSync(cases, readFileSync(cases, 'utf8').replaceAll('{"reviewer":"ann",', '{'));
    const finished = await runCli(command.split(' ').slice(1), { cwd: dir });
    assert.equal(finished.code, 0, finished.stderr);
    assert.match(finished.stderr, /recovered [2-8] of 8 cases from a run killed/);
    const artifact = JSON.parse(readFileSync(join(dir, kept), 'utf8')) as {
      interrupted: boolean;
      runs: { cases: unknown[] }[];
    };
    assert.equal(artifact.interrupted, false);
    assert.equal(artifact.runs[0]?.cases.length, 8);
  });

  it('with a version not newer than this one, calls it what it is and offers no upgrade', async () => {
    const dir = project();
    await killedRun(dir, 2);
    asWrittenBy(dir, toolVersion);
    const resumed = await runCli(['run', '--resume', 'r.json'], { cwd: dir });
    assert.equal(resumed.code, 2, resumed.stderr);
    assert.match(
      resumed.stderr,
      new RegExp(
        `says it was written by evalgate ${escaped(toolVersion)}, not newer than this one .*would lose; start afresh, losing its cases: remove it \\(\`rm -r `,
      ),
    );
    assert.doesNotMatch(resumed.stderr, /finish the run with/);
  });
});
