/**
 * The `command` target: one process per case (a Python agent, a shell script, any program).
 * The case goes to its stdin as JSON, its stdout is the output, and a non-zero exit is a case
 * error carrying the end of its stderr.
 *
 * Each process leads its own process group, so whatever it forks is stopped with it: on the
 * suite's timeout (SIGTERM, then SIGKILL), and when the command exits and leaves children behind.
 */
import { isUtf8 } from 'node:buffer';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';
import type { CommandTargetConfig } from '../config/types.ts';
import { literalValue, templateExpressions, templateSpans } from '../shared/templates.ts';
import { setOwn } from '../shared/own-key.ts';
import { describeTarget } from '../config/target.ts';
import type { Checked, Issue } from '../shared/errors.ts';
import type { FnArgs, Target, TargetOutput } from '../types/index.ts';
import { refusedShellTemplates, refusedTemplateMessage } from '../shared/shell-contexts.ts';
import { shellLine, shellValueName, textInput, type Rendered, type TargetInput } from './inputs.ts';
import { forgetGroup, signalGroup, trackGroup } from './processes.ts';
import {
  findProgram,
  folderProblem,
  lookupEnv,
  notUtf8Problem,
  nulProblem,
  startProblem,
} from './command-checks.ts';
import { CappedBytes, MAX_OUTPUT_BYTES, passedCap } from '../shared/output-cap.ts';
import { CallTimeout } from '../shared/call-timeout.ts';
import { lastLines, outcome, STDERR_LINES, type Ran } from './command-output.ts';
import { StderrTail } from './stderr-tail.ts';
import { roundedIntegerNotes, withNote } from '../shared/rounded-integers.ts';
import { createScrubber, type Scrubber } from '../shared/secrets.ts';
import { shellQuote, shellWord } from '../shared/shell-word.ts';
import { expandGrid } from '../plan/grid.ts';

/** Most stdout kept from one process (the limit of every target's output); past it the process is stopped and the case errored. */
export const MAX_STDOUT_BYTES = MAX_OUTPUT_BYTES;
/** Between SIGTERM and SIGKILL, for a process that ignores or handles SIGTERM slowly. */
export const KILL_GRACE_MS = 500;
/**
 * After the command exits, the longest wait for its stdout and stderr to close: past the grace
 * period its group is gone, so a pipe still open is held by a process that left the group.
 */
const HELD_PIPES_MS = KILL_GRACE_MS + 500;

/** What building a command target needs from the run. */
export interface CommandTargetSetup {
  /** The config's folder: `cwd:` and relative programs are relative to it. */
  dir: string;
  /** evalgate's environment, which the command inherits (with `env:` on top). */
  env: Readonly<Record<string, string | undefined>>;
  issueAt(...path: (string | number)[]): Issue;
  /** The suite's grid: a program it names is looked up at each point; default none. */
  grid?: Readonly<Record<string, readonly unknown[]>>;
  /** The run's secrets, scrubbed from stdout before a JSON error quotes a cut piece of it. */
  secrets?: readonly string[];
  /** Says something about the run once (an integer past 2^53 in JSON stdout); default silent. */
  warn?: (message: string) => void;
}

const asIs = (text: string): string => text;

