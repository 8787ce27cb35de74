/**
 * Which config a command reads: the file the user named, the `evals.yaml` / `evals.yml` of a
 * folder named, else of the current folder; and why none can be read when it cannot (no such
 * file, the other extension, a symbolic link that leads nowhere).
 */
import { existsSync, lstatSync, readlinkSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { usageError } from '../shared/errors.ts';
import type { CommandContext } from './context.ts';

const DEFAULT_CONFIGS = ['evals.yaml', 'evals.yml'];

/**
 * The config the user named (in a folder named, its `evals.yaml` / `evals.yml`), else one of
 * those in the current folder. A missing `x.yml` whose `x.yaml` exists (or the reverse) is
 * refused with the name that exists, and a symbolic link whose target does not exist is refused
 * naming the target.
 */
export function resolveConfigArg(arg: string | undefined, ctx: CommandContext): string {
  if (arg !== undefined) return namedConfig(arg, ctx);
  const found = DEFAULT_CONFIGS.find((name) => existsSync(resolve(ctx.cwd, name)));
  if (found) return found;
  const link = linkInstead(ctx.cwd);
  if (link !== undefined) return namedConfig(link, ctx);
  throw usageError(
    'config.not-found',
    `no config given and no ${DEFAULT_CONFIGS.join(' or ')} in ${ctx.cwd} (run \`evals init\` to create one)`,
  );
}

function namedConfig(arg: string, ctx: CommandContext): string {
  const path = resolve(ctx.cwd, arg);
  if (isFolder(path)) {
    const found = DEFAULT_CONFIGS.find((name) => existsSync(join(path, name)));
    if (found !== undefined) return join(arg, found);
    const link = linkInstead(path);
    if (link !== undefined) return namedConfig(join(arg, link), ctx);
    throw usageError(
      'config.not-found',
      `${arg} is a folder with no ${DEFAULT_CONFIGS.join(' or ')} in it (name the config file, or run \`evals init ${arg}\` to create one)`,
    );
  }
  if (existsSync(path)) return arg;
  const target = missingLinkTarget(path);
  if (target !== undefined) {
    throw usageError(
      'config.broken-link',
      `${arg} is a symbolic link to ${target}, which does not exist: point the link at the config file, or replace it with one`,
    );
  }
  const other = arg.endsWith('.yml')
    ? `${arg.slice(0, -'.yml'.length)}.yaml`
    : arg.endsWith('.yaml')
      ? `${arg.slice(0, -'.yaml'.length)}.yml`
      : undefined;
  if (other !== undefined && existsSync(resolve(ctx.cwd, other))) {
    throw usageError('config.not-found', `${arg}: no such file; did you mean ${other}?`);
  }
  return arg;
}

/**
 * A default config name in `folder` that is a symbolic link which cannot be followed, when no
 * default config can be read: it is the config meant, and reading it says why it cannot be (a
 * target that does not exist, a loop of links), where "no evals.yaml" would hide it. A working
 * `evals.yml` still wins over a broken `evals.yaml` link.
 */
function linkInstead(folder: string): string | undefined {
  return DEFAULT_CONFIGS.find((name) => {
    try {
      return lstatSync(join(folder, name)).isSymbolicLink();
    } catch {
      return false;
    }
  });
}

/**
 * The target of the symbolic link `path` when that target does not exist, as the link names it
 * and, when relative, where that is (`../shared/evals.yaml (/work/shared/evals.yaml)`); else
 * undefined (no link, or one that fails otherwise, such as a loop, which reading the file names).
 */
function missingLinkTarget(path: string): string | undefined {
  let target: string;
  try {
    if (!lstatSync(path).isSymbolicLink()) return undefined;
    target = readlinkSync(path);
  } catch {
    return undefined;
  }
  if (followError(path) !== 'ENOENT') return undefined;
  const leadsTo = resolve(dirname(path), target);
  return leadsTo === target ? target : `${target} (${leadsTo})`;
}

/** Why following `path` fails (`ENOENT`, `ELOOP`); undefined when it leads to something. */
function followError(path: string): string | undefined {
  try {
    statSync(path);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code;
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
