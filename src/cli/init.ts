import { existsSync, lstatSync, rmSync, statSync } from 'node:fs';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { usageError } from '../shared/errors.ts';
import type { CommandContext } from '../pipeline/context.ts';
import { checkOutputFolder } from '../pipeline/output-paths.ts';
import { EXIT_UNWRITTEN, unwrittenFile } from '../pipeline/write-failure.ts';
import { kindOf } from '../shared/regular-file.ts';
import { closestMatch } from '../config/did-you-mean.ts';
import { pathWord } from '../shared/shell-word.ts';
import { DEFAULT_RESULTS, REPORT_FILE } from '../shared/report-path.ts';
import { STARTERS, type StarterName } from './init-templates.ts';

/** What a run writes and no one commits: the results, the HTML report and the model cache. */
export const GITIGNORED = [DEFAULT_RESULTS, REPORT_FILE, '.evalgate/'];

/**
 * Adds the lines of {@link GITIGNORED} that `dir/.gitignore` lacks (creating the file if need
 * be); returns the lines added. They end as the file's lines do: a `.gitignore` written on
 * Windows keeps its CRLF line endings, not a mix.
 */
async function ignoreOutputs(dir: string): Promise<string[]> {
  const path = join(dir, '.gitignore');
  let text = '';
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const present = new Set(text.split(/\r?\n/).map((line) => line.trim()));
  const missing = GITIGNORED.filter((line) => !present.has(line) && !present.has(`/${line}`));
  if (missing.length === 0) return [];
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const separator = text === '' || text.endsWith('\n') ? '' : eol;
  const lines = ['# evalgate outputs', ...missing];
  await appendFile(path, `${separator}${lines.join(eol)}${eol}`);
  return missing;
}

/**
 * Whether `dir` is in a CommonJS package: the nearest package.json above it has no
 * `"type": "module"`. Without one, or with one that cannot be read, Node's own default for a
 * `.ts` file outside any package is not a package's choice: false.
 */
async function inCommonJsPackage(dir: string): Promise<boolean> {
  for (let current = dir; ; current = dirname(current)) {
    const text = await readFile(join(current, 'package.json'), 'utf8').catch(() => null);
    if (text !== null) {
      try {
        const type = (JSON.parse(text) as { type?: unknown } | null)?.type;
        return type !== 'module';
      } catch {
        return false;
      }
    }
    if (dirname(current) === current) return false;
  }
}

/** Where a starter's evals.yaml points its editor for the schema, written beside it. */
const SCHEMA_HINT = './node_modules/evalgate/schemas/evals.schema.json';

/**
 * The starter's files with the schema line of its evals.yaml pointing where evalgate is seen
 * from `dir`: the nearest node_modules up the tree that has it, as Node would find it (a
 * workspace installs it once, at its root). Beside the config when none has it yet: that is
 * where `npm i -D evalgate` in a plain project puts it.
 */
function withSchemaHint(files: Record<string, string>, dir: string): Record<string, string> {
  const config = files['evals.yaml'];
  if (config === undefined) return files;
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, SCHEMA_HINT))) {
      if (at === dir) return files;
      const path = relative(dir, join(at, SCHEMA_HINT)).split(sep).join('/');
      return { ...files, 'evals.yaml': config.replace(SCHEMA_HINT, path) };
    }
    if (dirname(at) === at) return files;
  }
}

