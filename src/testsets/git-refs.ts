/**
 * Git refs: the commit a ref names (a local branch, else the same branch at origin, as in a
 * pull-request checkout), and why a ref did not resolve: a shallow clone, a remote-only branch,
 * a short sha, or a name git does not know.
 */
import { fail, git, notRepoOr, type GitError, type GitResult } from './git-run.ts';

const REF_NAME_HINT =
  'check the name with git branch -a / git tag; remote branches are origin/<name>';

/**
 * Full commit sha a ref (branch, tag, sha or prefix, `HEAD~2`, `origin/main`) names, looked up in
 * the repository holding the folder `repo`.
 */
export async function resolveCommit(repo: string, ref: string): Promise<GitResult<string>> {
  // A leading '-' would be read as an option; NUL and newlines cannot be passed or are no ref.
  if (ref === '' || ref.startsWith('-') || /[\0\n\r]/.test(ref)) {
    return fail('git.unknown-ref', `${unknownRefIntro(ref, repo)}: ${REF_NAME_HINT}`);
  }
  const run = await git(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  if (run.kind === 'broken') return { ok: false, error: run.error };
  const sha = run.stdout.toString('utf8').trim();
  if (run.exitCode === 0 && sha !== '') return { ok: true, value: sha };
  if (run.exitCode !== 1) {
    return { ok: false, error: notRepoOr(run, repo, `ref: ${ref} cannot be read`, `ref: ${ref}`) };
  }
  // A pull-request checkout in CI has origin/main but no local main: `ref: main` should still
  // mean the base branch there, as it does on a laptop. The artifact records the commit used.
  const remote = await git(repo, [
    'rev-parse',
    '--verify',
    '--quiet',
    `refs/remotes/origin/${ref}^{commit}`,
  ]);
  const remoteSha = remote.kind === 'broken' ? '' : remote.stdout.toString('utf8').trim();
  if (remote.kind !== 'broken' && remote.exitCode === 0 && remoteSha !== '') {
    return { ok: true, value: remoteSha };
  }
  return { ok: false, error: await unknownRef(repo, ref) };
}

function unknownRefIntro(ref: string, repo: string): string {
  return `unknown git ref ${JSON.stringify(ref)} in ${repo}`;
}

/** Why `ref` did not resolve: a shallow clone missing history, or a name git does not know. */
async function unknownRef(repo: string, ref: string): Promise<GitError> {
  const shallow = await git(repo, ['rev-parse', '--is-shallow-repository']);
  if (shallow.kind === 'exited' && shallow.stdout.toString('utf8').trim() === 'true') {
    // HEAD~2 or a sha cut off by the boundary cannot be fetched by name; a branch or tag can.
    const fetch = /[~^@:]/.test(ref) ? 'git fetch --unshallow' : `git fetch origin ${ref}`;
    return {
      code: 'git.shallow',
      message:
        `${repo} is a shallow clone and lacks ref ${JSON.stringify(ref)} (or the commits it needs): ` +
        `fetch the history: in GitHub Actions give actions/checkout \`fetch-depth: 0\`, or run \`${fetch}\` ` +
        `before evals; if the name itself may be wrong, ${REF_NAME_HINT}`,
    };
  }
  const hints = [REF_NAME_HINT];
  const remotes = await remoteBranchesNamed(repo, ref);
  if (remotes.length > 0) {
    // Typical in CI: a PR checkout has origin/main but no local main branch.
    hints.unshift(
      `there is no local ${JSON.stringify(ref)}, but there is ${remotes.join(', ')}: write ref: ${remotes[0]}`,
    );
  } else if (/^[0-9a-f]{4,39}$/i.test(ref)) {
    hints.push('a short sha must be unique and at least 4 digits: try more digits');
  }
  return { code: 'git.unknown-ref', message: `${unknownRefIntro(ref, repo)}: ${hints.join('; ')}` };
}

/** Remote-tracking branches `<remote>/<ref>`, e.g. `origin/main` for `main`. */
async function remoteBranchesNamed(repo: string, ref: string): Promise<string[]> {
  // Only plain branch names: anything else could be a glob pattern to for-each-ref.
  if (!/^[\w.][\w./-]*$/.test(ref)) return [];
  const run = await git(repo, [
    'for-each-ref',
    '--format=%(refname:short)',
    `refs/remotes/*/${ref}`,
  ]);
  if (run.kind === 'broken' || run.exitCode !== 0) return [];
  return run.stdout.toString('utf8').split('\n').filter(Boolean);
}

/**
 * Whether `commit` has a parent this clone lacks: the boundary of a shallow clone, where the
 * history git shows stops although the project's does not.
 */
export async function parentMissing(repo: string, commit: string): Promise<boolean> {
  const run = await git(repo, ['cat-file', 'commit', commit]);
  if (run.kind === 'broken' || run.exitCode !== 0) return false;
  const header = run.stdout.toString('utf8').split('\n\n')[0] ?? '';
  for (const [, parent] of header.matchAll(/^parent ([0-9a-f]+)$/gm)) {
    const has = await git(repo, ['cat-file', '-e', `${parent}^{commit}`]);
    if (has.kind === 'exited' && has.exitCode !== 0) return true;
  }
  return false;
}
