/**
 * The sticky PR comment: one comment per marker, found again on the next run and edited in
 * place, so a pull request gets one evalgate comment per report (config, job, matrix leg)
 * however often it is pushed.
 */
import { httpStatus, toReportingFailure } from './errors.ts';
import type { ReportingFailure } from './errors.ts';
import type { Octokit } from './octokit.ts';
import { hideStale, type StaleComment } from './stale-comments.ts';
import { tokenUser } from './token-user.ts';

export type { StaleComment } from './stale-comments.ts';

/** The pull request (or issue) to comment on. */
export interface CommentTarget {
  owner: string;
  repo: string;
  issueNumber: number;
}

/**
 * Which workflow run wrote a report: a later run of a workflow has a larger id, a re-run of one
 * a larger attempt. Written into the comment, so that a run that finishes late (started for an
 * older push) does not replace the report of a later run on the pull request.
 */
export interface RunStamp {
  id: number;
  attempt: number;
}

/**
 * What {@link upsertStickyComment} did, or why it could not. `kept-newer`: the comment holds a
 * later run's report (`newer`), which is left as it is.
 */
export type StickyCommentResult =
  | ({ ok: true; url: string; action: 'created' | 'updated' } & Stale)
  | ({ ok: true; url: string; action: 'kept-newer'; newer: RunStamp } & Stale)
  | ({ ok: true; url: ''; action: 'none' } & Stale)
  | { ok: false; failure: ReportingFailure };

/**
 * Comments with this report's marker that another identity wrote (the workflow switched between
 * GITHUB_TOKEN, a GitHub App token and a personal access token) and this token did not edit:
 * each holds an older report, so each is hidden as outdated when GitHub lets the token
 * (`hidden`), and named to the caller either way; one GitHub says is hidden already (an earlier
 * run hid it) is neither hidden again nor named. Absent when there is none.
 */
interface Stale {
  stale?: StaleComment[];
}

/**
 * The workflow permissions under which GitHub lets a token list, create, edit and delete a pull
 * request's (issue) comments: either one is enough. The REST reference ("REST API endpoints for
 * issue comments") lists both for each of those endpoints, as "at least one of the following
 * permission sets": the "Issues" or the "Pull requests" repository permission, read for the
 * list, write for the others. The write includes the read that lists the comments first, so every
 * hint names the write, and one fix is enough; `pull-requests: write` first, as the docs use it.
 */
const PERMISSION = ['pull-requests: write', 'issues: write'] as const;

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
 * characters, with room for the run stamp ({@link RUN_STAMP_MAX_CHARS}), is the caller's job.
 *
 * With `run`, the comment's second line says which workflow run wrote it, and a comment a later
 * run wrote is left as it is (`kept-newer`): a run started for an older push that finishes last
 * does not put its report over the newer one. Two runs that list the comments at the same
 * instant can still both write; the later write wins then.
 *
 * With `create: false` an existing comment is updated and none is created (`none`): a run that
 * could not start replaces an earlier report, which would be stale, but adds no comment.
 *
 * @param marker one line unlikely to appear by chance, e.g. `<!-- evalgate-report config="evals.yaml" job="test" -->`.
 */