function lstatOf(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/**
 * What in `dir` stands where the starter needs a folder (a file named `testsets`, where
 * `testsets/questions.csv` goes) or its `.gitignore` (a folder or a FIFO of that name): refused with the
 * files it would not overwrite, before anything is written, rather than failing half-way.
 */
function blockedPaths(dir: string, names: readonly string[]): string[] {
  const folders = new Set(
    names.flatMap((name) => {
      const parts = name.split('/').slice(0, -1);
      return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    }),
  );
  const blocked = [...folders].filter((folder) => {
    const found = lstatOf(join(dir, folder));
    if (found === undefined || found.isDirectory()) return false;
    // A link to a folder is a folder to write into.
    return !(found.isSymbolicLink() && isFolder(join(dir, folder)));
  });
  const shown = blocked.map(
    (folder) => `${folder} (not a folder, where evals init writes ${folder}/)`,
  );
  // Followed through a link: what matters is what appending to it would reach. A FIFO would
  // wait for a reader that never comes.
  const ignore = statOf(join(dir, '.gitignore'));
  if (ignore !== undefined && !ignore.isFile()) {
    const what = ignore.isDirectory() ? 'a folder' : kindOf(ignore);
    shown.push(`.gitignore (${what}, where evals init adds to the file .gitignore)`);
  }
  return shown;
}

function statOf(path: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function isFolder(path: string): boolean {
  return statOf(path)?.isDirectory() === true;
}

/** `evals init [dir] [--template NAME]`: writes a starter project, never overwriting a file. */
export async function initCommand(
  dirArg: string | undefined,
  template: string,
  ctx: CommandContext,
): Promise<number> {
  if (!Object.hasOwn(STARTERS, template)) {
    const near = closestMatch(template, Object.keys(STARTERS));
    throw usageError(
      'init.template',
      `--template ${template} is not a starter: expected one of ${Object.keys(STARTERS).join(', ')}${near === undefined ? '' : ` (did you mean ${near}?)`}`,
    );
  }
  const starter = STARTERS[template as StarterName];
  const dir = resolve(ctx.cwd, dirArg ?? '.');
  checkOutputFolder('evals init', dirArg ?? '.', ctx.cwd, 'so no file was written');
  const { next } = starter;
  const FILES = withSchemaHint(
    starter.commonJsFiles && (await inCommonJsPackage(dir)) ? starter.commonJsFiles : starter.files,
    dir,
  );
  // A symbolic link that leads nowhere is a file there too: `wx` would refuse to write through it.
  const clashes = Object.keys(FILES).filter((name) => lstatOf(join(dir, name)) !== undefined);
  // `evals run` reads an `evals.yaml` before an `evals.yml`: a new one would shadow the user's.
  const shadowed = !clashes.includes('evals.yaml') && existsSync(join(dir, 'evals.yml'));
  if ('evals.yaml' in FILES && shadowed) {
    clashes.push('evals.yml (evals run would read the evals.yaml written beside it instead)');
  }
  clashes.push(...blockedPaths(dir, Object.keys(FILES)));
  if (clashes.length > 0) {
    throw usageError(
      'init.exists',
      `evals init writes into a folder without these files, but ${dir} already has: ${clashes.join(', ')}`,
    );
  }
  const written: string[] = [];
  let ignored: string[];
  let writing = '';
  try {
    for (const [name, text] of Object.entries(FILES)) {
      writing = name;
      const path = join(dir, name);
      const made = await mkdir(dirname(path), { recursive: true });
      if (made !== undefined) written.push(made);
      await writeFile(path, text, { flag: 'wx' });
      written.push(path);
    }
    writing = '.gitignore';
    ignored = await ignoreOutputs(dir);
  } catch (error) {
    // Half a starter would make the next `evals init` refuse the files this one left: take
    // back what it wrote (files it created with `wx`, folders it made), newest first.
    for (const path of written.reverse()) rmSync(path, { recursive: true, force: true });
    const line = unwrittenFile(
      relative(ctx.cwd, join(dir, writing)) || writing,
      error,
      'the files evals init had written are removed again, so nothing was written',
    );
    if (line === undefined) throw error;
    ctx.stderr.write(`error: ${line}\n`);
    return EXIT_UNWRITTEN;
  }
  const where = relative(ctx.cwd, dir) || '.';
  const gitignore = ignored.length === 0 ? '' : `Added to .gitignore: ${ignored.join(', ')}\n`;
  // The commands run in the project's folder: `evals run` writes evals-results.json where it
  // runs, and only there is it covered by the .gitignore written above.
  const steps = [
    // `cd -x` would be an option of cd: a folder named `-x` is `./-x`.
    ...(where === '.' ? [] : [`cd ${pathWord(where)}`]),
    'npm i -D evalgate   # if it is not installed yet',
    ...next,
    'npx evals run',
  ];
  ctx.stdout.write(
    `Created ${Object.keys(FILES).length} files in ${where}:\n${Object.keys(FILES)
      .map((f) => `  ${f}\n`)
      .join('')}${gitignore}\nNext:\n${steps.map((line) => `  ${line}\n`).join('')}`,
  );
  return 0;
}
