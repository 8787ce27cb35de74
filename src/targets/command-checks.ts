/**
 * What a command target checks before it runs anything: that its working folder is one, that
 * its program can be run from there (a path to an executable file, or a name on `PATH`), and,
 * case by case, that its arguments and environment can be handed to a process at all, and
 * that what it printed is UTF-8.
 */
import {
  accessSync,
  closeSync,
  constants,
  openSync,
  readdirSync,
  readSync,
  statSync,
} from 'node:fs';
import { delimiter, extname, isAbsolute, join, resolve } from 'node:path';
import { closestMatch } from '../config/did-you-mean.ts';
import { utf8Issue } from '../testsets/encoding.ts';
import { hasTemplates, literalValue } from '../shared/templates.ts';

/** Why `path` cannot be a working folder, or undefined when it is a folder. */
export function folderProblem(path: string): string | undefined {
  try {
    return statSync(path).isDirectory() ? undefined : 'is not a folder';
  } catch {
    return 'does not exist';
  }
}

/**
 * Why `program` cannot be run from `cwd`, or undefined when it can: a path must name an
 * executable file; a bare name must be on PATH (with the nearest name on PATH offered). `named`
 * is how the messages name it (with the template it came from).
 */
export function findProgram(
  program: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  named = program,
): string | undefined {
  if (program.trim() === '') return EMPTY_PROGRAM;
  if (program.includes('/')) {
    const path = isAbsolute(program) ? program : resolve(cwd, program);
    if (isExecutable(path)) {
      const interpreter = interpreterProblem(path);
      return interpreter === undefined ? undefined : `${named}: ${interpreter}`;
    }
    const fix = isFile(path) ? `: ${runWith(program)}chmod +x ${program}` : '';
    return `${named} is not an executable file (looked for ${path})${fix}`;
  }
  // As the process will look it up: a relative PATH entry is relative to its working folder.
  const dirs = (env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '')
    .map((dir) => resolve(cwd, dir));
  if (dirs.some((dir) => isExecutable(join(dir, program)))) return undefined;
  // A shell too looks a bare name up on PATH only: a script beside the config needs its `./`.
  const beside = besideHint(program, cwd);
  if (beside !== undefined) return `command ${named} is not on PATH; ${beside}`;
  const names = new Set<string>();
  for (const dir of dirs) {
    try {
      for (const name of readdirSync(dir)) names.add(name);
    } catch {
      // A PATH entry that does not exist is common and harmless.
    }
  }
  // `run: ["python3 agent.py"]`: a command line written as one item, which is one argument.
  const [first = '', ...rest] = program.trim().split(/\s+/);
  if (rest.length > 0 && findProgram(first, cwd, env) === undefined) {
    const list = `[${[first, ...rest].join(', ')}]`;
    return `command ${JSON.stringify(named)} is not on PATH: each item of run: is one argument, and this one holds a command line; write ${list}, or set shell: true to run it through /bin/sh`;
  }
  const near = closestMatch(program, names);
  return `command ${named} is not on PATH${near === undefined ? '' : ` (did you mean ${near}?)`}`;
}

/** Why an empty program cannot run. */
const EMPTY_PROGRAM =
  'the program is empty: run: starts with the program to run, such as [python3, agent.py]';

/**
 * The environment a command's program is looked up in, as spawn looks it up: evalgate's, with
 * the target's own `env: { PATH: … }` over it. Undefined when that PATH holds a template, so
 * it is known per case only.
 */
export function lookupEnv(
  env: Readonly<Record<string, string | undefined>>,
  targetEnv: Readonly<Record<string, string>>,
): Readonly<Record<string, string | undefined>> | undefined {
  if (!Object.hasOwn(targetEnv, 'PATH')) return env;
  const path = targetEnv.PATH!;
  return hasTemplates(path) ? undefined : { ...env, PATH: literalValue(path) as string };
}