export async function upsertStickyComment(
  octokit: Octokit,
  target: CommentTarget,
  marker: string,
  body: string,
  run?: RunStamp,
  options: { create?: boolean } = {},
): Promise<StickyCommentResult> {
  // An empty marker would match every comment we ever wrote: a bug in the caller.
  if (marker.trim() === '' || /[\r\n]/.test(marker)) {
    throw new Error('upsertStickyComment: the marker must be one non-empty line');
  }
  const withMarker = firstLine(body) === marker ? body : `${marker}\n${body}`;
  const text = run === undefined ? withMarker : withSecondLine(withMarker, stampLine(run));
  /** The comment's report is a later run's than this one: it stays. */
  const newerThanOurs = (comment: { body?: string }): RunStamp | undefined => {
    const stamp = stampOf(comment.body ?? '');
    return run !== undefined && stamp !== undefined && later(stamp, run) ? stamp : undefined;
  };
  const { owner, repo, issueNumber } = target;

  const self = await tokenAuthor(octokit);
  if ('failure' in self) return { ok: false, failure: self.failure };
  /** The token's user when it is a person's: a refusal is then that token's missing permission. */
  const person = self.author.kind === 'user' ? self.author.login : undefined;

  const list = async (): Promise<
    | { ok: true; mine: ListedComment[]; others: ListedComment[] }
    | { ok: false; failure: ReportingFailure }
  > => {
    try {
      const comments = await octokit.paginate(octokit.rest.issues.listComments, {
        owner,
        repo,
        issue_number: issueNumber,
        per_page: 100,
      });
      // The latest run's report first, then the newest by id rather than by list position: ids
      // only grow, list order is GitHub's.
      const marked = comments.filter((c) => firstLine(c.body ?? '') === marker);
      const mine = marked
        .filter((c) => wroteIt(self.author, c.user))
        .sort((a, b) => byRun(stampOf(b.body ?? ''), stampOf(a.body ?? '')) || b.id - a.id);
      // A person's comment counts only with the run line only evalgate writes (a personal access
      // token's earlier report), never one that merely starts with the marker.
      const others = marked.filter(
        (c) =>
          !wroteIt(self.author, c.user) &&
          (c.user?.type === 'Bot' || stampOf(c.body ?? '') !== undefined),
      );
      return { ok: true, mine, others };
    } catch (error) {
      return {
        ok: false,
        failure: toReportingFailure(
          error,
          `list the comments of PR #${issueNumber}`,
          PERMISSION,
          'read',
          person,
        ),
      };
    }
  };

  const listed = await list();
  if (!listed.ok) return listed;
  const candidates = listed.mine;
  // Another identity's comments with our marker: an earlier token's reports, which this token
  // may not edit. Bots' comments the edit is refused on join them below. One a later run wrote
  // (tokens switched, and this older run finished last) is the current report, never stale.
  const laterRun = (comment: ListedComment): boolean => newerThanOurs(comment) !== undefined;
  const refused: ListedComment[] = listed.others.filter((comment) => !laterRun(comment));
  /** `result` with the stale comments hidden and named. */
  const settle = async <T extends { ok: true }>(result: T): Promise<T & Stale> => {
    const stale = await hideStale(octokit, refused);
    return stale.length === 0 ? result : { ...result, stale };
  };
  // As with this identity's own comment below: an older run's report is not put over it.
  const [latest] = listed.others
    .filter(laterRun)
    .sort((a, b) => byRun(stampOf(b.body ?? ''), stampOf(a.body ?? '')) || b.id - a.id);
  const latestStamp = latest && newerThanOurs(latest);
  if (latest !== undefined && latestStamp !== undefined) {
    return settle({
      ok: true,
      url: latest.html_url,
      action: 'kept-newer',
      newer: latestStamp,
    } as const);
  }
  for (const [index, candidate] of candidates.entries()) {
    const newer = newerThanOurs(candidate);
    if (newer !== undefined)
      return settle({ ok: true, url: candidate.html_url, action: 'kept-newer', newer } as const);
    try {
      const { data } = await octokit.rest.issues.updateComment({
        owner,
        repo,
        comment_id: candidate.id,
        body: text,
      });
      // Older copies (a create retried after GitHub stored it, two runs racing) would keep an
      // old verdict on the pull request: remove them.
      await removeDuplicates(octokit, target, candidates.slice(index + 1));
      return settle({ ok: true, url: data.html_url, action: 'updated' } as const);
    } catch (error) {
      const failure = toReportingFailure(
        error,
        'update the PR comment',
        PERMISSION,
        'write',
        person,
      );
      // Refused on a bot's comment we only took for ours: another app wrote it, so try the next
      // (ours may be older). Deleted between listing and editing: writing a new one is what the
      // user wants.
      const notOurs = self.author.kind === 'any-bot' && failure.code === 'github.forbidden';
      if (notOurs) {
        refused.push(candidate);
        continue;
      }
      if (httpStatus(error) !== 404) return { ok: false, failure };
      break;
    }
  }

  if (options.create === false) return settle({ ok: true, url: '', action: 'none' } as const);
  // Creating is not idempotent: GitHub may store a comment whose answer is lost (a 502, a
  // dropped connection). So before a retry the comments are listed again, and one with the
  // marker counts as the create's answer. After the create the list is read once more: the newest
  // comment with the marker is kept (saying what this run found) and older ones, left by a lost
  // answer or by another run of this report racing this one, are deleted.
  let created: { id: number; html_url: string };
  try {
    const { data } = await octokit.rest.issues.createComment({
      owner,
      repo,
      issue_number: issueNumber,
      body: text,
      request: {
        beforeRetry: async () => {
          const again = await list();
          const stored = again.ok
            ? again.mine.find((c) => !refused.some((r) => r.id === c.id))
            : undefined;
          return stored === undefined ? null : { status: 201, url: '', headers: {}, data: stored };
        },
      },
    });
    created = data;
  } catch (error) {
    return {
      ok: false,
      failure: toReportingFailure(error, 'create the PR comment', PERMISSION, 'write', person),
    };
  }
  const after = await list();
  // After a refused edit the refused comment is still listed as ours: it is no duplicate.
  const refusedIds = new Set(refused.map((comment) => comment.id));
  const [newest, ...older] = (after.ok ? after.mine : []).filter((c) => !refusedIds.has(c.id));
  if (newest === undefined)
    return settle({ ok: true, url: created.html_url, action: 'created' } as const);
  await removeDuplicates(octokit, target, older);
  // A later run created its comment while this one did: its report is the one to keep.
  const newer = newerThanOurs(newest);
  if (newer !== undefined)
    return settle({ ok: true, url: newest.html_url, action: 'kept-newer', newer } as const);
  if (newest.id === created.id && 'body' in newest && newest.body === text) {
    return settle({ ok: true, url: created.html_url, action: 'created' } as const);
  }
  try {
    const { data } = await octokit.rest.issues.updateComment({
      owner,
      repo,
      comment_id: newest.id,
      body: text,
    });
    return settle({ ok: true, url: data.html_url, action: 'created' } as const);
  } catch (error) {
    return {
      ok: false,
      failure: toReportingFailure(error, 'update the PR comment', PERMISSION, 'write', person),
    };
  }
}

