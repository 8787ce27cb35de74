import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import { after, describe, it } from 'node:test';
import { MemoryCaseLog, type CaseLog } from '../src/artifact/case-log.ts';
import { execute } from '../src/pipeline/execute.ts';
import { artifactFile, junitFile } from '../src/report/file-reports.ts';
import { terminalSummary } from '../src/report/terminal-summary.ts';
import { serializeArtifact } from '../src/artifact/artifact.ts';
import { validateArtifact } from '../src/artifact/schema.ts';
import { CaseSpool } from '../src/artifact/spool.ts';
import { renderJUnit } from '../src/report/junit.ts';
import { renderSummary } from '../src/report/summary-table.ts';
import { runSuites } from '../src/run/engine.ts';
import type { EngineListener, SuiteSpec } from '../src/run/types.ts';
import type { CaseResult, EngineEvaluator, ResultsArtifact } from '../src/types/index.ts';
import { artifactOf, suiteSpec, type SuiteOverrides } from './helpers/cases.ts';

const work = await mkdtemp(join(tmpdir(), 'evalgate-stream-test-'));
after(() => rm(work, { recursive: true, force: true }));

type Row = Record<string, unknown>;

function suite(id: string, rows: Row[], overrides: SuiteOverrides = {}): SuiteSpec {
  return suiteSpec(rows, {
    id,
    // Cases wait a different number of event-loop turns, so they finish out of testset order.
    fn: async ({ testCase }) => {
      const i = testCase.i as number;
      for (let k = 0; k < (i * 7) % 5; k++) await tick();
      return testCase.output ?? `answer ${i}`;
    },
    evaluators: [even, long],
    concurrency: 8,
    ...overrides,
  });
}

/** Fails odd cases: the summary table then has more failures than it lists. */
const even: EngineEvaluator = {
  id: 'even',
  evaluateTestCase: ({ testCase }) => ({
    score: (testCase.i as number) % 2 === 0 ? 1 : 0,
    threshold: { gte: 1 },
  }),
};

/** Scores the output's length; metadata carries non-ASCII text, so lines are multi-byte. */
const long: EngineEvaluator = {
  id: 'long',
  evaluateTestCase: ({ output }) => ({
    score: Math.min(1, String(output).length / 100),
    metadata: { note: 'naïve café ✓ 𝄞' },
  }),
};

function rows(n: number): Row[] {
  return Array.from({ length: n }, (_, i) => ({ i, question: `What is ${i} + 1? ünïcödé` }));
}

/** A listener that records every finished case into `log`, as the pipeline does. */
function logging(log: CaseLog): EngineListener {
  return {
    onStart: (start) => log.open(start.runs),
    onCaseDone: (done) => log.record(done.run, done.index, done.result),
  };
}

/** Runs the suites once, keeping the cases AND spooling them, and writes the spooled artifact. */
async function streamed(
  suites: SuiteSpec[],
  options: { signal?: AbortSignal } = {},
): Promise<{ text: string; artifact: ResultsArtifact; readBack: CaseResult[][] }> {
  const spool = new CaseSpool();
  let clock = 0;
  const result = await runSuites(suites, {
    keepCases: true,
    listener: logging(spool),
    now: () => clock++,
    ...options,
  });
  const artifact = artifactOf(result.runs, result.interrupted);
  const path = join(work, `out-${Math.random().toString(36).slice(2)}`, 'results.json');
  try {
    await spool.writeArtifact(path, artifact);
    const readBack = artifact.runs.map((_, run) => [...spool.cases(run)]);
    return { text: await readFile(path, 'utf8'), artifact, readBack };
  } finally {
    spool.discard();
  }
}

