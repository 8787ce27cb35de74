/**
 * The JUnit XML of a results artifact that already exists: `evals report RESULTS --junit FILE`,
 * `evals merge … --junit FILE`, and the command a second Ctrl-C prints for a JUnit file it did
 * not write. Each is held to the XML `evals run --junit` writes for the same run.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { trackPendingReports } from '../src/pipeline/pending-reports.ts';
import type { Reporter } from '../src/report/reporter.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';
import { FIXTURE } from './helpers/shard-fixture.ts';

/**
 * The counts of the `<testsuites>` element and of each `<testsuite>`, by name: what must not
 * depend on how the run was split into shards (its times and timestamp do).
 */
function junitCounts(xml: string): string[] {
  const tags = xml.match(/<testsuites? name="[^"]*" tests="\d+" failures="\d+" errors="\d+"/g);
  assert.ok(tags !== null && tags.length > 1, xml);
  return tags;
}

/** A name the file system takes, but not with a temporary file's suffix: the write fails. */
const TOO_LONG = `${'j'.repeat(240)}.xml`;

describe('evals report --junit', () => {
  let dir = '';
  let runXml = '';

  before(async () => {
    dir = scratch();
    writeFiles(dir, FIXTURE);
    const r = await runInProcess(['run', '-o', 'full.json', '--junit', 'run.xml'], dir);
    assert.equal(r.code, 1, r.stderr);
    runXml = readFileSync(join(dir, 'run.xml'), 'utf8');
    // The fixture has failing and erroring cases and a failing gate: the XML shows each.
    assert.match(runXml, /<failure message="[^"]*" type="evaluation">/);
    assert.match(runXml, /<error message="unlucky" type="error">/);
  });

  it('writes exactly the XML evals run --junit wrote for the run, and no HTML report', async () => {
    const before = readdirSync(dir).sort();
    const r = await runInProcess(['report', 'full.json', '--junit', 'report.xml'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, 'JUnit report written to report.xml\n');
    // Byte for byte, timestamp and times included: both come from the artifact's startedAt,
    // durationMs and the cases' durationMs, so nothing may differ.
    assert.equal(readFileSync(join(dir, 'report.xml'), 'utf8'), runXml);
    assert.equal(existsSync(join(dir, 'report.html')), false, 'no report.html when only --junit');
    assert.deepEqual(readdirSync(dir).sort(), [...before, 'report.xml'].sort());
  });

  it('writes both reports when -o and --junit are given', async () => {
    const r = await runInProcess(
      ['report', 'full.json', '-o', 'both.html', '--junit', 'both.xml'],
      dir,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, 'HTML report written to both.html\nJUnit report written to both.xml\n');
    assert.match(readFileSync(join(dir, 'both.html'), 'utf8'), /<html/i);
    assert.equal(readFileSync(join(dir, 'both.xml'), 'utf8'), runXml);
  });

  it('refuses a --junit that is the results file or the -o file, writing nothing (exit 2)', async () => {
    const results = readFileSync(join(dir, 'full.json'));
    const before = readdirSync(dir).sort();
    const refusals: [string[], RegExp][] = [
      [
        ['--junit', 'full.json'],
        /^error: --junit full\.json: the results file itself; name another file\n$/,
      ],
      [
        ['--junit', './full.json', '-o', 'r.html'],
        /^error: --junit \.\/full\.json: the results file itself; name another file\n$/,
      ],
      [
        ['-o', 'same.out', '--junit', 'same.out'],
        /^error: --junit same\.out: the same file as -o same\.out; give each its own path\n$/,
      ],
      [
        ['--junit', 'full.json/j.xml'],
        /^error: --junit full\.json\/j\.xml: .*full\.json is a file, not a folder, so the JUnit report was not written\n$/,
      ],
      [
        ['--junit', 'j.xml', '--baseline', 'full.json'],
        /^error: --baseline full\.json: only the HTML report shows a comparison.*; add -o FILE\n$/,
      ],
    ];
    for (const [flags, message] of refusals) {
      const r = await runInProcess(['report', 'full.json', ...flags], dir);
      assert.equal(r.code, 2, `${flags.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
    assert.deepEqual(readFileSync(join(dir, 'full.json')), results, 'the results are untouched');
    assert.deepEqual(readdirSync(dir).sort(), before, 'nothing written, no temporary file left');
  });

  it('says which file the disk refused and exits 3; the other report is still written', async () => {
    const alone = await runInProcess(['report', 'full.json', '--junit', TOO_LONG], dir);
    assert.equal(alone.code, 3, alone.stderr);
    assert.match(
      alone.stderr,
      new RegExp(
        `^error: ${TOO_LONG} could not be written \\(.*ENAMETOOLONG.*\\); nothing was written\\n$`,
      ),
    );
    assert.equal(existsSync(join(dir, 'report.html')), false);

    const both = await runInProcess(
      ['report', 'full.json', '-o', 'kept.html', '--junit', TOO_LONG],
      dir,
    );
    assert.equal(both.code, 3, both.stderr);
    assert.match(both.stderr, /^HTML report written to kept\.html$/m);
    assert.match(
      both.stderr,
      new RegExp(
        `^error: ${TOO_LONG} could not be written \\(.*ENAMETOOLONG.*\\); it is left as it was$`,
        'm',
      ),
    );
    assert.doesNotMatch(both.stderr, /JUnit report written|\n\s+at /);
    assert.match(readFileSync(join(dir, 'kept.html'), 'utf8'), /<html/i);
    assert.equal(
      readdirSync(dir).some((name) => name.includes('jjjj')),
      false,
    );
  });

  describe('evals merge --junit', () => {
    before(async () => {
      for (let i = 1; i <= 3; i++) {
        const s = await runInProcess(['run', '--shard', `${i}/3`, '-o', `s${i}.json`], dir);
        assert.equal(s.code, 1, s.stderr);
      }
    });

    it("writes the merged run's JUnit: that of evals report merged.json, with the unsharded run's counts", async () => {
      const r = await runInProcess(
        ['merge', 's2.json', 's1.json', 's3.json', '-o', 'merged.json', '--junit', 'merged.xml'],
        dir,
      );
      assert.equal(r.code, 1, r.stderr);
      assert.match(
        r.stderr,
        /^merged 3 of 3 shards: 3 runs, 65 case results, verdict fail → merged\.json\nJUnit report written to merged\.xml\n$/m,
      );
      const merged = readFileSync(join(dir, 'merged.xml'), 'utf8');
      const again = await runInProcess(['report', 'merged.json', '--junit', 'again.xml'], dir);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(readFileSync(join(dir, 'again.xml'), 'utf8'), merged);
      assert.deepEqual(junitCounts(merged), junitCounts(runXml));
      // Every testcase of the unsharded run, in the same order (times aside).
      const testcases = (xml: string) =>
        xml.replace(/ time="[\d.]+"| timestamp="[^"]*"/g, '').match(/<testcase .*>/g);
      assert.deepEqual(testcases(merged), testcases(runXml));
    });

    it('refuses a --junit that is an input or the -o file, before merging (exit 2)', async () => {
      const before = readdirSync(dir).sort();
      const refusals: [string[], RegExp][] = [
        [
          ['-o', 'm.json', '--junit', 's2.json'],
          /^error: --junit s2\.json: one of the files to merge \(s2\.json\); name another file\n$/,
        ],
        [
          ['-o', 'm.json', '--junit', 'm.json'],
          /^error: --junit m\.json: the same file as -o m\.json; give each its own path\n$/,
        ],
        [
          ['-o', 'm.json', '--junit', 's1.json/j.xml'],
          /^error: --junit s1\.json\/j\.xml: .*s1\.json is a file, not a folder, so nothing was merged\n$/,
        ],
      ];
      for (const [flags, message] of refusals) {
        const r = await runInProcess(['merge', 's1.json', 's2.json', 's3.json', ...flags], dir);
        assert.equal(r.code, 2, `${flags.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, message);
      }
      assert.deepEqual(readdirSync(dir).sort(), before, 'nothing written');
    });

    it('exits 3 when -o is written but --junit is not, giving the command that makes it', async () => {
      const r = await runInProcess(
        ['merge', 's1.json', 's2.json', 's3.json', '-o', 'm3.json', '--junit', TOO_LONG],
        dir,
      );
      assert.equal(r.code, 3, r.stderr);
      assert.match(r.stderr, /verdict fail → m3\.json\n/);
      assert.match(
        r.stderr,
        new RegExp(
          `^error: the merge finished but ${TOO_LONG} could not be written \\(.*ENAMETOOLONG.*\\); nothing was kept; make it with: evals report m3\\.json --junit ${TOO_LONG}$`,
          'm',
        ),
      );
      assert.doesNotMatch(r.stderr, /JUnit report written|\n\s+at /);
      // The merged artifact is whole: the command printed (to a name that fits) makes the XML.
      const made = await runInProcess(['report', 'm3.json', '--junit', 'm3.xml'], dir);
      assert.equal(made.code, 0, made.stderr);
      assert.deepEqual(junitCounts(readFileSync(join(dir, 'm3.xml'), 'utf8')), junitCounts(runXml));
    });

    it('documents --junit in its help and in evals report --help', async () => {
      const merge = await runInProcess(['merge', '--help'], dir);
      assert.match(merge.stdout, /--junit FILE/);
      assert.match(merge.stdout, /-o or --junit could not be written/);
      const report = await runInProcess(['report', '--help'], dir);
      assert.match(report.stdout, /--junit FILE/);
      assert.match(
        report.stdout,
        /with\s+--junit\s+and\s+no\s+-o,\s+no\s+HTML\s+report\s+is\s+written/,
      );
    });
  });
});

