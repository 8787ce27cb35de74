/**
 * One run of the response fuzz: a project whose four suites call the mutating server
 * (scripts/fuzz-responses.ts) through a `model` target, an LLM judge and an `http` target, and
 * run the misbehaving script (scripts/fuzz-command.ts) as a `command` target, run with
 * `evals run -o out.json --junit junit.xml` in this process; then every rule the project keeps
 * for a world that answers badly is checked:
 *
 * - exit 0 or 1 (a failing case is a result, not a crash), no stack trace, no hang, no escape
 *   character from a server or a program printed raw to the terminal;
 * - the artifact written and valid against schemas/results.schema.json, the JUnit file written;
 * - each case ends as its mutation says (no error, or an error whose message names the problem);
 * - the secret (`FUZZ_API_KEY`, sent as the key and echoed back by the server and the script)
 *   nowhere: stdout, stderr, the artifact, the JUnit file, the response cache, not even a piece.
 */
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateArtifact } from '../src/artifact/schema.ts';
import { cli } from '../src/cli/main.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { COMMAND_MUTATIONS, MISBEHAVE_SCRIPT } from './fuzz-command.ts';
import { random, STACK_FRAME } from './fuzz-inputs.ts';
import {
  expectationOf,
  mutationsFor,
  type Expectation,
  type ResponseSide,
} from './fuzz-responses.ts';

/** The longest one run may take before it counts as a hang. */
export const RESPONSE_RUN_LIMIT_MS = 60_000;

/** How many cases of each suite one run has. */
export type ResponseRunSize = Record<Side, number>;

/** What one run came to. */
export interface ResponseOutcome {
  code: number | null;
  ms: number;
  /** Every rule broken, each a line naming the case; empty when all held. */
  problems: string[];
  /** Error messages by `suite/mutation`, for the long run's figures. */
  errors: Map<string, string>;
  cases: number;
}

/** A fuzzed suite: one side of the server, or the command target printing text or JSON. */
export type Side = ResponseSide | 'command' | 'command-json';

/** Every fuzzed suite, in the order the config has them. */
export const SIDES: readonly Side[] = [
  'model',
  'model-json',
  'judge',
  'http',
  'http-whole',
  'command',
  'command-json',
];