export function createCommandTarget(
  config: CommandTargetConfig,
  setup: CommandTargetSetup,
): Checked<Target> {
  const cwd = resolve(setup.dir, config.cwd ?? '.');
  const scrubber = createScrubber(setup.secrets ?? []);
  const scrub = scrubber.text;
  // Scrubbed before describeTarget cuts the line: a cut secret's first characters stay unknown.
  const run = typeof config.run === 'string' ? scrub(config.run) : config.run.map(scrub);
  const noteRounded = roundedIntegerNotes(
    setup.warn,
    `the JSON stdout of the target ${describeTarget({ ...config, run })}`,
  );
  const notFolder = folderProblem(cwd);
  if (notFolder !== undefined) {
    return {
      ok: false,
      issues: [
        {
          ...setup.issueAt('target', 'cwd'),
          code: 'target.cwd',
          message: `working folder ${cwd} ${notFolder}`,
        },
      ],
    };
  }
  const shell = !Array.isArray(config.run) || config.shell;
  const line = typeof config.run === 'string' ? config.run : config.run.join(' ');
  // The config check refuses these first; a target built some other way is refused here too.
  const refused = shell ? refusedShellTemplates(line)[0] : undefined;
  if (refused !== undefined) {
    return {
      ok: false,
      issues: [
        {
          ...setup.issueAt('target', 'run'),
          code: 'target.shell-template',
          message: refusedTemplateMessage(refused),
        },
      ],
    };
  }
  // A shell line's values go in environment variables it refers to, never into its text.
  const shellRun = shell ? shellLine(line) : undefined;
  const argv: TargetInput<string>[] =
    shellRun === undefined
      ? (config.run as string[]).map((arg) => textInput(arg, asIs))
      : ['/bin/sh', '-c', shellRun.text].map((arg) => ({
          render: () => ({ ok: true, value: arg }),
        }));
  // Looked up in the PATH the process gets; one a case's template gives is known per case only.
  const lookup = lookupEnv(setup.env, config.env);
  if (!config.shell && Array.isArray(config.run) && lookup !== undefined) {
    const problems = programProblems(config.run[0]!, cwd, { ...setup, env: lookup });
    if (problems.length > 0) {
      const at = setup.issueAt('target', 'run', 0);
      return {
        ok: false,
        issues: problems.map((message) => ({ ...at, code: 'target.command-not-found', message })),
      };
    }
  }
  // What each `EVALGATE_VALUE_n` of a shell line carries, to name it in an error.
  const shellTemplates = new Map(
    shell ? templateSpans(line).map(({ expression }, i) => [shellValueName(i), expression]) : [],
  );
  const env = Object.entries(config.env).map(
    ([name, value]) => [name, textInput(value, asIs)] as const,
  );
  return {
    ok: true,
    value: {
      description: describeTarget(config, scrub),
      async call(args): Promise<TargetOutput> {
        const command = renderAll(argv, args);
        if (!command.ok) return { output: null, error: command.error };
        const extra: Record<string, string> = {};
        for (const [name, value] of env) {
          const rendered = value.render(args);
          if (!rendered.ok) return { output: null, error: rendered.error };
          setOwn(extra, name, rendered.value);
        }
        if (shellRun !== undefined) {
          const values = shellRun.values.render(args);
          if (!values.ok) return { output: null, error: values.error };
          Object.assign(extra, values.value);
        }
        const nul = nulProblem(command.value, extra, shellTemplates);
        if (nul !== undefined) return { output: null, error: nul };
        const stdin = JSON.stringify({ case: args.testCase, params: args.params });
        const ran = await runProcess(command.value, {
          cwd,
          env: { ...setup.env, ...extra },
          stdin,
          signal: args.signal,
          shellTemplates,
          scrubber,
        });
        const output = outcome(ran, config, scrub);
        // What the case ran, with every outcome (a failure's too): its arguments as a shell would
        // read them (a shell line's values are in EVALGATE_VALUE_n), its stdin the case as JSON.
        // Each word is scrubbed before it is quoted: quoting splits a secret holding a `'`
        // (`'ab'\''cd'`), which no scrubber would find afterwards. Quoted or not as the word
        // itself is, so `[redacted]` alone does not quote a word.
        const sent = command.value.map((word) => sentWord(word, scrub)).join(' ');
        return {
          ...(config.output === 'json' && output.error === undefined
            ? withNote(output, noteRounded(ran.stdout))
            : output),
          sent,
        };
      },
    },
  };
}

/**
 * Why the program of an argument list cannot be run: none, or one problem per program. One
 * without templates is looked up as it will be run (a `\{{` in it read as `{{`); one the grid
 * names (`{{ params.agent }}`) is known before any case, so it is looked up at every grid point
 * (each program once, all its problems reported together); one a case names is only known per
 * case.
 */
function programProblems(program: string, cwd: string, setup: CommandTargetSetup): string[] {
  const expressions = templateExpressions(program);
  if (expressions.length === 0) {
    const problem = findProgram(literalValue(program) as string, cwd, setup.env);
    return problem === undefined ? [] : [problem];
  }
  if (!expressions.every((expression) => /^\s*params\b/.test(expression))) return [];
  const input = textInput(program, asIs);
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const params of expandGrid(setup.grid ?? {})) {
    const rendered = input.render({ testCase: {}, params });
    if (!rendered.ok || seen.has(rendered.value)) continue;
    seen.add(rendered.value);
    const from = `${rendered.value} (from ${program.trim()} at ${JSON.stringify(params)})`;
    const problem = findProgram(rendered.value, cwd, setup.env, from);
    if (problem !== undefined) problems.push(problem);
  }
  return problems;
}

/** Every input rendered, or the first that could not be. */
function renderAll(
  inputs: readonly TargetInput<string>[],
  args: Pick<FnArgs, 'testCase' | 'params'>,
): Rendered<string[]> {
  const values: string[] = [];
  for (const input of inputs) {
    const rendered = input.render(args);
    if (!rendered.ok) return rendered;
    values.push(rendered.value);
  }
  return { ok: true, value: values };
}