describe('the reports a second Ctrl-C leaves unwritten', () => {
  /** What `left` says with the run asked for `files` (flag → path) and none of them written. */
  function left(files: { junit?: string; html?: string }, output = 'out.json'): string | undefined {
    const reporters: Reporter[] = [];
    const pending = trackPendingReports(
      [
        { name: 'artifact', path: `/abs/${output}`, shown: output },
        ...(files.junit !== undefined
          ? [{ name: 'junit' as const, path: `/abs/${files.junit}`, shown: files.junit }]
          : []),
        ...(files.html !== undefined
          ? [{ name: 'html' as const, path: `/abs/${files.html}`, shown: files.html }]
          : []),
      ],
      reporters,
    );
    return pending.left(output);
  }

  it('gives the evals report command that makes the JUnit file from the kept artifact', () => {
    assert.equal(
      left({ junit: 'junit.xml' }),
      'not written: junit.xml (--junit); make the JUnit report from them with: evals report out.json --junit junit.xml',
    );
    assert.equal(
      left({ junit: 'junit.xml', html: 'report.html' }),
      'not written: junit.xml (--junit), report.html (--report); make the HTML and JUnit reports from them with: evals report out.json -o report.html --junit junit.xml',
    );
    assert.equal(
      left({ junit: "it's here.xml" }, 'my results.json'),
      `not written: it's here.xml (--junit); make the JUnit report from them with: evals report 'my results.json' --junit 'it'\\''s here.xml'`,
    );
  });

  it('makes, with the command it gives, the XML the run would have written', async () => {
    const dir = scratch();
    writeFiles(dir, FIXTURE);
    const r = await runInProcess(['run', '-o', 'out.json', '--junit', 'run.xml'], dir);
    assert.equal(r.code, 1, r.stderr);
    const command = /from them with: (.+)$/.exec(left({ junit: 'lost.xml' }) ?? '')?.[1];
    assert.equal(command, 'evals report out.json --junit lost.xml');
    writeFileSync(join(dir, 'lost.xml'), 'an earlier file\n');
    const made = await runInProcess(command.split(' ').slice(1), dir);
    assert.equal(made.code, 0, made.stderr);
    assert.equal(
      readFileSync(join(dir, 'lost.xml'), 'utf8'),
      readFileSync(join(dir, 'run.xml'), 'utf8'),
    );
  });
});
