/**
 * QA 8, how results are shown: JUnit of a run cut short (times that add up, the cases never run,
 * the gate condition that failed), JUnit messages and summary lines of a case run with trials
 * (why, and from which trial), `compare --format md` cutting a label between graphemes, and the
 * HTML detail of a case that errored (no output, so no `null` and no diff against it).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { painter } from '../src/report/ansi.ts';
import { renderCaseDetail } from '../src/report/case-detail.ts';
import { renderCaseLines } from '../src/report/case-lines.ts';
import { buildReportModel } from '../src/report/html-model.ts';
import { renderJUnit } from '../src/report/junit.ts';
import { clipText } from '../src/report/failure-details.ts';
import type { CaseResult, ResultsArtifact, RunResult } from '../src/types/index.ts';
import { writeFiles } from './helpers/cli.ts';
import { artifactOf as largeArtifactOf } from './report-fixture-large.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { caseResult, evaluation, fixtureRuns } from './report-fixture.ts';

const plain = painter(false);

/** The shared fixture's artifact, started on the date these tests' expectations name. */
function artifactOf(runs: RunResult[], extra: { durationMs?: number; interrupted?: boolean } = {}) {
  return largeArtifactOf(runs, { startedAt: '2025-01-01T00:00:00Z', ...extra });
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(raw: string): string {
  return raw.replace(/&(#\d+|\w+);/g, (_match, entity: string) =>
    entity.startsWith('#')
      ? String.fromCodePoint(Number(entity.slice(1)))
      : (ENTITIES[entity] ?? ''),
  );
}

/** The attributes of every `<tag …>` start tag in `xml`, in order. */
function tags(xml: string, tag: string): Record<string, string>[] {
  return [...xml.matchAll(new RegExp(`<${tag}((?:\\s+[\\w.-]+="[^"]*")*)\\s*/?>`, 'g'))].map(
    ([, raw]) =>
      Object.fromEntries(
        [...(raw ?? '').matchAll(/([\w.-]+)="([^"]*)"/g)].map(([, key, value]) => [
          key!,
          decode(value!),
        ]),
      ),
  );
}

/** The XML of the testcase named `name`, from its start tag to its end. */
function testcase(xml: string, name: string): string | undefined {
  const escaped = name.replace(/[()]/g, '\\$&');
  return new RegExp(`<testcase name="${escaped}"[^>]*?(?:/>|>[\\s\\S]*?</testcase>)`).exec(
    xml,
  )?.[0];
}

/**
 * The QA's run `slow [g=a]`: 40 cases planned, 14 finished (4 failed) when Ctrl-C came after
 * 2.161 s of wall time; the cases ran concurrently, so their durations sum to 4.229 s.
 */
function interruptedRun(): RunResult {
  const durations = [300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 300, 329];
  const cases = durations.map((durationMs, i) =>
    caseResult(i + 1, {
      id: `case-${i + 1}`,
      durationMs,
      passed: i >= 4,
      evaluations: [evaluation('exact', i >= 4 ? 1 : 0, { gte: 1 })],
    }),
  );
  return {
    suite: 'slow',
    params: { g: 'a' },
    testset: { path: 'rows.jsonl', ref: null, commit: null, revision: 'r', cases: 40 },
    verdict: 'fail',
    gate: {
      conditions: [
        { name: 'all cases pass', expected: 'all', actual: '10 of 14', passed: false },
        {
          name: 'complete',
          expected: '40 cases',
          actual: '14 finished (interrupted)',
          passed: false,
        },
      ],
    },
    summary: {
      cases: 14,
      passed: 10,
      failed: 4,
      errored: 0,
      passRate: 10 / 14,
      evaluators: {
        exact: { count: 14, mean: 10 / 14, passed: 10, failed: 4, errors: 0, passRate: 10 / 14 },
      },
    },
    cases,
  };
}