/**
 * Why the system cannot run the script at `path` through the interpreter its `#!` line names,
 * or undefined: a line that ends in a carriage return (the script saved with Windows line
 * ends) names `/bin/sh\r`, which does not exist, and the system's ENOENT reads as if the script
 * itself were missing. Only an absolute interpreter is checked (`/usr/bin/env python3` finds
 * its program itself, and says so when it cannot).
 */
export function interpreterProblem(path: string): string | undefined {
  let head: string;
  try {
    const fd = openSync(path, 'r');
    try {
      const bytes = Buffer.alloc(256);
      head = bytes.subarray(0, readSync(fd, bytes, 0, bytes.length, 0)).toString('latin1');
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  if (!head.startsWith('#!')) return undefined;
  // The interpreter runs to the first blank or line feed: a carriage return stays in its name.
  const interpreter = /^#![ \t]*([^ \t\n]*)/.exec(head)?.[1] ?? '';
  if (interpreter.endsWith('\r')) {
    return `its #! line ends in a carriage return (the script has Windows line ends), so the system looks for the interpreter ${JSON.stringify(interpreter)}, which does not exist: save it with LF line ends (dos2unix, or git config core.autocrlf false and check it out again)`;
  }
  if (!interpreter.startsWith('/') || isExecutable(interpreter)) return undefined;
  return `the interpreter its #! line names, ${interpreter}, is not an executable file`;
}

/** How a script is run when it is not executable, by its extension. */
const INTERPRETERS: Readonly<Record<string, string>> = {
  '.py': 'python3',
  '.sh': 'sh',
  '.bash': 'bash',
  '.js': 'node',
  '.mjs': 'node',
  '.cjs': 'node',
  '.rb': 'ruby',
  '.pl': 'perl',
};

/** What to write instead of `program` when a file of that name is in `cwd`, else undefined. */
function besideHint(program: string, cwd: string): string | undefined {
  const path = resolve(cwd, program);
  if (isExecutable(path)) {
    return `the working folder has ${program}: write ./${program} (a program named without a / is looked up on PATH only)`;
  }
  if (!isFile(path)) return undefined;
  return `the working folder has ${program}, which is not executable: ${runWith(program)}chmod +x ${program} and write ./${program}`;
}

/** `run it with its interpreter ([python3, x.py]), or ` when the extension names one, else ''. */
function runWith(program: string): string {
  const interpreter = INTERPRETERS[extname(program).toLowerCase()];
  return interpreter === undefined
    ? ''
    : `run it with its interpreter ([${interpreter}, ${program}]), or `;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Why a case's values cannot be handed to the process, or undefined: the system's strings end
 * at NUL, so no argument or environment variable can hold one (spawn would throw, in words that
 * name its own options).
 */
export function nulProblem(
  argv: readonly string[],
  env: Readonly<Record<string, string>>,
  shellTemplates: ReadonlyMap<string, string>,
): string | undefined {
  const why = 'holds a NUL character, which no argument or environment variable can carry';
  const at = argv.findIndex((arg) => arg.includes('\0'));
  if (at >= 0) {
    return `${at === 0 ? 'the program' : `argument ${at}`} of the command (${argv[0]}) ${why}`;
  }
  const name = Object.keys(env).find((key) => env[key]!.includes('\0'));
  if (name === undefined) return undefined;
  const template = shellTemplates.get(name);
  return template === undefined
    ? `environment variable ${name} of the command (${argv[0]}) ${why}`
    : `the value of {{ ${template.trim()} }} in the command line ${why}`;
}

/** Longest argument or `NAME=value` Linux hands to a program (MAX_ARG_STRLEN, NUL included). */
const LONGEST_ARG_BYTES = 128 * 1024;

/**
 * Why spawn could not start `argv`, in words: `not found` for ENOENT, and for E2BIG (Node's own
 * `spawn E2BIG` names nothing) which value is too long, since that is the case's text, which
 * the stdin JSON carries whatever its length.
 */
export function startProblem(
  error: NodeJS.ErrnoException,
  argv: readonly string[],
  process: {
    cwd: string;
    env: Readonly<Record<string, string | undefined>>;
    shellTemplates: ReadonlyMap<string, string>;
  },
): string {
  const { cwd, env, shellTemplates } = process;
  // spawn's own words name its parameter: `The argument 'file' cannot be empty`.
  if (argv[0]!.trim() === '') return `cannot start the command: ${EMPTY_PROGRAM}`;
  const start = `cannot start ${argv[0]}`;
  if (error.code === 'ENOENT') {
    // A script that is there whose `#!` names an interpreter that is not (a CRLF line end).
    const script = argv[0]!.includes('/') ? resolve(cwd, argv[0]!) : undefined;
    const interpreter = script === undefined ? undefined : interpreterProblem(script);
    // Not found at load (where a program on no PATH is refused), so named by a template here.
    const missing =
      script === undefined
        ? `not found: no program of that name is on PATH (${pathFolders(env, cwd)})`
        : `not found: there is no file ${script}`;
    return `${start}: ${interpreter ?? missing}`;
  }
  if (error.code !== 'E2BIG') return `${start}: ${error.message}`;
  let longest = { name: '', bytes: -1 };
  argv.forEach((arg, at) => {
    const bytes = Buffer.byteLength(arg) + 1;
    if (bytes > longest.bytes)
      longest = { name: at === 0 ? 'the program' : `argument ${at}`, bytes };
  });
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const bytes = Buffer.byteLength(`${name}=${value}`) + 1;
    if (bytes <= longest.bytes) continue;
    const template = shellTemplates.get(name);
    const named =
      template === undefined
        ? `environment variable ${name}`
        : `the value of {{ ${template.trim()} }} in the command line`;
    longest = { name: named, bytes };
  }
  const size = `${longest.bytes.toLocaleString('en-US')} bytes`;
  const which =
    longest.bytes > LONGEST_ARG_BYTES
      ? `${longest.name} holds ${size}, past the ${LONGEST_ARG_BYTES.toLocaleString('en-US')} the system takes in one argument or variable`
      : `together they pass the system's limit (getconf ARG_MAX); the longest, ${longest.name}, holds ${size}`;
  return `${start}: its arguments and environment are too long (E2BIG): ${which}; read long values from stdin instead, where the case is as JSON ({"case": …, "params": …})`;
}

/**
 * Why a command's stdout is not UTF-8: decoded anyway, its bad bytes would become U+FFFD and the
 * case would be scored on text the program never wrote.
 */
export function notUtf8Problem(bytes: Uint8Array): string {
  const issue = utf8Issue(bytes, 'stdout');
  const where =
    issue !== undefined && issue.line > 0 ? ` at line ${issue.line}, column ${issue.col}` : '';
  return `stdout is not valid UTF-8${where} (the output shows U+FFFD for the bad bytes): make the program write UTF-8`;
}

/**
 * Where a bare program name was looked for: how many folders PATH has (or that it is empty or
 * not set), and, when some of them are relative, the working folder they are read from. Not the
 * folders, nor the working folder when no entry needs it: the message is a case error, recorded
 * in the artifact, the PR comment and the JUnit file, and the user's paths (home folders, tool
 * versions) are no part of those; `which NAME` where the command runs shows them.
 */
function pathFolders(env: Readonly<Record<string, string | undefined>>, cwd: string): string {
  const path = env.PATH ?? env.Path;
  if (path === undefined) return 'PATH is not set';
  const folders = path.split(delimiter).filter((folder) => folder !== '');
  if (folders.length === 0) return 'PATH is empty';
  const counted = folders.length === 1 ? '1 folder' : `${folders.length} folders`;
  const relative = folders.some((folder) => !isAbsolute(folder));
  return relative
    ? `none of its ${counted}, the relative ones read from the working folder ${cwd}, has it`
    : `none of its ${counted} has it`;
}
