import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { usageError } from '../shared/errors.ts';
import type { CommandContext } from '../pipeline/context.ts';
import { checkOutputFolder } from '../pipeline/output-paths.ts';
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
  const clashes = Object.keys(FILES).filter((name) => existsSync(join(dir, name)));
  // `evals run` reads an `evals.yaml` before an `evals.yml`: a new one would shadow the user's.
  const shadowed = !clashes.includes('evals.yaml') && existsSync(join(dir, 'evals.yml'));
  if ('evals.yaml' in FILES && shadowed) {
    clashes.push('evals.yml (evals run would read the evals.yaml written beside it instead)');
  }
  if (clashes.length > 0) {
    throw usageError(
      'init.exists',
      `evals init writes into a folder without these files, but ${dir} already has: ${clashes.join(', ')}`,
    );
  }
  for (const [name, text] of Object.entries(FILES)) {
    const path = join(dir, name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text, { flag: 'wx' });
  }
  const ignored = await ignoreOutputs(dir);
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