describe('the streaming artifact writer', () => {
  it('writes exactly what serializeArtifact writes, for interleaved runs finishing out of order', async () => {
    const big = 'x'.repeat(70_000); // a line larger than a spool batch
    const huge = 'y'.repeat(1_200_000); // a line larger than the read-back window
    const withBig = rows(40).map((row, i) =>
      i === 3 ? { ...row, output: big } : i === 17 ? { ...row, output: huge } : row,
    );
    const suites = [
      suite('first', rows(300), { grid: [{ model: 'a' }, { model: 'b' }] }),
      suite('second', withBig, { concurrency: 3 }),
      suite('empty', []),
    ];
    const { text, artifact, readBack } = await streamed(suites);
    assert.equal(text, serializeArtifact(artifact));
    assert.deepEqual(validateArtifact(JSON.parse(text)), []);
    const parsed = JSON.parse(text) as ResultsArtifact;
    // Read back one by one (for JUnit), the spool gives each run's cases as the artifact has them.
    assert.deepEqual(
      readBack,
      parsed.runs.map((run) => run.cases),
    );
    assert.deepEqual(
      parsed.runs.map((run) => run.cases.length),
      [300, 300, 40, 0],
    );
    // Testset order, whatever order the cases finished in.
    assert.deepEqual(
      parsed.runs[0]!.cases.map((c) => c.id),
      rows(300).map((_, i) => `c${i}`),
    );
    assert.equal(parsed.runs[2]!.cases[17]!.output, huge);
  });

  it('writes values JSON cannot hold as the in-memory writer does', async () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const odd = suite('odd', rows(3), {
      fn: ({ testCase }) => ((testCase.i as number) === 1 ? { big: 10n, cyclic } : 'plain'),
      evaluators: [],
    });
    const { text, artifact } = await streamed([odd]);
    assert.equal(text, serializeArtifact(artifact));
    assert.deepEqual((JSON.parse(text) as ResultsArtifact).runs[0]!.cases[1]!.output, {
      big: '10',
      cyclic: { name: 'loop', self: '[Circular]' },
    });
  });

  it('writes the cases that finished before an interrupt, marked interrupted', async () => {
    const controller = new AbortController();
    let started = 0;
    const slowTail = suite('slow', rows(200), {
      concurrency: 4,
      fn: async ({ testCase, signal }) => {
        const i = testCase.i as number;
        if (++started === 60) controller.abort();
        for (let k = 0; k < (i * 7) % 5; k++) await tick();
        if (signal.aborted) await new Promise(() => {}); // never settles: dropped by the interrupt
        return `answer ${i}`;
      },
    });
    const { text, artifact, readBack } = await streamed([slowTail], { signal: controller.signal });
    assert.equal(text, serializeArtifact(artifact));
    const parsed = JSON.parse(text) as ResultsArtifact;
    // Read back for JUnit, the spool skips the cases the interrupt dropped, as the artifact does.
    assert.deepEqual(readBack, [parsed.runs[0]!.cases]);
    assert.equal(parsed.interrupted, true);
    assert.equal(parsed.verdict, 'fail');
    const finished = parsed.runs[0]!.cases;
    assert.ok(finished.length > 0 && finished.length < 200);
    assert.equal(parsed.runs[0]!.summary.cases, finished.length);
    const positions = finished.map((c) => Number(c.id.slice(1)));
    assert.deepEqual(
      positions,
      [...positions].sort((a, b) => a - b),
    );
    assert.deepEqual(validateArtifact(parsed), []);
  });

  it('keeps its spool files for the reports after the artifact, and removes them on discard', async (t) => {
    // A temporary folder of its own: other test files running at once spool in the shared one.
    const shared = process.env.TMPDIR;
    const own = await mkdtemp(join(tmpdir(), 'spool-test-'));
    process.env.TMPDIR = own;
    t.after(async () => {
      if (shared === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = shared;
      await rm(own, { recursive: true, force: true });
    });
    const before = new Set(await spoolDirs());
    const spool = new CaseSpool();
    const result = await runSuites([suite('s', rows(50))], {
      keepCases: false,
      listener: logging(spool),
    });
    const created = async () => (await spoolDirs()).filter((dir) => !before.has(dir));
    assert.equal((await created()).length, 1);
    await spool.writeArtifact(join(work, 'cleanup.json'), artifactOf(result.runs));
    assert.equal((await created()).length, 1, 'still there for the JUnit report');
    assert.equal([...spool.cases(0)].length, 50);
    spool.discard();
    assert.deepEqual(await created(), []);
    assert.throws(() => [...spool.cases(0)], /already removed/);

    const dropped = new CaseSpool();
    await runSuites([suite('s', rows(50))], { keepCases: false, listener: logging(dropped) });
    dropped.discard();
    assert.deepEqual(
      (await spoolDirs()).filter((dir) => !before.has(dir)),
      [],
    );
  });
});

