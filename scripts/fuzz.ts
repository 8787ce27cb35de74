/**
 * `npm run fuzz [-- [--artifacts] COUNT [SEED]]`: runs COUNT (default 10,000) mutated projects
 * through `evals validate` and `evals run` in this process (with `--artifacts`: damaged results
 * artifacts through the commands that read them, scripts/fuzz-artifacts.ts), and prints the
 * figures: outcomes by command and exit code, the slowest case, and every unacceptable outcome
 * (exit other than 0/1/2, a thrown error, a stack trace, more than 5 s) with the seed and index
 * that reproduce it, and any warning Node printed. Exits 1 when there was one.
 *
 * `npm run fuzz -- --responses [COUNT [SEED]]` fuzzes what servers and programs answer instead
 * (scripts/fuzz-responses.ts): COUNT (default 2,000) mutated answers to model targets, LLM
 * judges, http and command targets, in runs of about 230 cases (every fifth through the built
 * `bin/evals.js`, when `npm run build` made it; every third run twice, the second from the
 * response cache), each run checked as
 * scripts/fuzz-responses-run.ts says.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { artifactBases, fuzzArtifactCase } from './fuzz-artifacts.ts';
import { fuzzProject, type FuzzProject } from './fuzz-inputs.ts';
import { fuzzInProcess, type FuzzCommand, type FuzzOutcome } from './fuzz-run.ts';
import { startResponseServer } from './fuzz-response-server.ts';
import { fuzzResponses, type ResponseRunner, type ResponseRunSize } from './fuzz-responses-run.ts';

const BIN = fileURLToPath(new URL('../bin/evals.js', import.meta.url));

const artifacts = process.argv.includes('--artifacts');
const responses = process.argv.includes('--responses');
const [countArg, seedArg] = process.argv
  .slice(2)
  .filter((arg) => arg !== '--artifacts' && arg !== '--responses');
if (responses) {
  process.exitCode = await fuzzResponseRuns(Number(countArg ?? 2000), Number(seedArg ?? 22));
  process.exit();
}
const count = Number(countArg ?? 10_000);
const seed = Number(seedArg ?? 22);
const bases = artifacts ? await artifactBases() : undefined;

/** The `index`th case: a project and what runs on it. */
function fuzzCase(index: number): { project: FuzzProject; command: FuzzCommand } {
  if (bases !== undefined) {
    const { project, argv } = fuzzArtifactCase(seed, index, bases);
    return { project, command: argv };
  }
  // Every fourth project is run as well as validated: the run is where aliases used to explode.
  return { project: fuzzProject(seed, index), command: index % 4 === 3 ? 'run' : 'validate' };
}
const byCode = new Map<string, number>();
const failures: { index: number; outcome: FuzzOutcome }[] = [];
let slowest = { ms: 0, index: -1 };
const started = performance.now();
// A warning Node prints (yaml's "Keys with collection values…") reaches the user as noise.
const warnings: string[] = [];
process.removeAllListeners('warning');
process.on('warning', (warning) => warnings.push(warning.message));

for (let index = 0; index < count; index++) {
  const { project, command } = fuzzCase(index);
  const outcome = await fuzzInProcess(project, command);
  const key = `${typeof command === 'string' ? command : command[0]} exit ${outcome.code ?? 'none'}`;
  byCode.set(key, (byCode.get(key) ?? 0) + 1);
  if (outcome.ms > slowest.ms) slowest = { ms: outcome.ms, index };
  if (outcome.problem !== null) failures.push({ index, outcome });
  if ((index + 1) % 1000 === 0) process.stderr.write(`${index + 1}/${count}\n`);
}

const seconds = (performance.now() - started) / 1000;
console.log(
  `fuzz: ${count} ${artifacts ? 'damaged artifacts' : 'projects'}, seed ${seed}, ${seconds.toFixed(1)} s`,
);
for (const [key, n] of [...byCode].sort()) console.log(`  ${key}: ${n}`);
console.log(`  slowest: ${slowest.ms.toFixed(0)} ms (index ${slowest.index})`);
console.log(`  process warnings: ${warnings.length}`);
for (const warning of warnings.slice(0, 5)) console.log(`  - ${warning.slice(0, 200)}`);
console.log(`  unacceptable outcomes: ${failures.length}`);
for (const { index, outcome } of failures.slice(0, 20)) {
  console.log(
    `  - index ${index} (${outcome.command}): ${outcome.problem}\n    ${outcome.stderr.slice(0, 300)}`,
  );
}
process.exitCode = failures.length > 0 || warnings.length > 0 ? 1 : 0;

/** The `--responses` fuzz: COUNT mutated answers in runs, each checked; 1 when a rule broke. */
async function fuzzResponseRuns(total: number, seed: number): Promise<number> {
  const size: ResponseRunSize = {
    model: 40,
    'model-json': 40,
    judge: 40,
    http: 40,
    'http-whole': 40,
    command: 16,
    'command-json': 16,
  };
  const perRun = Object.values(size).reduce((a, b) => a + b, 0);
  const runs = Math.max(1, Math.ceil(total / perRun));
  const server = await startResponseServer(seed);
  const started = performance.now();
  const problems: string[] = [];
  const messages = new Map<string, string>();
  let cases = 0;
  let slowest = 0;
  try {
    for (let index = 0; index < runs; index++) {
      // Every fifth run through the built CLI, when there is one: a real process must also exit.
      const runner: ResponseRunner =
        index % 5 === 4 && existsSync(BIN) ? { kind: 'child', bin: BIN } : { kind: 'in-process' };
      // Every third run twice in its folder: the second replays the response cache.
      const passes = index % 3 === 1 ? 2 : 1;
      const outcome = await fuzzResponses(seed, index, server.base, size, runner, passes);
      cases += outcome.cases;
      slowest = Math.max(slowest, outcome.ms);
      problems.push(...outcome.problems);
      for (const [key, message] of outcome.errors)
        if (!messages.has(key)) messages.set(key, message);
      process.stderr.write(`${index + 1}/${runs}\n`);
    }
  } finally {
    await server.close();
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `fuzz: ${cases} mutated answers in ${runs} runs, seed ${seed}, ${seconds.toFixed(1)} s`,
  );
  console.log(`  slowest run: ${(slowest / 1000).toFixed(1)} s`);
  console.log(`  errors by suite/mutation (the first seen):`);
  for (const [key, message] of [...messages].sort()) {
    console.log(`  - ${key}: ${message.replace(/\n/g, ' | ').slice(0, 160)}`);
  }
  console.log(`  broken rules: ${problems.length}`);
  for (const problem of problems.slice(0, 30)) console.log(`  - ${problem.slice(0, 400)}`);
  return problems.length > 0 ? 1 : 0;
}
