/**
 * Big and hostile results for the GitHub report tests: thousands of failing cases with long
 * outputs (the size budget), and user text built to break markdown, HTML and GitHub's
 * autolinkers (the escaping).
 */
import { buildArtifact } from '../src/artifact/artifact.ts';
import type { CaseResult, ResultsArtifact, RunResult } from '../src/types/index.ts';
import { caseResult, evaluation } from './report-fixture.ts';

/** Wraps runs in an artifact with fixed clock and git values. */
export function artifactOf(
  runs: RunResult[],
  extra: {
    interrupted?: boolean;
    sha?: string;
    ref?: string;
    startedAt?: string;
    durationMs?: number;
  } = {},
): ResultsArtifact {
  return buildArtifact({
    toolVersion: '0.1.0',
    config: 'evals.yaml',
    configHash: 'h',
    git: extra.sha ? { sha: extra.sha, ref: extra.ref ?? null } : null,
    startedAt: new Date(extra.startedAt ?? '2025-01-02T00:00:00Z'),
    durationMs: extra.durationMs ?? 2500,
    interrupted: extra.interrupted ?? false,
    runs,
  });
}

/** A run of `cases` cases that all fail `exact`, each with an output of `outputChars` characters. */
export function failingRun(
  cases: number,
  options: { outputChars?: number; suite?: string; params?: Record<string, unknown> } = {},
): RunResult {
  const outputChars = options.outputChars ?? 2000;
  const results: CaseResult[] = [];
  for (let n = 1; n <= cases; n++) {
    results.push(
      caseResult(n, {
        id: `case-${String(n).padStart(5, '0')}`,
        passed: false,
        output: `answer ${n}: ${'lorem ipsum '.repeat(Math.ceil(outputChars / 12))}`.slice(
          0,
          outputChars,
        ),
        evaluations: [
          evaluation('exact', 0, { gte: 1 }, { metadata: { reason: `row ${n} did not match` } }),
        ],
      }),
    );
  }
  return {
    suite: options.suite ?? 'big',
    params: options.params ?? {},
    testset: { path: 'testsets/big.csv', ref: null, commit: null, revision: 'r', cases },
    verdict: 'fail',
    gate: {
      conditions: [
        {
          name: 'all cases pass',
          expected: '0 failed, 0 errored',
          actual: `${cases} failed, 0 errored`,
          passed: false,
        },
      ],
    },
    summary: {
      cases,
      passed: 0,
      failed: cases,
      errored: 0,
      passRate: 0,
      evaluators: {
        exact: { count: cases, mean: 0, passed: 0, failed: cases, errors: 0, passRate: 0 },
      },
    },
    cases: results,
  };
}

/** A run where every case passes, with `evaluators` evaluators (for many evaluator rows). */
export function passingRun(params: Record<string, unknown>, evaluators = 3): RunResult {
  const ids = Array.from({ length: evaluators }, (_, i) => `evaluator-${i + 1}`);
  return {
    suite: 'big',
    params,
    testset: { path: 'testsets/big.csv', ref: null, commit: null, revision: 'r', cases: 1 },
    verdict: 'pass',
    gate: {
      conditions: [
        {
          name: 'all cases pass',
          expected: '0 failed, 0 errored',
          actual: '0 failed, 0 errored',
          passed: true,
        },
      ],
    },
    summary: {
      cases: 1,
      passed: 1,
      failed: 0,
      errored: 0,
      passRate: 1,
      evaluators: Object.fromEntries(
        ids.map((id) => [id, { count: 1, mean: 1, passed: 1, failed: 0, errors: 0, passRate: 1 }]),
      ),
    },
    cases: [caseResult(1, { evaluations: ids.map((id) => evaluation(id, 1, { gte: 0.5 })) })],
  };
}

/**
 * Text that tries everything: closing the details and opening HTML, a code fence and backtick
 * runs, a table pipe and newlines, a heading, list, quote and setext underline at line start,
 * links, images, mentions, issue references, autolinks, entities, math, bidi overrides, a NUL and
 * an escape sequence.
 */
export const NASTY = [
  '</summary></details><script>alert(1)</script>',
  '```',
  '# heading',
  '- list | cell | another',
  '> quote',
  '===',
  '1. ordered',
  'see [click](https://evil.example) and ![img](https://evil.example/x.png)',
  '@octocat and @github/security ping, fixes #123 and GH-45 and octo/repo#7',
  'visit www.evil.example or https://evil.example/path',
  '&lt;b&gt; &#64;octocat $x^2$ ~~gone~~ **bold** _em_ `code` ```` four',
  'rtl \u202Eevil\u202C nul \u0000 esc \u001b[31m',
  '<!-- comment --> <details open>',
].join('\n');

/** A failing run whose every user-controlled field is `NASTY` (or starts with it). */
export function nastyRun(): RunResult {
  const failing = caseResult(1, {
    id: `${NASTY}`,
    source: { file: 'testsets/`we|ird`.csv', line: 3 },
    passed: false,
    output: NASTY,
    evaluations: [
      evaluation(`ev|${NASTY}`, 0, { gte: 1 }, { metadata: { reason: NASTY } }),
      evaluation('first-string', 0.1, { gte: 0.5 }, { metadata: { n: 1, note: NASTY } }),
    ],
  });
  const errored = caseResult(2, {
    id: '@octocat',
    passed: false,
    output: null,
    error: NASTY,
    evaluations: [],
  });
  return {
    suite: `suite|${NASTY}`,
    params: { [`p|${NASTY}`]: NASTY, nested: { deep: ['`', '|', '<x>'] } },
    testset: { path: 't.csv', ref: null, commit: null, revision: 'r', cases: 2 },
    verdict: 'fail',
    gate: {
      conditions: [
        { name: `evaluators.${NASTY}.mean`, expected: '≥ 0.5', actual: NASTY, passed: false },
      ],
    },
    summary: {
      cases: 2,
      passed: 0,
      failed: 1,
      errored: 1,
      passRate: 0,
      evaluators: {
        [`ev|${NASTY}`]: { count: 1, mean: 0, passed: 0, failed: 1, errors: 0, passRate: 0 },
      },
    },
    cases: [failing, errored],
  };
}
