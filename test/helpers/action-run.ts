/**
 * Running the GitHub Action end to end for tests: the committed dist/index.js, copied where a
 * runner would check the action out (no node_modules beside it), run as a child process with the
 * runner's environment against the fake GitHub (`github-server.ts`) on 127.0.0.1.
 */
import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  besideScratch,
  repoRoot,
  runNode,
  scratch,
  writeFiles,
  type CliResult,
  type RunOptions,
} from './cli.ts';
import type { GitHubServer } from './github-server.ts';

/** A copy of the action as `uses: owner/evalgate@v1` checks it out: action.yml, dist/, package.json. */
export function actionCheckout(): string {
  const dir = scratch();
  // The whole of dist/: index.js and the files it loads from next to itself (function-worker.js,
  // string-width.cjs).
  cpSync(join(repoRoot, 'dist'), join(dir, 'dist'), { recursive: true });
  copyFileSync(join(repoRoot, 'action.yml'), join(dir, 'action.yml'));
  copyFileSync(join(repoRoot, 'package.json'), join(dir, 'package.json'));
  return dir;
}

/**
 * A checkout of the action whose dist/index.js starts src/action/index.ts through tsx: for a
 * test of a change to src/action that dist/ does not bundle yet.
 */
export function sourceCheckout(): string {
  const dir = scratch();
  mkdirSync(join(dir, 'dist'));
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = pathToFileURL(join(repoRoot, 'src', 'action', 'index.ts')).href;
  writeFileSync(
    join(dir, 'dist', 'index.js'),
    `const { register } = await import(${JSON.stringify(tsx)});\nregister();\nawait import(${JSON.stringify(entry)});\n`,
  );
  copyFileSync(join(repoRoot, 'action.yml'), join(dir, 'action.yml'));
  copyFileSync(join(repoRoot, 'package.json'), join(dir, 'package.json'));
  return dir;
}

export const HEAD_SHA = 'a'.repeat(40);
export const MERGE_SHA = 'b'.repeat(40);

/** A runner's workspace (`GITHUB_WORKSPACE`) and its event payload file. */
export interface Workspace {
  dir: string;
  event: string;
}

/** The head commit of the merge queue's group in a `merge_group` event (its `GITHUB_SHA`). */
export const QUEUE_SHA = 'e'.repeat(40);

/** The repository of every event payload here, as GitHub sends it. */
export const REPOSITORY = { full_name: 'octo/repo', name: 'repo', owner: { login: 'octo' } };

/**
 * A workspace holding `files`, for a `pull_request` (number 7), a `push`, or a `merge_group`
 * event (PR 7 queued for main, as GitHub's merge queue sends it).
 */
export function workspace(
  files: Record<string, string>,
  event: 'pull_request' | 'push' | 'merge_group' = 'pull_request',
): Workspace {
  const dir = scratch();
  writeFiles(dir, files);
  const payload =
    event === 'merge_group'
      ? {
          action: 'checks_requested',
          merge_group: {
            head_sha: QUEUE_SHA,
            head_ref: `refs/heads/gh-readonly-queue/main/pr-7-${HEAD_SHA}`,
            base_sha: 'c'.repeat(40),
            base_ref: 'refs/heads/main',
          },
          repository: REPOSITORY,
        }
      : event === 'pull_request'
        ? pullRequestEvent()
        : {
            ref: 'refs/heads/main',
            repository: REPOSITORY,
          };
  const eventPath = besideScratch(dir, 'event.json');
  writeFileSync(eventPath, JSON.stringify(payload));
  return { dir, event: eventPath };
}

/** What {@link pullRequestEvent} says of pull request 7, where it differs from its defaults. */
export interface PullRequestEventOptions {
  /** The head commit; default HEAD_SHA. */
  head?: string;
  /** The repository the head is on (`fork/repo`), `null` for a deleted fork; default octo/repo. */
  headRepo?: string | null;
  /** The base commit (of main); default c…c. */
  base?: string;
  /** `merge_commit_sha`, the test merge GitHub made; default none. */
  merge?: string;
  /** The event's repository; default REPOSITORY. */
  repository?: Record<string, unknown>;
}

/**
 * The payload of a `pull_request` (or `pull_request_target`) event for pull request 7, the branch
 * feature into main of octo/repo.
 */
export function pullRequestEvent(options: PullRequestEventOptions = {}): Record<string, unknown> {
  const headRepo = options.headRepo === undefined ? 'octo/repo' : options.headRepo;
  return {
    action: 'synchronize',
    number: 7,
    pull_request: {
      number: 7,
      head: {
        sha: options.head ?? HEAD_SHA,
        ref: 'feature',
        repo: headRepo === null ? null : { full_name: headRepo },
      },
      base: { sha: options.base ?? 'c'.repeat(40), ref: 'main', repo: { full_name: 'octo/repo' } },
      ...(options.merge !== undefined ? { merge_commit_sha: options.merge } : {}),
    },
    repository: options.repository ?? REPOSITORY,
  };
}

/** What a run of the Action left: exit code, output, the job summary and the step outputs. */
export interface ActionRun extends CliResult {
  summary: string;
  outputs: Record<string, string>;
}

