/**
 * Why a call to the GitHub API failed, as data. Reporting problems never change the verdict:
 * the Action turns a {@link ReportingFailure} into a warning and falls back to the job summary
 * and workflow-command annotations. Classification uses the HTTP status (and rate-limit
 * headers); GitHub's message text only tells a locked conversation from a missing permission,
 * both a 403 on a comment, and a commit GitHub does not have from another invalid request, both
 * a 422 on a check run.
 */
import { isRecord } from '../shared/is-record.ts';
import { createScrubber, secretsInEnv } from '../shared/secrets.ts';
import { clockTime, rateLimitOf } from './rate-limit.ts';

/** Stable kinds of reporting failure; branch on these. */
export type ReportingFailureCode =
  | 'github.forbidden'
  | 'github.not-found'
  | 'github.unavailable'
  | 'github.invalid'
  | 'github.no-commit'
  | 'github.failed';

/** A failed GitHub call: what failed, why, and what to do about it, in `message`. */
export interface ReportingFailure {
  code: ReportingFailureCode;
  /** The HTTP status GitHub answered with; absent when no answer came (network error). */
  status?: number;
  /** One line, e.g. `could not create the PR comment: 403 Resource not accessible by integration (…)`. */
  message: string;
}

/** Where the README explains tokens, permissions and forks. */
const README_SECTION = 'see docs/action.md#tokens-and-permissions';

/**
 * The HTTP status GitHub answered a failed octokit call with, or undefined when GitHub did not
 * answer (network error, abort) or `error` did not come from octokit.
 */
export function httpStatus(error: unknown): number | undefined {
  const http = asHttpError(error);
  return http?.response ? http.status : undefined;
}

/**
 * Turns what an octokit call threw into a {@link ReportingFailure}.
 *
 * @param what the failed step, completing "could not …", e.g. `create the PR comment`.
 * @param permission the workflow permission the whole task needs, e.g. `checks: write`, or the
 *   permissions GitHub accepts in its place, any one of which is enough (`['pull-requests: write',
 *   'issues: write']`: the first is the one to add); named in the hint for 401/403 so the user
 *   knows which line to add to the workflow. Name all the task needs, not just this call: listing
 *   the comments is a read, but the comment is written next, so the hint for a refused list says
 *   `write`, and one fix is enough.
 * @param step whether the refused call reads or writes; by default what `permission` says. Only
 *   a write is refused to a fork's read-only token, so only then are forks named.
 * @param personalToken the token's user when it is a person's (GET /user named them): a 403 is
 *   then the token's own missing permission, which the workflow's `permissions:` do not change.
 */
export function toReportingFailure(
  error: unknown,
  what: string,
  permission?: string | readonly [string, ...string[]],
  step?: 'read' | 'write',
  personalToken?: string,
): ReportingFailure {
  const http = asHttpError(error);
  if (!http) {
    return { code: 'github.failed', message: `could not ${what}: ${describeThrown(error)}` };
  }
  const response = http.response;
  if (!response) {
    // @octokit/request rethrows a failed fetch (refused, reset, DNS, abort) as status 500
    // without a response; that is no answer from GitHub, not a GitHub 500.
    return {
      code: 'github.unavailable',
      message: `could not ${what}: no answer from the GitHub API (${scrubGitHubText(oneLine(http.message))})`,
    };
  }
  const status = http.status;
  const said = githubMessage(response.data);
  const accepted =
    permission === undefined
      ? undefined
      : typeof permission === 'string'
        ? [permission]
        : permission;
  const writes =
    step === undefined ? accepted?.[0]?.endsWith(': write') !== false : step === 'write';
  const { code, hint } = classify(
    status,
    response.headers ?? {},
    accepted,
    writes,
    said,
    personalToken,
  );
  const reason = said === '' ? String(status) : `${status} ${said}`;
  return {
    code,
    status,
    message: `could not ${what}: ${reason}${hint === '' ? '' : ` (${hint})`}`,
  };
}

function classify(
  status: number,
  headers: Record<string, unknown>,
  permission: readonly string[] | undefined,
  writes: boolean,
  said: string,
  personalToken: string | undefined,
): { code: ReportingFailureCode; hint: string } {
  // GitHub answers a rate limit with 403 or 429 and says so in the headers (`rate-limit.ts`).
  const limit = rateLimitOf(status, headers, said, Date.now());
  if (limit !== null) {
    const detail =
      limit.resetsAt !== undefined
        ? ` until ${clockTime(limit.resetsAt)} (x-ratelimit-reset)`
        : limit.retryAfter !== undefined
          ? ` (retry-after: ${limit.retryAfter} s)`
          : '';
    return {
      code: 'github.unavailable',
      hint: `rate limited by GitHub${detail}; the log says what this run waited; the next run tries again`,
    };
  }
  if (status === 401) {
    return {
      code: 'github.forbidden',
      hint: `the token was rejected; check the action's github-token input; ${README_SECTION}`,
    };
  }
  // `Unable to create comment because issue is locked.`: no permission in the workflow helps.
  if (status === 403 && /\bis locked\b/i.test(said)) {
    return {
      code: 'github.forbidden',
      hint: "the pull request's conversation is locked: unlock it for the comment to be posted; the job summary and the check run carry the report",
    };
  }
  if (status === 403 && personalToken !== undefined) {
    return { code: 'github.forbidden', hint: personalTokenHint(personalToken, permission) };
  }
  if (status === 403) {
    const needs = permission ? `, otherwise the workflow needs ${anyOf(permission)}` : '';
    // Only a write is refused to a fork's read-only token; a refused read has another cause.
    const fork =
      permission === undefined || writes
        ? `a pull request from a fork gets a read-only token${needs}`
        : `the token lacks ${anyOf(permission)}`;
    return { code: 'github.forbidden', hint: `${fork}; ${README_SECTION}` };
  }
  if (status === 404) {
    return {
      code: 'github.not-found',
      hint: 'the repository, pull request or check run does not exist or the token cannot see it',
    };
  }
  // 410 Gone: the issue (pull request) was deleted, or the repository has issues turned off,
  // which the comments API of a pull request shares. No permission or retry brings it back.
  if (status === 410) {
    return {
      code: 'github.not-found',
      hint: 'GitHub says it is gone: the pull request or issue was deleted, or issues are turned off for this repository; there is nothing to comment on, and the job summary and check run carry the report',
    };
  }
  // GitHub's only word for it (the checks and statuses APIs): the commit is not in the repository,
  // so no retry, with or without annotations, can succeed.
  if (status === 422 && /^No commit found for SHA\b/i.test(said)) {
    return {
      code: 'github.no-commit',
      hint: "GitHub has no such commit in this repository: one the job made and did not push, or a head-sha input naming another repository's commit; the check run needs a commit GitHub has, the job summary carries the report",
    };
  }
  if (status === 422) return { code: 'github.invalid', hint: '' };
  if (status >= 500)
    return { code: 'github.unavailable', hint: 'GitHub had a problem; the next run tries again' };
  return { code: 'github.failed', hint: '' };
}