describe('JUnit of a run cut short (QA 8, item 1)', () => {
  it('no suite takes longer than the whole report', () => {
    const xml = renderJUnit(
      artifactOf([interruptedRun()], { durationMs: 2161, interrupted: true }),
    );
    const [total] = tags(xml, 'testsuites');
    const [suite] = tags(xml, 'testsuite');
    assert.equal(suite?.time, '4.229', xml);
    assert.ok(Number(suite?.time) <= Number(total?.time), xml);
    assert.equal(total?.time, '4.229');
  });

  it('shows the cases never run as one skipped testcase with their count, and the failed gate', () => {
    const xml = renderJUnit(
      artifactOf([interruptedRun()], { durationMs: 2161, interrupted: true }),
    );
    const [suite] = tags(xml, 'testsuite');
    const notRun = testcase(xml, '(not run)');
    assert.ok(notRun !== undefined, xml);
    const [skipped] = tags(notRun, 'skipped');
    assert.equal(
      skipped?.message,
      '26 of the 40 planned cases were never run: the run was interrupted',
    );
    // 14 cases, the "(not run)" one and the gate's.
    assert.deepEqual(
      [suite?.tests, suite?.failures, suite?.errors, suite?.skipped],
      ['16', '5', '0', '1'],
    );
    const [total] = tags(xml, 'testsuites');
    assert.deepEqual([total?.tests, total?.failures], ['16', '5']);
    const gate = testcase(xml, '(gate)');
    assert.ok(gate !== undefined, xml);
    assert.match(
      tags(gate, 'failure')[0]?.message ?? '',
      /complete: expected 40 cases, got 14 finished \(interrupted\)/,
    );
  });

  it('adds no gate testcase when the failing cases already say why the gate failed', () => {
    const run = interruptedRun();
    run.testset.cases = 14;
    run.gate.conditions.pop();
    const xml = renderJUnit(artifactOf([run]));
    assert.equal(testcase(xml, '(gate)'), undefined);
    assert.equal(testcase(xml, '(not run)'), undefined);
    assert.deepEqual(
      tags(xml, 'testsuite').map((suite) => [suite.tests, suite.failures, suite.skipped]),
      [['14', '4', '0']],
    );
  });

  it('shows a failed gate condition the cases do not explain, although cases failed', () => {
    // The fixture's failing run misses its minPassRate with four failed cases and an error.
    const xml = renderJUnit(artifactOf(fixtureRuns()));
    const gate = testcase(xml, '(gate)');
    assert.ok(gate !== undefined, xml);
    assert.equal(tags(gate, 'failure')[0]?.message, 'minPassRate: expected ≥ 0.5, got 0.167');
  });
});

/** A case run with `trials: 3` that passed trial 1 only; trial 2 explains the failure. */
function flakyCase(): CaseResult {
  const metadata = { expected: 'Paris', actual: 'Lyon' };
  const trial = (passed: boolean) => ({
    output: passed ? 'Paris' : 'Lyon',
    error: null,
    durationMs: 5,
    passed,
    evaluations: [evaluation('exact', passed ? 1 : 0, { gte: 1 }, passed ? {} : { metadata })],
  });
  return caseResult(1, {
    id: 'capital-of-france',
    output: 'Lyon',
    passed: false,
    flaky: true,
    trialPassRate: 1 / 3,
    trials: [trial(true), trial(false), trial(false)],
    evaluations: [
      evaluation(
        'exact',
        1 / 3,
        { gte: 1 },
        {
          passed: false,
          metadata: { ...metadata, trials: 3, scored: 3, passedTrials: 1, fromTrial: 2 },
        },
      ),
    ],
  });
}

function runWith(cases: CaseResult[]): RunResult {
  const [, failing] = fixtureRuns() as [RunResult, RunResult];
  return { ...failing, cases, testset: { ...failing.testset, cases: cases.length } };
}