/**
 * Runs the action in `ws` with `inputs` (beside the defaults below) and extra environment; it is
 * killed after `timeoutMs`. `onSpawn` gets the node process, e.g. to send it a signal.
 */
export async function runAction(
  action: string,
  ws: Workspace,
  server: GitHubServer,
  inputs: Record<string, string> = {},
  extraEnv: Record<string, string> = {},
  timeoutMs = 120_000,
  onSpawn?: RunOptions['onSpawn'],
): Promise<ActionRun> {
  const summary = besideScratch(ws.dir, 'summary.md');
  const output = besideScratch(ws.dir, 'output.txt');
  // GitHub sets RUNNER_TEMP on every runner and empties it after the job; the Action keeps the
  // baseline it downloads there.
  const runnerTemp = besideScratch(ws.dir, 'runner-temp');
  mkdirSync(runnerTemp, { recursive: true });
  writeFileSync(summary, '');
  writeFileSync(output, '');
  const event = JSON.parse(readFileSync(ws.event, 'utf8')) as {
    pull_request?: unknown;
    merge_group?: { head_sha: string; head_ref: string };
  };
  const queued = event.merge_group;
  const env: Record<string, string> = {
    GITHUB_ACTIONS: 'true',
    // Set on every runner, and read by evals (automatic-battle records no missing baselines file
    // in CI); runNode clears it for the CLI's own tests, so the runner's is set here again.
    CI: 'true',
    GITHUB_EVENT_NAME: queued ? 'merge_group' : event.pull_request ? 'pull_request' : 'push',
    GITHUB_EVENT_PATH: ws.event,
    GITHUB_REPOSITORY: 'octo/repo',
    // In a merge queue GitHub sets both to the group's head commit and its queue branch.
    GITHUB_SHA: queued?.head_sha ?? MERGE_SHA,
    GITHUB_REF: queued?.head_ref ?? 'refs/pull/7/merge',
    GITHUB_API_URL: server.url,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_RUN_ID: '42',
    GITHUB_JOB: 'evals',
    GITHUB_WORKSPACE: ws.dir,
    GITHUB_STEP_SUMMARY: summary,
    RUNNER_TEMP: runnerTemp,
    GITHUB_OUTPUT: output,
    'INPUT_GITHUB-TOKEN': 'test-token',
    INPUT_CONFIG: 'evals.yaml',
    'INPUT_WORKING-DIRECTORY': '.',
    INPUT_RESULTS: 'evals-results.json',
    INPUT_COMMENT: 'true',
    'INPUT_CHECK-RUN': 'true',
    'INPUT_FAIL-ON': 'gate',
    INPUT_ARGS: '',
    INPUT_NAME: '',
    ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
    ...extraEnv,
  };
  const result = await runNode([join(action, 'dist', 'index.js')], {
    cwd: ws.dir,
    env,
    timeoutMs,
    ...(onSpawn !== undefined && { onSpawn }),
  });
  return {
    ...result,
    summary: readFileSync(summary, 'utf8'),
    outputs: parseOutputs(readFileSync(output, 'utf8')),
  };
}

/** `name<<delimiter\nvalue\ndelimiter` blocks, as @actions/core writes GITHUB_OUTPUT. */
function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /^([^<\n]+)<<(\S+)\n([\s\S]*?)\n\2$/gm;
  for (const m of text.matchAll(re)) out[m[1] ?? ''] = m[3] ?? '';
  return out;
}

/** A suite whose JS function echoes `answer`; rows with answer != expected fail `exact`. */
export function suiteFiles(
  rows: { expected: string; answer: string }[],
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    'evals.yaml': `version: 1
suites:
  - id: qa
    testset: { path: testsets/qa.csv }
    function: ./app/answer.mjs
    evaluators:
      - { id: exact, use: is-equals, with: { expected: "{{case.expected}}" } }
`,
    'testsets/qa.csv': `expected,answer\n${rows.map((r) => `${csvCell(r.expected)},${csvCell(r.answer)}`).join('\n')}\n`,
    'app/answer.mjs': 'export default ({ testCase }) => testCase.answer;\n',
    ...extra,
  };
}

function csvCell(text: string): string {
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * A config whose command target gets `${DEPLOY_PAT}` in its environment, evaluated on one row:
 * for the tests that check a value the config reads is masked and scrubbed everywhere.
 */
export const DEPLOY_PAT_CONFIG = `version: 1
suites:
  - id: qa
    testset: { path: testsets/qa.csv }
    target:
      type: command
      run: [node, app/echo.mjs]
      env:
        DEPLOY_PAT: "\${DEPLOY_PAT}"
    evaluators:
      - { id: exact, use: is-equals, with: { expected: "{{case.expected}}" } }
`;

/** Two passing rows and one failing (line 4 of the CSV). */
export const ONE_FAILING = [
  { expected: 'Paris', answer: 'Paris' },
  { expected: 'Berlin', answer: 'Berlin' },
  { expected: 'Rome', answer: 'Milan' },
];

/** The two passing rows of {@link ONE_FAILING}: a run that passes. */
export const ALL_PASS = ONE_FAILING.slice(0, 2);

/** `::error …` workflow commands that carry a file, i.e. row annotations. */
export function fileErrors(stdout: string): string[] {
  return stdout.match(/^::error [^\n]*file=[^\n]*$/gm) ?? [];
}
