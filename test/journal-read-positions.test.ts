/**
 * A damaged recovery journal (a hand edit, a disk that filled) is refused naming the line and
 * the column where it goes wrong, as a damaged results file is: a case line runs to thousands
 * of characters. Version 2 journals (case lines after `R RUN`) and version 1 ones (`RUN JSON`
 * lines) alike; version 3's case files hold the same case lines.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readJournal } from '../src/artifact/journal-read.ts';
import type { RunResult } from '../src/types/index.ts';
import { artifactOf } from './helpers/cases.ts';

const work = mkdtempSync(join(tmpdir(), 'evalgate-journal-positions-'));
after(() => rmSync(work, { recursive: true, force: true }));

const run: RunResult = {
  suite: 'one',
  params: {},
  testset: { path: 'cases.csv', ref: null, commit: null, revision: 'rev', cases: 2 },
  verdict: 'pass',
  gate: { conditions: [] },
  summary: { cases: 0, passed: 0, failed: 0, errored: 0, passRate: 0, evaluators: {} },
  plan: { evaluators: [], trials: 1, gate: {} },
  cases: [],
};

const CASE =
  '{"id":"c0","contentId":"k0","source":{"file":"cases.csv","line":2},"data":{"n":"1"},"output":"x","error":null,"durationMs":1,"passed":true,"evaluations":[]}';

/** A journal of `version` whose 4th line (3rd in version 1) is `caseLine`; its error message. */
function refusal(name: string, version: 1 | 2, caseLine: string): string {
  const header = {
    evalgateJournal: version,
    pid: 1,
    host: 'elsewhere',
    startedAt: 'x',
    output: 'r.json',
  };
  const lines = [
    JSON.stringify(header),
    `F ${JSON.stringify({ at: 0, artifact: artifactOf([run], true) })}`,
    ...(version === 2 ? ['R 0', `        ${caseLine},`] : [`0 ${caseLine}`]),
    '',
  ];
  const path = join(work, name);
  writeFileSync(path, lines.join('\n'));
  assert.throws(() => readJournal(path), Error);
  try {
    readJournal(path);
  } catch (error) {
    return (error as Error).message;
  }
  return '';
}

/** The 1-based column of `needle` in `line`, counted independently. */
const columnOf = (line: string, needle: string): number => line.indexOf(needle) + 1;

describe('a damaged recovery journal', () => {
  it('names the line and column of a case value the schema rejects', () => {
    const bad = CASE.replace('"passed":true', '"passed":"yes"').replace('"error":null', '"err":1');
    const path = join(work, 'v2.journal');
    const line = `        ${bad},`;
    assert.equal(
      refusal('v2.journal', 2, bad),
      `${path}:4: this line of the recovery journal is not a case of its run (/ (column 9): missing property "error"; / (column ${columnOf(line, '"err"')}): unexpected property "err"; /passed (column ${columnOf(line, '"yes"')}): must be boolean, found "yes")`,
    );
    const v1 = `0 ${bad}`;
    assert.match(
      refusal('v1.journal', 1, bad),
      new RegExp(
        `v1\\.journal:3: .*/passed \\(column ${columnOf(v1, '"yes"')}\\): must be boolean`,
      ),
    );
  });

  it('names the line and column where a line stops being JSON', () => {
    const bad = CASE.replace('"passed":true', '"passed":yes');
    assert.equal(
      refusal('syntax.journal', 2, bad),
      `${join(work, 'syntax.journal')}:4:${columnOf(`        ${bad},`, 'yes')}: this line of the recovery journal is not JSON`,
    );
    assert.equal(
      refusal('syntax1.journal', 1, bad),
      `${join(work, 'syntax1.journal')}:3:${columnOf(`0 ${bad}`, 'yes')}: this line of the recovery journal is not JSON`,
    );
  });
});
