/**
 * Git trees: what is at a path in a commit (`ls-tree`), and, when nothing is, a hint at what the
 * user meant, found by walking the path at that commit.
 */
import { exitError, git, type GitError, type GitResult } from './git-run.ts';

/** The tree-entry mode of a committed symlink. */
export const SYMLINK_MODE = '120000';

/** One entry of a git tree, as `ls-tree` prints it. */
export interface TreeEntry {
  mode: string;
  /** `blob`, `tree` or `commit` (a submodule). */
  type: string;
  /** The object's sha. */
  object: string;
  name: string;
}

/** The first 12 digits of a sha, as messages show a commit. */
export function shortSha(sha: string): string {
  return sha.slice(0, 12);
}

/** The tree entry at `path` in commit `sha`, or null when nothing is there. */
export async function treeEntry(
  repo: string,
  sha: string,
  path: string,
): Promise<GitResult<TreeEntry | null>> {
  const run = await git(repo, ['ls-tree', '-z', sha, '--', path]);
  if (run.kind === 'broken') return { ok: false, error: run.error };
  if (run.exitCode !== 0) return { ok: false, error: exitError(run, repo, path) };
  // ls-tree matches by prefix in places; only the exact name counts.
  return { ok: true, value: parseTree(run.stdout).find((e) => e.name === path) ?? null };
}

/** The entries of folder `dir` ('' for the top) in commit `sha`; null when it is no folder. */
async function listFolder(repo: string, sha: string, dir: string): Promise<TreeEntry[] | null> {
  const run = await git(repo, ['ls-tree', '-z', dir === '' ? sha : `${sha}:${dir}`]);
  if (run.kind === 'broken' || run.exitCode !== 0) return null;
  return parseTree(run.stdout);
}

function parseTree(stdout: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const record of stdout.toString('utf8').split('\0')) {
    const match = /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(record);
    if (match?.[1] && match[2] && match[3] && match[4] !== undefined) {
      entries.push({ mode: match[1], type: match[2], object: match[3], name: match[4] });
    }
  }
  return entries;
}

/**
 * The path-absent error, with a hint found by walking the path at the ref: the same file under
 * another case (git is case-sensitive even where the disk is not), the files of the folder when
 * the folder exists, or the first folder that does not.
 */
export async function pathAbsent(
  repo: string,
  sha: string,
  ref: string,
  path: string,
  asked: string,
): Promise<GitError> {
  const parts = path.split('/');
  const name = parts.pop() ?? path;
  let hint = '';
  let folder = '';
  let found = true;
  for (const part of parts) {
    const entries = (await listFolder(repo, sha, folder)) ?? [];
    const trees = entries.filter((e) => e.type === 'tree');
    const match =
      trees.find((e) => e.name === part) ??
      trees.find((e) => e.name.toLowerCase() === part.toLowerCase());
    if (match === undefined) {
      hint = `the folder ${folder === '' ? part : `${folder}/${part}`} does not exist there either`;
      found = false;
      break;
    }
    folder = folder === '' ? match.name : `${folder}/${match.name}`;
  }
  if (found) {
    const entries = ((await listFolder(repo, sha, folder)) ?? []).filter((e) => e.type !== 'tree');
    const sameName = entries.find((e) => e.name.toLowerCase() === name.toLowerCase());
    const where = folder === '' ? '' : `${folder}/`;
    if (sameName !== undefined) {
      hint = `it exists there as ${where}${sameName.name} (git paths are case-sensitive, so fix the case in path:)`;
    } else if (where !== '') {
      const shown = entries.slice(0, 5).map((e) => e.name);
      const more = entries.length > shown.length ? ', …' : '';
      hint =
        entries.length === 0
          ? `the folder ${folder} exists there but holds no files`
          : `the folder ${folder} exists there, with ${shown.join(', ')}${more}`;
    }
  }
  const redirected = path === asked ? '' : ` (the symlink ${asked} points there)`;
  return {
    code: 'git.path-absent',
    message:
      `${path}${redirected} does not exist at ref ${JSON.stringify(ref)} (commit ${shortSha(sha)})` +
      `${hint === '' ? '' : `: ${hint}`}; if it was added later, moved or renamed, ` +
      `run git log --follow -- ${asked} at the repository root (${repo}) to see where it went`,
  };
}