/** A listed issue comment, as much of it as is read here. */
interface ListedComment {
  id: number;
  node_id?: string;
  body?: string;
  html_url: string;
  user?: { login: string; type: string } | null;
}

/**
 * Deletes older comments with this report's marker. Best effort: one that is gone already
 * (another run deleted it) or cannot be deleted is left as it is.
 */
async function removeDuplicates(
  octokit: Octokit,
  target: CommentTarget,
  older: readonly { id: number }[],
): Promise<void> {
  // Bounded: duplicates come from a lost answer or a race, a handful at most.
  for (const comment of older.slice(0, 10)) {
    try {
      await octokit.rest.issues.deleteComment({
        owner: target.owner,
        repo: target.repo,
        comment_id: comment.id,
      });
    } catch {
      // gone already, or not ours to delete: the newest comment is current either way
    }
  }
}

/** `text` with `line` inserted after its first line. */
function withSecondLine(text: string, line: string): string {
  const end = text.indexOf('\n');
  return end === -1 ? `${text}\n${line}` : `${text.slice(0, end)}\n${line}${text.slice(end)}`;
}

/**
 * The characters the run stamp adds to a body at most: its line, for the largest id and attempt
 * (safe integers), and the line break. A caller keeping `body` within GitHub's limit leaves this
 * much room.
 */
export const RUN_STAMP_MAX_CHARS =
  stampLine({ id: Number.MAX_SAFE_INTEGER, attempt: Number.MAX_SAFE_INTEGER }).length + 1;

/** The comment's second line, which says which run wrote it. */
function stampLine(run: RunStamp): string {
  return `<!-- evalgate-run ${run.id}.${run.attempt} -->`;
}

/** The run a comment's second line names; undefined for a comment written without one. */
function stampOf(text: string): RunStamp | undefined {
  const match = /^[^\n]*\n<!-- evalgate-run (\d+)\.(\d+) -->\r?(?:\n|$)/.exec(text);
  return match ? { id: Number(match[1]), attempt: Number(match[2]) } : undefined;
}

/** Whether `a` is a later run (or re-run) than `b`. */
function later(a: RunStamp, b: RunStamp): boolean {
  return a.id > b.id || (a.id === b.id && a.attempt > b.attempt);
}

/** Sort order of stamps, a missing one (an earlier evalgate's comment) before every run. */
function byRun(a: RunStamp | undefined, b: RunStamp | undefined): number {
  if (a === undefined || b === undefined)
    return (a === undefined ? 0 : 1) - (b === undefined ? 0 : 1);
  return later(a, b) ? 1 : later(b, a) ? -1 : 0;
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
  const user = await tokenUser(octokit);
  if (user.kind === 'unknown') return { failure: user.failure };
  return {
    author: user.kind === 'person' ? { kind: 'user', login: user.login } : { kind: 'any-bot' },
  };
}