describe('why a case run with trials failed (QA 8, items 2 and 3)', () => {
  it("JUnit's failure message gives the failing trial's reason and names the trial", () => {
    const xml = renderJUnit(artifactOf([runWith([flakyCase()])]));
    const failure = tags(testcase(xml, 'capital-of-france') ?? '', 'failure')[0];
    assert.equal(
      failure?.message,
      'flaky 1/3; exact 0.333 (needs ≥ 1): trial 2: expected "Paris", got "Lyon"',
    );
  });

  it("JUnit's failure message of a single trial gives the evaluator's reason too", () => {
    const [, failing] = fixtureRuns() as [RunResult, RunResult];
    const xml = renderJUnit(artifactOf([failing]));
    const failure = tags(testcase(xml, '2222abcdef0123456789') ?? '', 'failure')[0];
    assert.equal(failure?.message, 'exact 0 (needs ≥ 1): expected "Paris", got "Lyon"');
  });

  it('the summary line names the trial the reason came from, as evals show does', () => {
    const result = flakyCase();
    const [line] = renderCaseLines(result, 'c1', plain, 200, '');
    assert.match(line ?? '', /exact 0\.333 \(needs ≥ 1\): trial 2: expected "Paris", got "Lyon"/);
    const detail = renderCaseDetail(runWith([result]), result, { full: false, paint: plain });
    assert.match(detail, /\n +trial 2: expected "Paris", got "Lyon"\n/);
  });

  it('a single trial has no trial named', () => {
    const [, failing] = fixtureRuns() as [RunResult, RunResult];
    const [line] = renderCaseLines(failing.cases[1]!, 'c2', plain, 200, '');
    assert.match(line ?? '', /exact 0 \(needs ≥ 1\): expected "Paris", got "Lyon"/);
  });
});

describe('compare --format md cuts a label between graphemes (QA 8, item 4)', () => {
  it('keeps each accent with its letter, as the text format does', async () => {
    const label = 'e\u0301'.repeat(60);
    const dir = jsonlProject(
      [{ question: label, n: 1 }],
      [
        'function: ./answer.mjs',
        'evaluators:',
        '  - { id: exact, use: is-equals, with: { expected: "{{case.n}}" } }',
      ],
      {
        'answer.mjs':
          "import { readFileSync } from 'node:fs';\n" +
          "export default ({ testCase }) => readFileSync(new URL('./side.txt', import.meta.url), 'utf8') === 'base' ? String(testCase.n) : 'no';\n",
        'side.txt': 'base',
      },
    );
    const base = await runInProcess(['run', '-o', 'base.json'], dir);
    assert.equal(base.code, 0, base.stderr);
    writeFiles(dir, { 'side.txt': 'head' });
    const head = await runInProcess(['run', '-o', 'head.json'], dir);
    assert.equal(head.code, 1, head.stderr);
    const md = await runInProcess(['compare', 'base.json', 'head.json', '--format', 'md'], dir);
    assert.ok(md.stdout.includes(`${'e\u0301'.repeat(49)}…`), md.stdout);
    assert.ok(!md.stdout.includes('e…'), md.stdout);
    const text = await runInProcess(['compare', 'base.json', 'head.json'], dir);
    assert.ok(!text.stdout.includes('e…'), text.stdout);
  });
});

describe('the HTML detail of a case that errored (QA 8, item 5)', () => {
  it('has no output to show or diff, where a case that returned null shows null', () => {
    const errored = caseResult(1, {
      id: 'threw',
      data: { question: 'q', expected: 'Paris' },
      output: null,
      error: 'Error: timed out after 30 s',
      passed: false,
      evaluations: [],
    });
    const returnedNull = caseResult(2, {
      id: 'returned-null',
      data: { question: 'q', expected: 'Paris' },
      output: null,
      passed: false,
      evaluations: [evaluation('exact', 0, { gte: 1 })],
    });
    const run = runWith([errored, returnedNull]);
    const artifact: ResultsArtifact = artifactOf([run]);
    const model = buildReportModel(artifact, () => run.cases);
    const [threw, gaveNull] = model.cases;
    assert.equal(threw?.output, null);
    assert.equal(threw?.compared?.expected, 'Paris', 'what was expected is still shown');
    assert.equal(gaveNull?.output, 'null');
    assert.equal(gaveNull?.compared?.what, 'the whole output');
  });
});

describe('clipText (PR comment and annotation titles)', () => {
  it('cuts between graphemes, within the character limit', () => {
    const accented = 'e\u0301'.repeat(50);
    const cut = clipText(accented, 60);
    assert.ok(Array.from(cut).length <= 60);
    assert.equal(cut, `${'e\u0301'.repeat(29)}…`);
    const flags = '\u{1F1EB}\u{1F1F7}'.repeat(10);
    assert.equal(clipText(flags, 6), `${'\u{1F1EB}\u{1F1F7}'.repeat(2)}…`);
    assert.equal(clipText('short', 60), 'short');
  });
});
