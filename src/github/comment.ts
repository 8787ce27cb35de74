/**
 * The sticky PR comment: one comment per marker, found again on the next run and edited in
 * place, so a pull request gets one evalgate comment per config and job however often it is
 * pushed.
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

/** Who writes with a workflow's GITHUB_TOKEN, which cannot ask GET /user itself. */
export const ACTIONS_BOT_LOGIN = 'github-actions[bot]';

/** Creating or editing an issue comment on a pull request needs this workflow permission. */
const PERMISSION = 'pull-requests: write';

interface Author {
  login: string;
  type: string;
}

/**
 * Creates the comment holding `marker`, or updates the newest one this token wrote before.
 *
 * Only comments written by the token's own user count: GET /user names it (a PAT or a user
 * token); when GET /user is refused with 403/404, as it is for a GITHUB_TOKEN, the author must
 * be `github-actions[bot]`. A comment by anyone else is never edited even when it contains the
 * marker (someone quoting our comment). `body` gets the marker prepended when it lacks it, or
 * the next run could not find the comment again. Keeping `body` under GitHub's 65,536
 * characters is the caller's job.
 *
 * @param marker a string unlikely to appear by chance, e.g. `<!-- evalgate:evals.yaml:test -->`.
 */
export async function upsertStickyComment(
  octokit: Octokit,
  target: CommentTarget,
  marker: string,
  body: string,
): Promise<StickyCommentResult> {
  // An empty marker would match every comment we ever wrote: a bug in the caller.
  if (marker.trim() === '') throw new Error('upsertStickyComment: the marker must not be empty');
  const text = body.includes(marker) ? body : `${marker}\n${body}`;
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

  let newest: (typeof comments)[number] | undefined;
  for (const comment of comments) {
    const ours =
      comment.body?.includes(marker) === true &&
      comment.user?.login === self.author.login &&
      comment.user.type === self.author.type;
    // Newest by id rather than by list position: ids only grow, list order is GitHub's choice.
    if (ours && (newest === undefined || comment.id > newest.id)) newest = comment;
  }

  if (newest !== undefined) {
    try {
      const { data } = await octokit.rest.issues.updateComment({
        owner,
        repo,
        comment_id: newest.id,
        body: text,
      });
      return { ok: true, url: data.html_url, action: 'updated' };
    } catch (error) {
      // Deleted between listing and editing: writing a new one is what the user wants.
      if (httpStatus(error) !== 404) {
        return {
          ok: false,
          failure: toReportingFailure(error, 'update the PR comment', PERMISSION),
        };
      }
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

/** The user the token writes as: GET /user, or the Actions bot when GET /user is refused. */
async function tokenAuthor(
  octokit: Octokit,
): Promise<{ author: Author } | { failure: ReportingFailure }> {
  try {
    const { data } = await octokit.rest.users.getAuthenticated();
    return { author: { login: data.login, type: data.type } };
  } catch (error) {
    const status = httpStatus(error);
    if (status === 403 || status === 404)
      return { author: { login: ACTIONS_BOT_LOGIN, type: 'Bot' } };
    return {
      failure: toReportingFailure(error, 'find out which user the token writes as (GET /user)'),
    };
  }
}
