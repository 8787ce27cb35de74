/**
 * Who the github-token is: a person's token (a personal access token, classic or fine-grained)
 * is named by `GET /user`; an installation token (a workflow's GITHUB_TOKEN, a GitHub App's) is
 * refused it. A refusal of a person's token is that token's own missing permission, which the
 * workflow's `permissions:` do not change, so every refusal hint depends on the answer.
 */
import { httpStatus, toReportingFailure, type ReportingFailure } from './errors.ts';
import type { Octokit } from './octokit.ts';
import { rateLimitOf } from './rate-limit.ts';

/** What `GET /user` said of the token. */
export type TokenUser =
  | { kind: 'person'; login: string }
  /** Refused (403, 404): an installation token, which cannot say who it is. */
  | { kind: 'installation' }
  /** GitHub did not say (no answer, a 5xx, a rate limit, a rejected token). */
  | { kind: 'unknown'; failure: ReportingFailure };

/**
 * Who the token is, from `GET /user`. Asked again by each caller that needs it (a refusal, the
 * comment, a refused check run): one request each, on paths that are rare but for the comment.
 */
export async function tokenUser(octokit: Octokit): Promise<TokenUser> {
  try {
    const { data } = await octokit.rest.users.getAuthenticated();
    return { kind: 'person', login: data.login };
  } catch (error) {
    const status = httpStatus(error);
    // A rate limit says nothing of who the token is: taken for an installation's refusal, a
    // person's token would miss its own comment and write a second one.
    const limited =
      rateLimitOf(
        status,
        responseHeaders(error),
        error instanceof Error ? error.message : '',
        Date.now(),
      ) !== null;
    if ((status === 403 || status === 404) && !limited) return { kind: 'installation' };
    return {
      kind: 'unknown',
      failure: toReportingFailure(error, 'find out which user the token writes as (GET /user)'),
    };
  }
}

/** The headers of a failed octokit call's answer, names in lower case; empty without one. */
function responseHeaders(error: unknown): Record<string, unknown> {
  return (
    (error as { response?: { headers?: Record<string, unknown> } } | null)?.response?.headers ?? {}
  );
}

/**
 * {@link toReportingFailure} for a call made with `octokit`, whose 403 is worded for the token it
 * refused: a person's token is told which permission of its own it lacks, never the workflow's
 * `permissions:`. Only a 403 costs the question.
 */
export async function refusalOf(
  octokit: Octokit,
  error: unknown,
  what: string,
  permission: string,
  step?: 'read' | 'write',
): Promise<ReportingFailure> {
  const person = httpStatus(error) === 403 ? await tokenUser(octokit) : undefined;
  const login = person?.kind === 'person' ? person.login : undefined;
  return toReportingFailure(error, what, permission, step, login);
}
