/**
 * The run plan: a plain value made from the config and its testsets (planRun), narrowed to what
 * an interrupted run left (planResume), and printed by `evals run --dry-run` (renderPlan).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseConfig } from '../src/config/load.ts';
import type { LoadedConfig } from '../src/config/types.ts';
import { builtinEvaluators } from '../src/evaluators/registry.ts';
import { planRun } from '../src/plan/plan.ts';
import { planResume, type ResumeIndex } from '../src/plan/resume.ts';
import type { RunPlan, TestsetIndex } from '../src/plan/types.ts';
import { shardOf } from '../src/plan/shard.ts';
import { renderPlan } from '../src/report/plan.ts';
import { prepareCases } from '../src/testsets/identity.ts';
import type { PreparedCase } from '../src/types/index.ts';

const CONFIG = `version: 1
suites:
  - id: capitals
    testset: { path: cases.csv }
    function: ./app.ts#answer
    grid: { model: [small, large], style: [terse, chatty] }
    evaluators:
      - { id: exact, use: is-equals, with: { expected: "{{case.q}}" } }
      - { id: judge, use: llm-judge, with: { prompt: "Polite? {{output}}", choices: { yes: 1, no: 0 } } }
      - { id: battle, use: manual-battle, with: { baseline: "{{case.q}}" } }
      - { id: tone, use: ./tone.ts#Tone }
  - id: recorded
    testset:
      cases:
        - { q: a, output: a }
        - { q: b, output: b }
`;

function config(text = CONFIG): LoadedConfig {
  const parsed = parseConfig(text, {
    file: 'evals.yaml',
    absPath: '/project/evals.yaml',
    env: {},
    builtins: builtinEvaluators,
  });
  assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.issues));
  return parsed.config;
}

function cases(n: number, tagged: (i: number) => string[] = () => []): PreparedCase[] {
  const prepared = prepareCases(
    Array.from({ length: n }, (_, i) => ({
      data: { q: `question ${i}` },
      line: i + 2,
      meta: { tags: tagged(i) },
    })),
    { testsetId: 'cases', file: 'cases.csv' },
  );
  assert.ok(prepared.ok);
  return prepared.cases;
}

function testsets(capitals: PreparedCase[]): TestsetIndex {
  const info = (path: string | null) => ({
    path,
    ref: null,
    commit: null,
    revision: 'abcdef0123456789',
  });
  return new Map([
    ['capitals', { cases: capitals, info: info('cases.csv') }],
    ['recorded', { cases: cases(2), info: info(null) }],
  ]);
}

function planOf(
  ...args: Parameters<typeof planRun> extends [unknown, unknown, ...infer R] ? R : never
): RunPlan {
  const planned = planRun(
    config(),
    testsets(cases(10, (i) => (i % 3 === 0 ? ['smoke'] : []))),
    ...args,
  );
  assert.ok(planned.ok, JSON.stringify(!planned.ok && planned.issues));
  return planned.plan;
}

describe('planRun', () => {
  it('plans every suite, grid point and case, with trials and model calls at most', () => {
    const plan = planOf({});
    assert.deepEqual(
      plan.suites.map((s) => [s.id, s.target, s.runs.length, s.runs[0]?.cases.length, s.trials]),
      [
        ['capitals', 'function ./app.ts#answer', 4, 10, 1],
        ['recorded', 'recorded outputs', 1, 2, 1],
      ],
    );
    const [capitals] = plan.suites;
    assert.deepEqual(
      capitals?.runs.map((r) => r.params),
      [
        { model: 'small', style: 'terse' },
        { model: 'small', style: 'chatty' },
        { model: 'large', style: 'terse' },
        { model: 'large', style: 'chatty' },
      ],
    );
    // is-equals 0, llm-judge 1, manual-battle 2 (both orders); tone is user code.
    assert.deepEqual(
      capitals?.evaluators.map((e) => [e.id, e.callsPerCase]),
      [
        ['exact', 0],
        ['judge', 1],
        ['battle', 2],
        ['tone', null],
      ],
    );
    assert.deepEqual(capitals?.modelCalls, {
      perCase: 3,
      unknown: ['the function ./app.ts#answer', 'evaluator tone'],
    });
    assert.deepEqual(plan.suites[1]?.modelCalls, { perCase: 0, unknown: [] });
    assert.equal(plan.shard, null);
    assert.equal(plan.resume, null);
  });

  it('narrows by --suite, --grid, --tag and --shard, keeping testset order', () => {
    const plan = planOf({
      suites: ['capitals'],
      grid: { model: ['large'] },
      tags: ['smoke'],
      shard: { index: 1, count: 2 },
    });
    assert.deepEqual(
      plan.suites.map((s) => s.id),
      ['capitals'],
    );
    const [suite] = plan.suites;
    assert.deepEqual(
      suite?.runs.map((r) => r.params.model),
      ['large', 'large'],
    );
    const kept = suite?.runs[0]?.cases ?? [];
    assert.ok(kept.length > 0 && kept.length < 4);
    for (const c of kept) {
      assert.equal(c.index % 3, 0, 'tagged smoke');
      assert.equal(shardOf(c.id, 2), 1);
    }
    assert.deepEqual(
      kept.map((c) => c.index),
      [...kept.map((c) => c.index)].sort((a, b) => a - b),
    );
    assert.equal(suite?.rows, 10);
    assert.deepEqual(plan.shard, { index: 1, count: 2 });
  });

  it('takes --trials over the config', () => {
    assert.ok(planOf({}, { trials: 3 }).suites.every((s) => s.trials === 3));
  });

  it('refuses filters that name nothing, with what there is', () => {
    const planned = planRun(config(), testsets(cases(2)), {
      suites: ['nope'],
      grid: { temperature: ['0'] },
    });
    assert.ok(!planned.ok);
    assert.deepEqual(
      planned.issues.map((i) => [i.code, i.message]),
      [
        [
          'cli.unknown-suite',
          '--suite nope: no such suite in evals.yaml (suites: capitals, recorded)',
        ],
        [
          'cli.unknown-grid-key',
          '--grid temperature=…: no suite has a grid parameter "temperature" (grid parameters: model, style)',
        ],
      ],
    );
    const none = planRun(config(), testsets(cases(2)), { grid: { model: ['huge'] } });
    assert.ok(!none.ok);
    assert.equal(none.issues[0]?.code, 'cli.grid-no-match');
    assert.match(
      none.issues[0]?.message ?? '',
      /no grid point matches --grid model=huge \(the grid has model: small, large\)/,
    );
    assert.equal(none.issues[0]?.path, 'suites[0].grid');
  });

  it('is a plain value: the same inputs give the same plan, which survives JSON', () => {
    const a = planOf({ tags: ['smoke'] });
    const b = planOf({ tags: ['smoke'] });
    assert.deepEqual(a, b);
    assert.deepEqual(JSON.parse(JSON.stringify(a)), a);
  });
});

describe('planResume', () => {
  const partialOf = (
    finished: Record<string, string[]>,
    extra: Partial<ResumeIndex['runs'][number]> = {},
  ): ResumeIndex => ({
    name: 'partial.json',
    runs: Object.entries(finished).map(([model, ids]) => ({
      suite: 'capitals',
      params: { model, style: 'terse' },
      revision: 'abcdef0123456789',
      planned: 10,
      trials: 2,
      finished: ids,
      ...extra,
    })),
  });

  it("keeps the partial's runs, marks the cases they finished, and runs them with its trials", () => {
    const plan = planOf({});
    const ids = plan.suites[0]!.runs[0]!.cases.map((c) => c.id);
    const resumed = planResume(plan, partialOf({ small: [ids[2]!, ids[0]!], large: [] }));
    assert.ok(resumed.ok, JSON.stringify(!resumed.ok && resumed.problems));
    assert.deepEqual(resumed.plan.resume, { from: 'partial.json', kept: 2 });
    const [suite] = resumed.plan.suites;
    assert.equal(resumed.plan.suites.length, 1);
    assert.equal(suite?.trials, 2);
    assert.deepEqual(
      suite?.runs.map((r) => [r.params, [...(r.done ?? [])].sort()]),
      [
        [{ model: 'small', style: 'terse' }, [0, 2]],
        [{ model: 'large', style: 'terse' }, []],
      ],
    );
  });

  it('refuses a partial that does not fit the plan, saying how', () => {
    const plan = planOf({});
    const ids = plan.suites[0]!.runs[0]!.cases.map((c) => c.id);
    const problems = (index: ResumeIndex, trials?: number): string[] => {
      const resumed = planResume(plan, index, trials === undefined ? {} : { trials });
      return resumed.ok ? [] : resumed.problems;
    };
    assert.match(
      problems(partialOf({ small: [] }, { revision: 'fedcba' })).join(),
      /the testset changed since partial\.json was written/,
    );
    assert.match(
      problems(partialOf({ small: [] }, { planned: 9 })).join(),
      /partial\.json planned 9 cases, this run plans 10/,
    );
    assert.match(
      problems(partialOf({ small: [] }), 3).join(),
      /ran 2 trial\(s\) per case; --trials 3 would mix results/,
    );
    assert.match(
      problems(partialOf({ small: ['not-a-case'] })).join(),
      /holds 1 case\(s\) this run does not plan \(e\.g\. not-a-case\)/,
    );
    assert.match(problems(partialOf({ small: [ids[1]!, ids[1]!] })).join(), /holds case .* twice/);
    assert.match(
      problems(partialOf({ tiny: [] })).join(),
      /suite capitals \{"model":"tiny","style":"terse"\} of partial\.json is not run by this config/,
    );
  });
});

describe('renderPlan', () => {
  it('prints each suite and the totals, and says that nothing ran', () => {
    const text = renderPlan(planOf({ shard: { index: 2, count: 3 } }, { trials: 2 }));
    assert.match(text, /^Plan of evals\.yaml \(shard 2\/3\)\n/);
    assert.match(text, /^capitals: function \.\/app\.ts#answer$/m);
    assert.match(
      text,
      /^ {2}testset {5}cases\.csv · revision abcdef012345 · 10 rows, \d+ selected$/m,
    );
    assert.match(text, /^ {2}runs {8}4 grid points × \d+ cases × 2 trials = \d+ case executions$/m);
    assert.match(
      text,
      /model=small style=terse · model=small style=chatty · model=large style=terse/,
    );
    assert.match(
      text,
      /^ {2}evaluators {2}exact \(is-equals\), judge \(llm-judge\), battle \(manual-battle\), tone \(\.\/tone\.ts#Tone\)$/m,
    );
    assert.match(
      text,
      /^ {2}model calls at most \d+ counted \(3 calls a case execution\); not counted: the function \.\/app\.ts#answer and evaluator tone may make model calls of their own$/m,
    );
    assert.match(text, /^recorded: recorded outputs$/m);
    assert.match(
      text,
      /^Total: 2 suites, 5 runs, \d+ case executions to run, at most \d+ model calls from model targets and built-in judges \(calls made by code, commands and HTTP endpoints are not counted\)\nNothing was run \(--dry-run\)\.\n$/m,
    );
  });

  it('counts what a resumption leaves to run', () => {
    const plan = planOf({});
    const ids = plan.suites[0]!.runs[0]!.cases.map((c) => c.id);
    const resumed = planResume(plan, {
      name: 'partial.json',
      runs: [
        {
          suite: 'capitals',
          params: { model: 'small', style: 'terse' },
          revision: 'abcdef0123456789',
          planned: 10,
          trials: 1,
          finished: ids.slice(0, 4),
        },
      ],
    });
    assert.ok(resumed.ok);
    const text = renderPlan(resumed.plan);
    assert.match(text, /\(resuming partial\.json: 4 case results kept\)/);
    assert.match(
      text,
      /1 grid point × 10 cases × 1 trial = 10 case executions, 4 taken over from the interrupted run, 6 to run/,
    );
    assert.match(text, /Total: 1 suite, 1 run, 6 case executions to run, at most 18 model calls/);
  });
});
