/**
 * What a command target checks before it runs anything: that its working folder is one, that
 * its program can be run from there (a path to an executable file, or a name on `PATH`), and,
 * case by case, that its arguments and environment can be handed to a process at all.
 */
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { delimiter, extname, isAbsolute, join, resolve } from 'node:path';
import { closestMatch } from '../config/did-you-mean.ts';

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
  if (program.includes('/')) {
    const path = isAbsolute(program) ? program : resolve(cwd, program);
    if (isExecutable(path)) return undefined;
    const fix = isFile(path) ? `: ${runWith(program)}chmod +x ${program}` : '';
    return `${named} is not an executable file (looked for ${path})${fix}`;
  }
  const dirs = (env.PATH ?? '').split(delimiter).filter((dir) => dir !== '');
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
  const near = closestMatch(program, names);
  return `command ${named} is not on PATH${near === undefined ? '' : ` (did you mean ${near}?)`}`;
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
