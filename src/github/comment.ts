/**
 * The sticky PR comment: one comment per marker, found again on the next run and edited in
 * place, so a pull request gets one evalgate comment per report (config, job, matrix leg)
 * however often it is pushed.
 */
import { httpStatus, toReportingFailure } from './errors.ts';
import type { ReportingFailure } from './errors.ts';
import type { Octokit } from './octokit.ts';

/** The pull request (or issue) to comment on. */
export interface CommentTarget {
  owner: string;
  repo: string;
  issueNumber: number;
}

/** What {@link upsertStickyComment} did, or why it could not. */
export type StickyCommentResult =
  | { ok: true; url: string; action: 'created' | 'updated' }
  | { ok: false; failure: ReportingFailure };

/** Creating or editing an issue comment on a pull request needs this workflow permission. */
const PERMISSION = 'pull-requests: write';

/**
 * Whose comments may be ours: the token's own user when GET /user names it (a personal access
 * token, a user's OAuth token), else any bot. Installation tokens (a workflow's GITHUB_TOKEN,
 * a GitHub App's) get 403 from GET /user and from GET /app, and write as `<app-slug>[bot]`,
 * whose slug they cannot learn: `github-actions[bot]` for GITHUB_TOKEN, another for each app.
 */
type Author = { kind: 'user'; login: string } | { kind: 'any-bot' };

/**
 * Creates the comment whose first line is `marker`, or updates the newest such comment this
 * token wrote before.
 *
 * A comment counts only when its first line is exactly the marker: the first line of a body
 * we post is always the marker, never user text, so a marker quoted in a case output (further
 * down, and escaped or indented by the renderers anyway) or in someone's reply can neither make
 * another job's run overwrite this comment nor this run overwrite another's. Its author must be
 * the token's user, or a bot when the token cannot say who it is (see {@link Author}); a human's
 * comment is never edited. When editing a bot's comment is refused (another app's), the next
 * older candidate is tried, and a new comment written when none is left. `body` gets the marker
 * line prepended when it does not start with it. Keeping `body` under GitHub's 65,536
 * characters is the caller's job.
 *
 * @param marker one line unlikely to appear by chance, e.g. `<!-- evalgate-report config="evals.yaml" job="test" -->`.
 */
export async function upsertStickyComment(
  octokit: Octokit,
  target: CommentTarget,
  marker: string,
  body: string,
): Promise<StickyCommentResult> {
  // An empty marker would match every comment we ever wrote: a bug in the caller.
  if (marker.trim() === '' || /[\r\n]/.test(marker)) {
    throw new Error('upsertStickyComment: the marker must be one non-empty line');
  }
  const text = firstLine(body) === marker ? body : `${marker}\n${body}`;
  const { owner, repo, issueNumber } = target;

  const self = await tokenAuthor(octokit);
  if ('failure' in self) return { ok: false, failure: self.failure };

  let comments: Awaited<ReturnType<Octokit['rest']['issues']['listComments']>>['data'];
  try {
    comments = await octokit.paginate(octokit.rest.issues.listComments, {
      owner,
      repo,
      issue_number: issueNumber,
      per_page: 100,
    });
  } catch (error) {
    return {
      ok: false,
      failure: toReportingFailure(error, 'list the PR comments', 'pull-requests: read'),
    };
  }

  // Newest first by id rather than by list position: ids only grow, list order is GitHub's choice.
  const candidates = comments
    .filter(
      (comment) => firstLine(comment.body ?? '') === marker && wroteIt(self.author, comment.user),
    )
    .sort((a, b) => b.id - a.id);
  for (const candidate of candidates) {
    try {
      const { data } = await octokit.rest.issues.updateComment({
        owner,
        repo,
        comment_id: candidate.id,
        body: text,
      });
      return { ok: true, url: data.html_url, action: 'updated' };
    } catch (error) {
      const failure = toReportingFailure(error, 'update the PR comment', PERMISSION);
      // Refused on a bot's comment we only took for ours: another app wrote it, so try the next
      // (ours may be older). Deleted between listing and editing: writing a new one is what the
      // user wants.
      const notOurs = self.author.kind === 'any-bot' && failure.code === 'github.forbidden';
      if (notOurs) continue;
      if (httpStatus(error) !== 404) return { ok: false, failure };
      break;
    }
  }

  try {
    const { data } = await octokit.rest.issues.createComment({
      owner,
      repo,
      issue_number: issueNumber,
      body: text,
    });
    return { ok: true, url: data.html_url, action: 'created' };
  } catch (error) {
    return { ok: false, failure: toReportingFailure(error, 'create the PR comment', PERMISSION) };
  }
}

/** The comment's first line, without a carriage return GitHub may have stored with it. */
function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return (end === -1 ? text : text.slice(0, end)).replace(/\r$/, '');
}

function wroteIt(
  author: Author,
  user: { login: string; type: string } | null | undefined,
): boolean {
  if (!user) return false;
  return author.kind === 'user' ? user.login === author.login : user.type === 'Bot';
}

/** Whose comments may be ours: GET /user, or any bot when an installation token is refused it. */
async function tokenAuthor(
  octokit: Octokit,
): Promise<{ author: Author } | { failure: ReportingFailure }> {
  try {
    const { data } = await octokit.rest.users.getAuthenticated();
    return { author: { kind: 'user', login: data.login } };
  } catch (error) {
    const status = httpStatus(error);
    if (status === 403 || status === 404) return { author: { kind: 'any-bot' } };
    return {
      failure: toReportingFailure(error, 'find out which user the token writes as (GET /user)'),
    };
  }
}