function shuffled<T>(items: readonly T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The mutations of `side` for run `index`: a seeded order, walked `size` at a time, so runs cover it all. */
function pickMutations(seed: number, index: number, side: Side, size: number): string[] {
  const names =
    side === 'command' || side === 'command-json'
      ? Object.keys(COMMAND_MUTATIONS)
      : mutationsFor(side);
  const order = shuffled(names, random(seed * 31 + side.length));
  return Array.from({ length: size }, (_, i) => order[(index * size + i) % order.length]!);
}

function expectation(side: Side, name: string): Expectation {
  if (side === 'command' || side === 'command-json') {
    return COMMAND_MUTATIONS[name]?.[side === 'command' ? 0 : 1] ?? 'any';
  }
  return expectationOf(side, name) ?? 'any';
}

/** The project's files for run `index`, its server at `base`. */
export function responseProject(seed: number, index: number, base: string, size: ResponseRunSize) {
  const rows = (side: Side, output?: string) =>
    pickMutations(seed, index, side, size[side])
      .map((m, n) =>
        JSON.stringify({
          n,
          m,
          s: (seed * 7919 + index * 104729 + n) >>> 0,
          ...(output ? { output } : {}),
        }),
      )
      .join('\n') + '\n';
  const config = `version: 1
defaults:
  concurrency: 8
  timeout: 10s
  judge:
    model: judge-m
    baseUrl: ${base}/judge/v1
    apiKey: "\${FUZZ_API_KEY}"
    timeout: 2s
    maxRetries: 1
suites:
  - id: model
    testset: { path: model.jsonl }
    target:
      type: model
      baseUrl: ${base}/model/v1
      apiKey: "\${FUZZ_API_KEY}"
      model: m
      prompt: "case {{case.n}}: {{case.m}}"
      timeout: 2s
      maxRetries: 1
    evaluators:
      - { id: fine, use: is-equals, with: { expected: fine } }
  - id: judge
    testset: { path: judge.jsonl }
    evaluators:
      - id: verdict
        use: llm-judge
        with:
          prompt: "case {{case.n}}: {{case.m}} answered {{output}}"
          choices: { "yes": 1, "no": 0 }
  - id: model-json
    testset: { path: model-json.jsonl }
    target:
      type: model
      baseUrl: ${base}/model-json/v1
      apiKey: "\${FUZZ_API_KEY}"
      model: m
      prompt: "case {{case.n}}: {{case.m}}"
      responseFormat: json
      timeout: 2s
      maxRetries: 1
    evaluators:
      - { id: fine, use: is-equals, with: { expected: fine } }
  - id: http
    testset: { path: http.jsonl }
    target:
      type: http
      url: "${base}/http?n={{case.n}}&m={{case.m}}"
      headers: { authorization: "Bearer \${FUZZ_API_KEY}" }
      output: answer
      maxRetries: 1
    evaluators:
      - { id: fine, use: is-equals, with: { expected: fine } }
  - id: http-whole
    testset: { path: http-whole.jsonl }
    target:
      type: http
      url: "${base}/http-whole?n={{case.n}}&m={{case.m}}"
      headers: { authorization: "Bearer \${FUZZ_API_KEY}" }
      maxRetries: 1
    evaluators:
      - { id: fine, use: is-equals, with: { expected: fine } }
  - id: command
    testset: { path: command.jsonl }
    timeout: 3s
    target:
      type: command
      run: [node, misbehave.mjs, "{{case.m}}", "{{case.s}}", text]
    evaluators:
      - { id: fine, use: is-equals, with: { expected: fine } }
      - { id: json, use: is-valid-json }
  - id: command-json
    testset: { path: command-json.jsonl }
    timeout: 3s
    target:
      type: command
      run: [node, misbehave.mjs, "{{case.m}}", "{{case.s}}", json]
      output: json
    evaluators:
      - { id: fine, use: is-equals, with: { expected: fine } }
`;
  return {
    'evals.yaml': config,
    ...Object.fromEntries(
      SIDES.map((side) => [`${side}.jsonl`, rows(side, side === 'judge' ? 'fine' : undefined)]),
    ),
    'misbehave.mjs': MISBEHAVE_SCRIPT,
  };
}

/** The run's secret: long and seeded, so any 12 characters of it are searched for. */
export function fuzzSecret(seed: number, index: number): string {
  const next = random(seed * 65_537 + index);
  let hex = '';
  while (hex.length < 32) hex += Math.floor(next() * 16).toString(16);
  return `sk-fuzz-${hex}`;
}

/**
 * Whether `text` holds the secret or a piece of it: its start (`sk-fuzz-` and one character
 * more: only the secret begins so, a cut one included) or any 12 characters of the rest.
 */
function leaks(secret: string, text: string): boolean {
  if (/sk-fuzz-[0-9a-f]/.test(text)) return true;
  const tail = secret.slice('sk-fuzz-'.length);
  for (let i = 0; i + 12 <= tail.length; i++) if (text.includes(tail.slice(i, i + 12))) return true;
  return false;
}

/** Which cases of the artifact `text` hold the secret, as `suite/mutation`. */
function leakingCases(secret: string, text: string): string {
  const artifact = JSON.parse(text) as ResultsArtifact;
  const found = artifact.runs.flatMap((run) =>
    run.cases
      .filter((c) => leaks(secret, JSON.stringify(c)))
      .map((c) => `${run.suite}/${(c.data as { m: string }).m}`),
  );
  return found.length > 0 ? found.join(', ') : 'outside the cases';
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

/** How `evals run` is run: in this process (fast), or as the built CLI at `bin` (a real exit). */
export type ResponseRunner = { kind: 'in-process' } | { kind: 'child'; bin: string };

interface Ran {
  code: number | 'hang';
  stdout: string;
  stderr: string;
}

const ARGV = ['run', 'evals.yaml', '-o', 'out.json', '--junit', 'junit.xml'];

/** `evals run` in `dir` as `runner` says, given up on after {@link RESPONSE_RUN_LIMIT_MS}. */
async function runEvals(dir: string, env: NodeJS.ProcessEnv, runner: ResponseRunner): Promise<Ran> {
  let stdout = '';
  let stderr = '';
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<'hang'>((resolve) => {
    timer = setTimeout(() => resolve('hang'), RESPONSE_RUN_LIMIT_MS);
  });
  try {
    if (runner.kind === 'in-process') {
      const code = await Promise.race([
        cli(ARGV, {
          cwd: dir,
          env,
          stdout: { write: (text: string) => ((stdout += text), true) },
          stderr: { write: (text: string) => ((stderr += text), true) },
        }),
        hang,
      ]);
      return { code, stdout, stderr };
    }
    // Asynchronous: the server answering this child runs in this process. The child must also
    // exit by itself once the run is over: a socket or a timer left open would hold it.
    const child = spawn(process.execPath, [runner.bin, ...ARGV], { cwd: dir, env });
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number>((resolve) =>
      child.on('close', (code, signal) => resolve(code ?? (signal === null ? -1 : 128))),
    );
    const code = await Promise.race([exited, hang]);
    if (code === 'hang') child.kill('SIGKILL');
    return { code, stdout, stderr };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs project `index` of `seed` against the server at `base` and checks every rule; with
 * `passes: 2`, twice in the same folder, so the second run replays what the response cache kept
 * (and the server's one-off failures are over), checked the same way.
 */
export async function fuzzResponses(
  seed: number,
  index: number,
  base: string,
  size: ResponseRunSize,
  runner: ResponseRunner = { kind: 'in-process' },
  passes = 1,
): Promise<ResponseOutcome> {
  const dir = mkdtempSync(join(tmpdir(), 'evalgate-fuzz-responses-'));
  const secret = fuzzSecret(seed, index);
  const outcome: ResponseOutcome = { code: null, ms: 0, problems: [], errors: new Map(), cases: 0 };
  const started = performance.now();
  try {
    for (const [name, text] of Object.entries(responseProject(seed, index, base, size)))
      writeFileSync(join(dir, name), text);
    const env = { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '', FUZZ_API_KEY: secret };
    for (let pass = 0; pass < passes; pass++) {
      const ran = await runEvals(dir, env, runner);
      const where = `seed ${seed}, run ${index}${pass > 0 ? `, pass ${pass + 1}` : ''}`;
      const problems = checkRun(dir, secret, ran, outcome);
      outcome.problems.push(...problems.map((problem) => `${problem} (${where})`));
      if (ran.code === 'hang') break;
    }
    outcome.ms = performance.now() - started;
    return outcome;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every rule `ran` broke in `dir`; records its exit code, cases and errors in `outcome`. */
function checkRun(dir: string, secret: string, ran: Ran, outcome: ResponseOutcome): string[] {
  const { code, stdout, stderr } = ran;
  if (code === 'hang') return [`no end in ${RESPONSE_RUN_LIMIT_MS} ms`];
  outcome.code = code;
  const problems: string[] = [];
  if (code !== 0 && code !== 1) problems.push(`exit code ${code}: ${stderr.slice(0, 500)}`);
  if (STACK_FRAME.test(stdout) || STACK_FRAME.test(stderr)) problems.push('printed a stack trace');
  // With NO_COLOR, nothing evalgate prints has an escape: one there came from a server or a
  // program, and could clear or retitle the user's terminal.
  if ((stdout + stderr).includes('\u001b')) problems.push('printed a raw escape character');
  if (leaks(secret, stdout)) problems.push('the secret is in stdout');
  if (leaks(secret, stderr)) problems.push('the secret is in stderr');
  for (const path of filesUnder(join(dir, '.evalgate'))) {
    if (leaks(secret, readFileSync(path, 'latin1')))
      problems.push(`the secret is in ${path.slice(dir.length + 1)}`);
  }
  const junit = join(dir, 'junit.xml');
  if (!existsSync(junit)) problems.push('no JUnit file');
  else if (leaks(secret, readFileSync(junit, 'utf8')))
    problems.push('the secret is in the JUnit file');
  const artifactPath = join(dir, 'out.json');
  if (!existsSync(artifactPath)) return [...problems, 'no artifact'];
  const text = readFileSync(artifactPath, 'utf8');
  if (leaks(secret, text))
    problems.push(`the secret is in the artifact: ${leakingCases(secret, text)}`);
  const artifact = JSON.parse(text) as ResultsArtifact;
  for (const issue of validateArtifact(artifact).slice(0, 5)) problems.push(`artifact: ${issue}`);
  outcome.cases = 0;
  for (const run of artifact.runs) {
    for (const result of run.cases) {
      outcome.cases++;
      const { m } = result.data as { m: string };
      const side = run.suite as Side;
      const error = result.error ?? result.evaluations.find((e) => e.error !== null)?.error ?? null;
      if (error !== null) outcome.errors.set(`${side}/${m}`, error);
      const problem = judgeCase(expectation(side, m), error);
      if (problem !== null) problems.push(`${side} case ${m}: ${problem}`);
    }
  }
  return problems;
}

/** Why an error (or its absence) is not what `expected` says; null when it is. */
function judgeCase(expected: Expectation, error: string | null): string | null {
  if (error !== null && /\[object Object\]|\bundefined\b/.test(error))
    return `an unclear error: ${error.slice(0, 300)}`;
  if (expected === 'any') return null;
  if (expected === 'ok')
    return error === null ? null : `expected no error, got: ${error.slice(0, 300)}`;
  if (error === null) return `expected an error matching ${expected}, got none`;
  return expected.test(error)
    ? null
    : `expected an error matching ${expected}, got: ${error.slice(0, 300)}`;
}