interface RunOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  stdin: string;
  signal: AbortSignal;
  /** What each `EVALGATE_VALUE_n` of a shell line carries, to name it in an error. */
  shellTemplates: ReadonlyMap<string, string>;
  /** The run's secrets, scrubbed from stderr before its end is cut (see StderrTail). */
  scrubber: Scrubber;
}

/**
 * Runs `argv` to its end, its group's leftovers stopped. Never rejects: a process that cannot
 * start, overflows stdout or is aborted ends with `failure` set.
 */
function runProcess(argv: readonly string[], options: RunOptions): Promise<Ran> {
  return new Promise((settle) => {
    const unstarted = (failure: string): void =>
      settle({ stdout: '', stderrTail: '', code: null, signal: null, failure });
    if (options.signal.aborted) return unstarted('stopped before it started');
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawn(argv[0]!, argv.slice(1), {
        cwd: options.cwd,
        env: options.env,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
    } catch (error) {
      // Some failures (E2BIG: a case value too long for an argument) throw instead of emitting.
      return unstarted(startProblem(error as NodeJS.ErrnoException, argv, options));
    }
    const stdout = new CappedBytes();
    const stderr = new StderrTail(options.scrubber);
    let failure: string | undefined;
    let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    let heldTimer: NodeJS.Timeout | undefined;
    const pid = child.pid;
    if (pid !== undefined) trackGroup(pid);

    // SIGTERM to the whole group, SIGKILL to what is left after the grace period.
    const stopGroup = (): void => {
      if (pid === undefined || killTimer !== undefined) return;
      if (!signalGroup(pid, 'SIGTERM')) return;
      killTimer = setTimeout(() => signalGroup(pid, 'SIGKILL'), KILL_GRACE_MS);
    };
    const onAbort = (): void => {
      failure ??= 'stopped: the case ran out of time or the run was interrupted';
      noteStderr(options.signal.reason, argv[0]!, stderr);
      stopGroup();
    };
    options.signal.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      if (!stdout.add(chunk)) {
        failure ??= `${passedCap('stdout')}; the process was stopped`;
        stopGroup();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));
    // A command that does not read its stdin closes the pipe: that is its business, not an error.
    child.stdin.on('error', () => {});
    child.stdin.end(options.stdin);

    child.on('error', (error: NodeJS.ErrnoException) => {
      // spawn failed (ENOENT, EACCES): no process, no 'close' to wait for on some versions.
      failure ??= startProblem(error, argv, options);
      finish();
    });
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      // What the command forked and left running would hold stdout open and outlive the run.
      stopGroup();
      // A process it started outside its group (setsid) is beyond stopGroup and may hold the
      // pipes open for good: once the group is surely gone, what the command wrote has been read.
      // setImmediate: after a busy stretch the timer can fire before the pipes' last data is
      // read; the check phase comes after that I/O is polled.
      heldTimer = setTimeout(
        () =>
          setImmediate(() => {
            if (done) return;
            child.stdout.destroy();
            child.stderr.destroy();
            finish();
          }),
        HELD_PIPES_MS,
      );
    });
    child.on('close', finish);

    let done = false;
    function finish(): void {
      if (done) return;
      done = true;
      options.signal.removeEventListener('abort', onAbort);
      if (pid !== undefined) {
        // Whatever is left of the group goes now; the timer is not needed after that.
        signalGroup(pid, 'SIGKILL');
        forgetGroup(pid);
      }
      if (killTimer !== undefined) clearTimeout(killTimer);
      if (heldTimer !== undefined) clearTimeout(heldTimer);
      const bytes = stdout.bytes();
      const notUtf8 = isUtf8(bytes) ? undefined : notUtf8Problem(bytes);
      settle({
        stdout: bytes.toString('utf8'),
        ...(notUtf8 !== undefined ? { notUtf8 } : {}),
        stderrTail: stderr.text(),
        code: exited?.code ?? null,
        signal: exited?.signal ?? null,
        ...(failure !== undefined ? { failure } : {}),
      });
    }
  });
}

/**
 * At a time-out, the case's error names the program that was still running (as an http target's
 * names the request it waited for) and the end of what it wrote to stderr (why it hung is
 * usually there: `retrying in 8 s…`): its complete lines, scrubbed before they are cut.
 */
function noteStderr(reason: unknown, program: string, stderr: StderrTail): void {
  if (!(reason instanceof CallTimeout)) return;
  const lines = lastLines(stderr.completeLines(), STDERR_LINES);
  reason.note(lines === '' ? `running ${program}` : `running ${program}; stderr:\n${lines}`);
}

/** A word of a case's `sent`: scrubbed, then quoted when the word as run needs quoting. */
function sentWord(word: string, scrub: (text: string) => string): string {
  const clean = scrub(word);
  return shellWord(word) === word ? clean : shellQuote(clean);
}
