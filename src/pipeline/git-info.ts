import { readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/**
 * The commit and branch a run scored, for the artifact. On GitHub Actions `GITHUB_SHA` and its
 * ref name the commit (in a PR the checkout is a detached merge commit, which `GITHUB_HEAD_REF`
 * names better), unless the job checked out another commit of the workflow's repository: a
 * `workflow_dispatch` or `issue_comment` job that checked out a pull request ran that code, and
 * its results must say so, or they would pass for the dispatched branch's own (`baseline: auto`
 * takes only results whose commit is their run's). A config kept in another repository's
 * checkout (its `origin` is not `GITHUB_REPOSITORY`) still gets `GITHUB_SHA`, the commit of the
 * run. `.git` is read directly: spawning `git` costs ~20 ms of main-thread time, a tenth of a
 * small suite's cold start. Never fails: `null` when unknown.
 */
export async function readGitInfo(
  dir: string,
  env: Record<string, string | undefined>,
): Promise<{ sha: string | null; ref: string | null } | null> {
  const checkedOut = await readCheckout(dir);
  if (env.GITHUB_SHA) {
    const sha = checkedOut?.sha ?? null;
    const other =
      checkedOut !== null &&
      sha !== null &&
      sha.toLowerCase() !== env.GITHUB_SHA.toLowerCase() &&
      checkedOut.repository !== false &&
      (checkedOut.repository === null || sameRepository(checkedOut.repository, env));
    if (other) return { sha, ref: checkedOut.ref };
    return { sha: env.GITHUB_SHA, ref: env.GITHUB_HEAD_REF || env.GITHUB_REF || null };
  }
  return checkedOut === null ? null : { sha: checkedOut.sha, ref: checkedOut.ref };
}

/** HEAD of a work tree, its branch, and the URL of its `origin` (null: none; false: unreadable). */
interface Checkout {
  sha: string | null;
  ref: string | null;
  repository: string | null | false;
}

/** HEAD of the git work tree holding `dir`, and its branch; null outside one or when unreadable. */
async function readCheckout(dir: string): Promise<Checkout | null> {
  try {
    const gitDir = await findGitDir(resolve(dir));
    if (gitDir === null) return null;
    const commonDir = await readCommonDir(gitDir);
    const repository = await originUrl(commonDir);
    const head = (await readFile(join(gitDir, 'HEAD'), 'utf8')).trim();
    if (!head.startsWith('ref: ')) return { sha: isSha(head) ? head : null, ref: null, repository };
    const ref = head.slice('ref: '.length);
    const sha = await resolveRef(commonDir, gitDir, ref);
    return { sha, ref: ref.replace(/^refs\/heads\//, ''), repository };
  } catch {
    return null;
  }
}

/** The `url` of `[remote "origin"]` in the repository's config; null when there is none. */
async function originUrl(commonDir: string): Promise<string | null | false> {
  const text = await readFile(join(commonDir, 'config'), 'utf8').catch(() => null);
  if (text === null) return false;
  const section = /^\s*\[remote "origin"\]\s*$([\s\S]*?)(?=^\s*\[|(?![\s\S]))/m.exec(text)?.[1];
  const url = section === undefined ? undefined : /^\s*url\s*=\s*(.+?)\s*$/m.exec(section)?.[1];
  return url ?? null;
}

/**
 * Whether `url` (`https://github.com/o/r`, `git@github.com:o/r.git`, a GitHub Enterprise
 * Server's) is the repository `GITHUB_REPOSITORY` names; true when that is not set.
 */
function sameRepository(url: string, env: Record<string, string | undefined>): boolean {
  const named = env.GITHUB_REPOSITORY?.toLowerCase();
  if (!named) return true;
  const path = url
    .replace(/\.git\/?$/i, '')
    .replace(/\/+$/, '')
    .toLowerCase();
  return path.endsWith(`/${named}`) || path.endsWith(`:${named}`);
}

/** The `.git` folder above `dir`, following a `.git` file (`gitdir: …`) of worktrees and submodules. */
async function findGitDir(dir: string): Promise<string | null> {
  for (let current = dir; ; current = dirname(current)) {
    const candidate = join(current, '.git');
    const info = await stat(candidate).catch(() => null);
    if (info?.isDirectory()) return candidate;
    if (info?.isFile()) {
      const text = await readFile(candidate, 'utf8');
      const match = /^gitdir:\s*(.+)$/m.exec(text);
      return match?.[1] ? resolve(current, match[1].trim()) : null;
    }
    if (dirname(current) === current) return null;
  }
}

/** Worktrees keep shared refs in the folder named by their `commondir` file. */
async function readCommonDir(gitDir: string): Promise<string> {
  const text = await readFile(join(gitDir, 'commondir'), 'utf8').catch(() => null);
  return text === null ? gitDir : resolve(gitDir, text.trim());
}

async function resolveRef(commonDir: string, gitDir: string, ref: string): Promise<string | null> {
  for (const base of [gitDir, commonDir]) {
    const loose = await readFile(join(base, ref), 'utf8').catch(() => null);
    if (loose !== null && isSha(loose.trim())) return loose.trim();
  }
  const packed = await readFile(join(commonDir, 'packed-refs'), 'utf8').catch(() => '');
  for (const line of packed.split('\n')) {
    const [sha, name] = line.split(' ');
    if (name === ref && sha !== undefined && isSha(sha)) return sha;
  }
  return null; // a branch with no commits yet
}

function isSha(text: string): boolean {
  return /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(text);
}
