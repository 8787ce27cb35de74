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

  it('a plain run keeps it aside, saying who wrote it, and starts afresh', async () => {
    const dir = project();
    await killedRun(dir, 2);
    asWrittenBy(dir, NEWER);
    const journal = journalOf(dir);
    const fresh = await runCli(['run', '-o', 'r.json'], { cwd: dir });
    assert.equal(fresh.code, 0, fresh.stderr);
    assert.match(
      fresh.stderr,
      new RegExp(
        `warning: the recovery journal ${escaped(journal)} was written by evalgate 999\\.0\\.0, newer than this one .*: it is kept as ${escaped(journal)}\\.\\d+, and this run starts afresh`,
      ),
    );
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