/**
 * `` `permissions: checks: write` ``, or for permissions GitHub accepts in each other's place
 * `` `permissions: pull-requests: write` (or `issues: write`: either one is enough) ``.
 */
function anyOf([first, ...others]: readonly string[]): string {
  const named = `\`permissions: ${first}\``;
  if (others.length === 0) return named;
  const or = others.map((other) => `\`${other}\``).join(' or ');
  return `${named} (or ${or}: ${others.length === 1 ? 'either' : 'any'} one is enough)`;
}

/**
 * What a person's token refused a call lacks: its own permission (a fine-grained token's
 * repository permission, a classic token's scope), since the workflow's `permissions:` set only
 * GITHUB_TOKEN's, and a fork's read-only token is not this one.
 */
function personalTokenHint(login: string, permission: readonly string[] | undefined): string {
  const fineGrained = (permission ?? []).map((entry) => {
    const [name = '', access = ''] = entry.split(':').map((part) => part.trim());
    const words = name.replaceAll('-', ' ');
    return `\`${words.charAt(0).toUpperCase()}${words.slice(1)}: ${access === 'write' ? 'Read and write' : 'Read-only'}\``;
  });
  const [first, ...others] = fineGrained;
  const needs =
    first === undefined
      ? 'the permission this call needs'
      : `${first}${others.length > 0 ? ` (or ${others.join(' or ')})` : ''} if fine-grained, the \`repo\` scope if classic`;
  return `the github-token is a personal access token of ${login}, which lacks ${needs}; the workflow's permissions do not apply to it; ${README_SECTION}`;
}

/** GitHub's own words from an error body, on one line, with any `errors[]` details. */
function githubMessage(data: unknown): string {
  if (typeof data === 'string') {
    // A proxy's or load balancer's HTML page says nothing useful; a short text might.
    const text = oneLine(data);
    return text.startsWith('<') ? '' : shorten(text);
  }
  if (!isRecord(data) || typeof data['message'] !== 'string') return '';
  const message = oneLine(data['message']);
  const errors = Array.isArray(data['errors']) ? (data['errors'] as unknown[]) : [];
  const details = errors.map(describeDetail).filter((detail) => detail !== '');
  return shorten(details.length > 0 ? `${message}: ${details.join('; ')}` : message);
}

function describeDetail(detail: unknown): string {
  if (typeof detail === 'string') return oneLine(detail);
  if (!isRecord(detail)) return '';
  if (typeof detail['message'] === 'string') return oneLine(detail['message']);
  return [detail['field'], detail['code']].filter((part) => typeof part === 'string').join(' ');
}

interface HttpErrorLike {
  status: number;
  message: string;
  response?: { data?: unknown; headers?: Record<string, unknown> };
}

/** octokit's RequestError, recognised by shape: @octokit/request-error is not our dependency. */
function asHttpError(error: unknown): HttpErrorLike | undefined {
  if (!(error instanceof Error)) return undefined;
  const status = (error as { status?: unknown }).status;
  if (typeof status !== 'number') return undefined;
  const response = (error as { response?: unknown }).response;
  return {
    status,
    message: error.message,
    response: isRecord(response) ? response : undefined,
  };
}

function describeThrown(error: unknown): string {
  if (error instanceof Error) return scrubGitHubText(oneLine(error.message)) || error.name;
  return scrubGitHubText(oneLine(String(error)));
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * GitHub's words scrubbed, then cut to 300 characters: scrubbed first, so that a token GitHub (or
 * a proxy in front of it) echoes across the cut leaves no piece of itself before the `...`, which
 * no later scrub would recognise as a secret.
 */
function shorten(text: string): string {
  const clean = scrubGitHubText(text);
  return clean.length > 300 ? `${clean.slice(0, 297)}...` : clean;
}

/**
 * `text` from a GitHub answer without the process's secrets: the values of its secret-named
 * environment variables (`GITHUB_TOKEN`, `INPUT_GITHUB-TOKEN`, the config's keys) and those the
 * Action declared (its token, the values its config reads: `declareSecret`). For every message
 * `src/github/` builds from a server's words before it cuts them. Made per call: a failure is
 * rare, and a declaration made after this module loaded must count.
 */
export function scrubGitHubText(text: string): string {
  return createScrubber(secretsInEnv(process.env)).text(text);
}