describe('the engine without keeping cases', () => {
  it('hands every case to the listener once, at its run and testset position, and keeps none', async () => {
    const opened: number[][] = [];
    const seen: string[] = [];
    const result = await runSuites(
      [
        suite('grid', rows(25), { grid: [{ k: 1 }, { k: 2 }, { k: 3 }] }),
        suite('trials', rows(10), { trials: 3 }),
      ],
      {
        keepCases: false,
        listener: {
          onStart: (start) => opened.push(start.runs.map((run) => run.cases)),
          onCaseDone: ({ run, index, result }) => {
            assert.equal((result.data as Row).i, index);
            seen.push(`${run}:${index}`);
          },
        },
      },
    );
    assert.deepEqual(opened, [[25, 25, 25, 10]]);
    const expected = [25, 25, 25, 10].flatMap((size, run) =>
      Array.from({ length: size }, (_, index) => `${run}:${index}`),
    );
    assert.deepEqual([...seen].sort(), [...expected].sort());
    assert.deepEqual(
      result.runs.map((run) => [run.cases.length, run.summary.cases]),
      [
        [0, 25],
        [0, 25],
        [0, 25],
        [0, 10],
      ],
    );
  });
});

async function spoolDirs(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((name) => name.startsWith('evalgate-spool-'));
}

describe('execute with cases spooled or held', () => {
  it('prints the same summary table and writes the same artifact and JUnit report', async () => {
    const flaky: EngineEvaluator = {
      id: 'flaky',
      // Trials of a case alternate pass/fail for cases divisible by 3: flaky, some passing.
      evaluateTestCase: ({ testCase }) => {
        const i = testCase.i as number;
        const calls = (seen.get(i) ?? 0) + 1;
        seen.set(i, calls);
        return { score: i % 3 === 0 ? (calls % 3 === 0 ? 0 : 1) : 1, threshold: { gte: 1 } };
      },
    };
    const seen = new Map<number, number>();
    const specs = (): SuiteSpec[] => [
      suite('plain', rows(60), { grid: [{ k: 1 }, { k: 2 }] }),
      suite('trials', rows(30), { trials: 3, evaluators: [flaky] }),
    ];
    const run = async (log: CaseLog, name: string) => {
      const out: string[] = [];
      const artifact = await execute(specs(), {
        log,
        reporters: [
          terminalSummary({ write: (text) => out.push(text), color: false }),
          artifactFile({ path: join(work, `${name}.json`) }),
          junitFile({ path: join(work, `${name}.xml`) }),
        ],
        artifact: (executed) => artifactOf(executed.runs),
      });
      seen.clear();
      const cases = artifact.runs.map((_, i) => [...log.cases(i)]);
      log.discard();
      return { out: out.join(''), artifact, cases };
    };
    const held = await run(new MemoryCaseLog(), 'held');
    const spooled = await run(new CaseSpool(), 'spooled');

    assert.deepEqual(
      spooled.artifact.runs.map((r) => r.summary),
      held.artifact.runs.map((r) => r.summary),
    );
    assert.ok(held.artifact.runs[0]!.summary.failed > 5, 'more failures than the table lists');
    assert.ok((held.artifact.runs[2]!.summary.flaky ?? 0) > 0);
    assert.equal(spooled.out, held.out);
    assert.equal(
      held.out,
      renderSummary(
        held.artifact.runs.map((r, i) => ({ ...r, cases: held.cases[i]! })),
        { color: false },
      ),
    );

    // Both write the same artifact (durations aside, which differ between the two runs).
    const [a, b] = await Promise.all(
      ['held.json', 'spooled.json'].map(async (name) =>
        withoutDurations(await readFile(join(work, name), 'utf8')),
      ),
    );
    assert.equal(b, a);

    // The JUnit report: exactly what renderJUnit makes of the artifact, the same either way
    // but for times.
    const spooledXml = await readFile(join(work, 'spooled.xml'), 'utf8');
    const spooledArtifact = JSON.parse(
      await readFile(join(work, 'spooled.json'), 'utf8'),
    ) as ResultsArtifact;
    assert.equal(spooledXml, renderJUnit(spooledArtifact));
    assert.equal(spooledXml.match(/<testcase /g)?.length, 60 + 60 + 30, 'every case of every run');
    const heldXml = await readFile(join(work, 'held.xml'), 'utf8');
    assert.equal(withoutTimes(spooledXml), withoutTimes(heldXml));
  });
});

/** JUnit text with every time attribute set to 0. */
function withoutTimes(xml: string): string {
  return xml.replace(/ time="[0-9.]+"/g, ' time="0"');
}

/** The artifact text with every durationMs set to 0. */
function withoutDurations(text: string): string {
  return text.replace(/"durationMs": ?[0-9.e+-]+/g, '"durationMs":0');
}
