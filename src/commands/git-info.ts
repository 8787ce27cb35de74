import { execFile } from 'node:child_process';

/**
 * The commit and branch a run scored, for the artifact. GitHub's variables win (in a PR the
 * checkout is a detached merge commit); otherwise git is asked. Never fails: `null` when unknown.
 */
export async function readGitInfo(
  dir: string,
  env: Record<string, string | undefined>,
): Promise<{ sha: string | null; ref: string | null } | null> {
  if (env.GITHUB_SHA)
    return { sha: env.GITHUB_SHA, ref: env.GITHUB_HEAD_REF || env.GITHUB_REF || null };
  const [sha, ref] = await Promise.all([
    git(dir, ['rev-parse', 'HEAD']),
    git(dir, ['rev-parse', '--abbrev-ref', 'HEAD']),
  ]);
  if (sha === null) return null;
  return { sha, ref: ref === 'HEAD' ? null : ref };
}

function git(dir: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd: dir, timeout: 5000 }, (error, stdout) => {
      resolve(error ? null : stdout.trim() || null);
    });
  });
}
