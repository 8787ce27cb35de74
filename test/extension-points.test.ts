/**
 * The two extension points: a new kind of target and a new reporter each take one registration,
 * and the engine runs them as it runs its own (nothing in run/ knows them).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryCaseLog } from '../src/artifact/case-log.ts';
import { buildArtifact } from '../src/artifact/artifact.ts';
import { bindSuites } from '../src/bind/bind.ts';
import { suiteSpecs } from '../src/bind/suite-specs.ts';
import { createModuleLoader } from '../src/bind/modules/loader.ts';
import { readTestsets } from '../src/bind/testsets.ts';
import { loadConfig } from '../src/pipeline/load.ts';
import { execute } from '../src/pipeline/execute.ts';
import { planRun } from '../src/plan/plan.ts';
import { createReporters, reporterKinds, type ReporterKind } from '../src/report/registry.ts';
import { targetKinds, type TargetKind } from '../src/targets/registry.ts';
import type { TargetConfig } from '../src/config/types.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { oneSuiteProject } from './helpers/cli.ts';

/** The fake target's suite over three rows, run through the engine with `reporters`. */
async function runFakeTarget(
  kind: TargetKind<{ kind: string; suffix: string }>,
  reporterSpecs: Parameters<typeof createReporters>[0] = [],
  kinds: Parameters<typeof createReporters>[2] = reporterKinds,
  rows = 'q,expected\nhello,HELLO\nbye,BYE\nodd,nope\n',
): Promise<{ artifact: ResultsArtifact; log: MemoryCaseLog }> {
  const dir = oneSuiteProject(rows, [
    'evaluators:',
    '  - { id: upper, use: is-equals, with: { expected: "{{case.expected}}" } }',
  ]);
  const quiet = { write: () => true };
  const ctx = { cwd: dir, env: {}, stdout: quiet, stderr: quiet };
  const config = await loadConfig(undefined, ctx);
  // A config naming the new kind (the schema would gain a key for it; here it is set directly).
  const suite = config.suites[0]!;
  suite.target = { kind: 'shout', suffix: '' } as unknown as TargetConfig;
  const bound = await bindSuites(config, config.suites, {
    loader: createModuleLoader(),
    targets: { ...targetKinds, shout: kind },
  });
  assert.ok(bound.ok, JSON.stringify(!bound.ok && bound.issues));
  const testsets = await readTestsets(config, config.suites, dir);
  assert.ok(testsets.ok);
  const planned = planRun(config, testsets.testsets, {});
  assert.ok(planned.ok);
  const reporters = createReporters(
    reporterSpecs,
    { out: () => {}, err: () => {}, errIsTTY: false, color: false, githubActions: false },
    kinds,
  );
  const log = new MemoryCaseLog();
  const artifact = await execute(suiteSpecs(planned.plan, bound.suites), {
    log,
    reporters,
    engine: { globalConcurrency: 1 },
    artifact: (executed) =>
      buildArtifact({
        toolVersion: 'test',
        config: config.file,
        configHash: config.hash,
        git: null,
        ...executed,
      }),
  });
  return { artifact, log };
}

describe('extension points', () => {
  it('a fake target and a fake reporter, one registration each, run through the engine', async () => {
    // One registration: the kind, next to the built-in ones.
    const shout: TargetKind<{ kind: string; suffix: string }> = {
      create: (target) =>
        Promise.resolve({
          ok: true,
          value: {
            description: 'shouts the question',
            call: ({ testCase }) => ({
              output: `${String(testCase.q).toUpperCase()}${target.suffix}`,
              usage: {
                calls: 1,
                cacheHits: 0,
                promptTokens: 3,
                completionTokens: 1,
                cost: 0.001,
                latencyMs: 2,
              },
            }),
          },
        }),
    };
    // One registration: the reporter, next to the built-in ones.
    const heard: string[] = [];
    const tally: ReporterKind<{ prefix: string }> = {
      create: (options) => ({
        onRunStart: (start) => heard.push(`${options.prefix} start ${start.total}`),
        onCaseDone: ({ result }) =>
          heard.push(`${options.prefix} ${String(result.output)} ${result.passed}`),
        onRunEnd: ({ artifact, log }) => {
          heard.push(`${options.prefix} end ${artifact.verdict} ${[...log.cases(0)].length}`);
        },
      }),
    };
    const { artifact } = await runFakeTarget(shout, [{ name: 'tally', prefix: '>' }], {
      ...reporterKinds,
      tally,
    });
    assert.deepEqual(heard, [
      '> start 3',
      '> HELLO true',
      '> BYE true',
      '> ODD false',
      '> end fail 3',
    ]);
    // The target's usage is the case's, and the run's.
    assert.equal(artifact.runs[0]?.summary.usage?.calls, 3);
  });

  it("a target's own durationMs times its case when it is a time, else the engine's clock does", async () => {
    // What a cached answer reports: the time the call that got it took.
    // 1e306 is finite but rounds (to thousandths) to Infinity, which the artifact wrote as null.
    const told = [1234.5, -1, Number.NaN, 1e306];
    const timed: TargetKind<{ kind: string; suffix: string }> = {
      create: () =>
        Promise.resolve({
          ok: true,
          value: {
            description: 'answers at once, told how long it took',
            call: ({ testCase }) => {
              const row = ['hello', 'bye', 'odd', 'huge'].indexOf(String(testCase.q));
              return { output: String(testCase.q).toUpperCase(), durationMs: told[row] };
            },
          },
        }),
    };
    const rows = 'q,expected\nhello,HELLO\nbye,BYE\nodd,nope\nhuge,HUGE\n';
    const { log } = await runFakeTarget(timed, [], reporterKinds, rows);
    const [first, ...rest] = [...log.cases(0)].map((c) => c.durationMs);
    assert.equal(first, 1234.5);
    assert.equal(rest.length, 3);
    // A negative, NaN or unroundable time is no time: the engine's own measure of a call that
    // returned at once.
    for (const ms of rest) assert.ok(ms !== undefined && ms >= 0 && ms < 1000, `${ms}`);
  });

  it('refuses a reporter or a target kind nobody registered', async () => {
    assert.throws(
      () =>
        createReporters([{ name: 'nope' }], {
          out: () => {},
          err: () => {},
          errIsTTY: false,
          color: false,
          githubActions: false,
        }),
      /no reporter named "nope" is registered/,
    );
    const dir = oneSuiteProject('q\nx\n', []);
    const quiet = { write: () => true };
    const config = await loadConfig(undefined, { cwd: dir, env: {}, stdout: quiet, stderr: quiet });
    config.suites[0]!.target = { kind: 'nope' } as unknown as TargetConfig;
    await assert.rejects(
      bindSuites(config, config.suites, { loader: createModuleLoader() }),
      /no target kind "nope" is registered/,
    );
  });
});
