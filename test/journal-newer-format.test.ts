/**
 * A recovery journal of a format newer than this evalgate reads (`evalgateJournal` above 3):
 * `--resume` took it for no journal at all and said only `no such results file`. It now says a
 * newer evalgate wrote it (the version its frame records, when it does), with the two ways on,
 * as for a journal with fields this evalgate does not know; a plain run keeps it aside as the
 * journal of `r.killed-PID.json`, where `--resume` finds it, printing the command. A seeded fuzz
 * of journal heads checks the reader of such a header never throws and never takes a journal of
 * a format read here, or a file that is no journal, for a newer one.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readNewerJournal } from '../src/artifact/journal-newer.ts';
import { mulberry32 } from '../src/compare/sign-flip.ts';
import { toolVersion } from '../src/shared/version.ts';
import { runCli, scratch } from './helpers/cli.ts';
import { casesFolders, journalOf, killedRun, project } from './helpers/journal-run.ts';

const NEWER = '999.0.0';

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The journal of r.json in `dir` as a newer evalgate's of format 4, its frame `frame`d. */
function asFormat4(dir: string, frame: 'versioned' | 'unknown'): void {
  const path = journalOf(dir);
  const [head, second, ...rest] = readFileSync(path, 'utf8').split('\n');
  const header = JSON.parse(head!) as { evalgateJournal: number };
  header.evalgateJournal = 4;
  const parsed = JSON.parse(second!.slice(2)) as { artifact: { tool: { version: string } } };
  parsed.artifact.tool.version = NEWER;
  const line = frame === 'versioned' ? `F ${JSON.stringify(parsed)}` : 'X {"layout":"new"}';
  writeFileSync(path, [JSON.stringify(header), line, ...rest].join('\n'));
}

describe('a recovery journal of a newer format', () => {
  it('--resume says a newer evalgate wrote it, which, and both ways on', async () => {
    const dir = project();
    await killedRun(dir, 2);
    asFormat4(dir, 'versioned');
    const journal = journalOf(dir);
    const [folder] = casesFolders(dir);
    const resumed = await runCli(['run', '--resume', 'r.json'], { cwd: dir });
    assert.equal(resumed.code, 2, resumed.stderr);
    assert.doesNotMatch(resumed.stderr, /no such results file/);
    assert.match(
      resumed.stderr,
      new RegExp(
        `the recovery journal ${escaped(journal)} was written by evalgate 999\\.0\\.0 in journal format 4, newer than this evalgate \\(${escaped(toolVersion)}\\) reads \\(formats 1 to 3\\): it holds the cases of a killed run that this evalgate cannot recover; finish the run with evalgate 999\\.0\\.0 or newer \\(\`evals run --resume r\\.json\`\\), or start afresh, losing its cases: remove it \\(\`rm -r ${escaped(journal)} ${escaped(folder!)}\`\\) and run evals run without --resume\\n`,
      ),
    );
    assert.ok(existsSync(journal), 'left for the newer evalgate');
  });

  it('--resume of one whose frame records no version says "a newer evalgate"', async () => {
    const dir = project();
    await killedRun(dir, 2);
    asFormat4(dir, 'unknown');
    const resumed = await runCli(['run', '--resume', 'r.json'], { cwd: dir });
    assert.equal(resumed.code, 2, resumed.stderr);
    assert.match(
      resumed.stderr,
      /was written by a newer evalgate in journal format 4, .*finish the run with that evalgate or newer \(`evals run --resume r\.json`\)/,
    );
  });

  it('a plain run keeps it aside where --resume finds it, and starts afresh', async () => {
    const dir = project();
    await killedRun(dir, 2);
    asFormat4(dir, 'versioned');
    const fresh = await runCli(['run', '-o', 'r.json'], { cwd: dir });
    assert.equal(fresh.code, 0, fresh.stderr);
    const said =
      /warning: the recovery journal \S+ was written by evalgate 999\.0\.0 in journal format 4, [^\n]*: it is kept as the recovery journal of (r\.killed-(\d+)\.json) \(\S+\), and this run starts afresh; `(evals run --resume r\.killed-\d+\.json)` with evalgate 999\.0\.0 or newer finishes it\n/.exec(
        fresh.stderr,
      );
    assert.ok(said, fresh.stderr);
    const [, kept = '', pid = '', command = ''] = said;
    assert.ok(existsSync(journalOf(dir, kept)));
    assert.ok(existsSync(`${journalOf(dir, kept)}.${pid}.d`), 'its case folder went with it');
    assert.ok(!existsSync(journalOf(dir)) || readFileSync(journalOf(dir), 'utf8') === '');
    const refused = await runCli(command.split(' ').slice(1), { cwd: dir });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /in journal format 4, newer than this evalgate/);
  });

  it('fuzzed journal heads: never a throw, and "newer" only for a format above 3', () => {
    const random = mulberry32(6061);
    const dir = scratch();
    const pieces = [
      '{"evalgateJournal":',
      '4',
      '3',
      '1e3',
      '"5"',
      '-7',
      '4.5',
      ',"pid":12',
      ',"host":"h"',
      '}',
      '\n',
      'F ',
      '{"at":1,"artifact":{"tool":{"version":"9.9.9"}}}',
      '{"artifact":null}',
      '\u0000',
      '\uFFFD',
      '[',
      'null',
      ' ',
    ];
    for (let i = 0; i < 400; i++) {
      let text = '';
      const count = 1 + Math.floor(random() * 10);
      for (let k = 0; k < count; k++) text += pieces[Math.floor(random() * pieces.length)];
      const path = join(dir, `j${i}`);
      writeFileSync(path, text);
      let found: ReturnType<typeof readNewerJournal>;
      assert.doesNotThrow(() => (found = readNewerJournal(path)), `seed 6061 case ${i}`);
      const head = text.split('\n')[0] ?? '';
      let format: unknown;
      try {
        format = (JSON.parse(head) as { evalgateJournal?: unknown } | null)?.evalgateJournal;
      } catch {
        format = undefined;
      }
      const newer = typeof format === 'number' && Number.isSafeInteger(format) && format > 3;
      assert.equal(found! !== undefined, newer, `seed 6061 case ${i}: ${JSON.stringify(text)}`);
    }
  });
});
