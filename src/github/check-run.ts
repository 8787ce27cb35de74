/**
 * The check run: the verdict as a completed check with annotations on the failing testset rows
 * and evaluator lines. GitHub takes at most 50 annotations per request and appends those of
 * every update, so the first 50 go with the create and the rest follow in updates of 50.
 *
 * Neither request is idempotent: a create GitHub stored but whose answer was lost (a 502, a
 * dropped connection), sent again, makes a second check run of the same name, and an update
 * sent again appends its annotations twice. So before either is sent again, what the lost
 * attempt did is read back (`octokit.ts`, `beforeRetry`), and when that cannot be read, the
 * request is not sent again.
 */
import { randomUUID } from 'node:crypto';
import { externalId, parseOrigin, type CheckRunOrigin } from './check-run-origin.ts';
import { httpStatus, toReportingFailure } from './errors.ts';
import type { ReportingFailure } from './errors.ts';
import type { Annotation } from '../report/annotations.ts';
import { CHECK_RUNS_PER_PAGE, listCheckRunsNamed } from './check-runs-named.ts';
import type { Octokit } from './octokit.ts';
import { tokenUser } from './token-user.ts';

/** GitHub's limit of annotations per create or update request. */
export const ANNOTATIONS_PER_REQUEST = 50;

/** The repository the check run belongs to. */
export interface CheckRunTarget {
  owner: string;
  repo: string;
}

/** The check run to publish; `summary` and `text` must each fit GitHub's 65,535 characters. */
export interface CheckRunReport {
  name: string;
  /** The commit the check belongs to: the pull request's head, not the merge commit. */
  headSha: string;
  conclusion: 'success' | 'failure' | 'neutral';
  title: string;
  summary: string;
  text?: string;
  annotations: readonly Annotation[];
  detailsUrl?: string;
  /** The workflow run, attempt and job posting it, recorded in `external_id`; null when unknown. */
  origin?: CheckRunOrigin | null;
  /**
   * False when the run's token cannot be a fork's read-only one (the event is no pull request
   * from another repository): a 403 is then a missing `checks: write` for certain, and is told
   * so. Default true: the 403 names both causes.
   */
  forkPossible?: boolean;
}

/**
 * What {@link publishCheckRun} did, or why it could not. `partial` says the run exists and how
 * many annotations it got before a later update failed.
 */
export type CheckRunResult =
  | { ok: true; id: number; url: string; annotations: number }
  | { ok: false; failure: ReportingFailure; partial?: { id: number; annotations: number } };

/** Workflow permission needed to create and update check runs. */
const PERMISSION = 'checks: write';

/**
 * Creates a completed check run with the first 50 annotations, then sends the rest in updates
 * of 50. Each update repeats the title, summary and text, since GitHub requires `title` and
 * `summary` whenever `output` is sent.
 */
export async function publishCheckRun(
  octokit: Octokit,
  target: CheckRunTarget,
  run: CheckRunReport,
): Promise<CheckRunResult> {
  const { owner, repo } = target;
  const total = run.annotations.length;
  const batches: Annotation[][] = [];
  for (let start = 0; start < total; start += ANNOTATIONS_PER_REQUEST) {
    batches.push(run.annotations.slice(start, start + ANNOTATIONS_PER_REQUEST));
  }
  const output = (batch: Annotation[] | undefined) => ({
    title: run.title,
    summary: run.summary,
    ...(run.text !== undefined && { text: run.text }),
    ...(batch !== undefined && batch.length > 0 && { annotations: batch }),
  });

  const create = (out: ReturnType<typeof output>) => {
    // Names this create among the commit's check runs, should its answer be lost.
    const id = externalId(randomUUID(), run.origin ?? null);
    return octokit.rest.checks.create({
      owner,
      repo,
      name: run.name,
      head_sha: run.headSha,
      external_id: id,
      status: 'completed',
      conclusion: run.conclusion,
      ...(run.detailsUrl !== undefined && { details_url: run.detailsUrl }),
      output: out,
      request: {
        beforeRetry: async () => {
          const stored = await findCreated(octokit, target, run, id);
          return stored === null ? null : { status: 201, url: '', headers: {}, data: stored };
        },
      },
    });
  };

  /**
   * GitHub refused the create (422), most likely for an annotation it finds invalid: the check
   * run, its verdict and summary go out without annotations (the check a branch protection rule
   * waits for must not go missing), and the rows fall back to workflow commands (`partial`).
   */
  const createWithout = async (refused: ReportingFailure): Promise<CheckRunResult> => {
    const said = refused.message.slice(`could not create the check run "${run.name}": `.length);
    try {
      const { data } = await create({
        ...output(undefined),
        text: `GitHub refused this check run's annotations (${said}), so it has none: the first failing rows are annotated from the job's log instead, and every one is in the results artifact.`,
      });
      return {
        ok: false,
        failure: {
          code: 'github.invalid',
          status: 422,
          message: `GitHub refused the annotations of the check run "${run.name}" (${said}); created it without them, and the failing rows are annotated from the job's log`,
        },
        partial: { id: data.id, annotations: 0 },
      };
    } catch {
      return { ok: false, failure: refused };
    }
  };

  let id: number;
  let url: string;
  try {
    const { data } = await create(output(batches[0]));
    id = data.id;
    url = data.html_url ?? '';
  } catch (error) {
    const failure = toReportingFailure(error, `create the check run "${run.name}"`, PERMISSION);
    if (failure.code === 'github.forbidden' && failure.status === 403) {
      failure.message = await refusedCheckRun(octokit, failure.message, run.forkPossible ?? true);
    }
    if (failure.code === 'github.invalid' && total > 0) return createWithout(failure);
    return { ok: false, failure };
  }

  let sent = batches[0]?.length ?? 0;
  for (const batch of batches.slice(1)) {
    try {
      const before = sent;
      await octokit.rest.checks.update({
        owner,
        repo,
        check_run_id: id,
        output: output(batch),
        request: {
          beforeRetry: async () => {
            const landed = await batchLanded(octokit, target, id, before, batch.length);
            return landed === null ? null : { status: 200, url: '', headers: {}, data: landed };
          },
        },
      });
    } catch (error) {
      const what = `add annotations ${sent + 1}-${sent + batch.length} of ${total} to the check run "${run.name}"`;
      return {
        ok: false,
        failure: toReportingFailure(error, what, PERMISSION),
        partial: { id, annotations: sent },
      };
    }
    sent += batch.length;
  }
  return { ok: true, id, url, annotations: sent };
}

/**
 * Why creating a check run got 403, told apart by who the token is: a user's token (GET /user
 * answers) can never create one, only a GitHub App can; an installation token (a GITHUB_TOKEN)
 * lacks `checks: write`, or is a fork's read-only token (only when `forkPossible`). The
 * annotations still go out as workflow commands, so neither case is fixed by `check-run: false`,
 * which turns them off too.
 */
async function refusedCheckRun(
  octokit: Octokit,
  said: string,
  forkPossible: boolean,
): Promise<string> {
  // GitHub's words without the generic hint `toReportingFailure` added.
  const hint = said.indexOf(' (a pull request from a fork');
  const base = hint === -1 ? said : said.slice(0, hint);
  // An installation token (refused GET /user), or GitHub did not say: treated as one.
  const asked = await tokenUser(octokit);
  const user = asked.kind === 'person' ? asked.login : null;
  if (user !== null) {
    return `${base} (the github-token is a personal access token of ${user}, and only GitHub Apps create check runs: use the workflow's GITHUB_TOKEN with \`permissions: checks: write\`, or a GitHub App's token; docs/action.md#tokens-and-permissions)`;
  }
  if (!forkPossible) {
    // A `permissions:` block sets every scope it does not name to none; Dependabot's pull
    // requests get a read-only token unless the workflow's `permissions:` raise it.
    return `${base} (the workflow's token lacks \`checks: write\`: add \`permissions: checks: write\` to the job or the workflow, beside the permissions it already names: a \`permissions:\` block gives every scope it leaves out no access, and a Dependabot pull request's token is read-only unless they raise it. A personal access token gets 403 too: only GitHub Apps create check runs; docs/action.md#tokens-and-permissions)`;
  }
  return `${base} (on a pull request from a fork the workflow's token is read-only: expected there, the annotations are in the job log instead; otherwise the workflow needs \`permissions: checks: write\`, and a personal access token gets 403 too: only GitHub Apps create check runs; docs/action.md#tokens-and-permissions)`;
}

/**
 * Pages of 100 of the commit's check runs read at most to find a lost create: GitHub lists those
 * of the 1,000 most recent check suites on a commit, so 10 pages hold every run of one name
 * unless a suite made several.
 */
const MAX_LOOKUP_PAGES = 10;

/**
 * The check run an earlier attempt of a create made, found among the commit's check runs of that
 * name by the `external_id` only that create carried; null when there is none (GitHub did not
 * store it: it may be sent again). Throws when the check runs cannot be listed, or when there
 * are more than it reads: then whether GitHub stored it is not known, and sending it again could
 * make a second check run.
 *
 * GitHub does not document the list's order, and a commit a schedule evaluates while its branch
 * stands still carries hundreds of check runs of one name. So the first page is read, then the
 * last (the `Link` header's `last`), where the newest is when the list is oldest first, then the
 * pages between.
 */
async function findCreated(
  octokit: Octokit,
  target: CheckRunTarget,
  run: CheckRunReport,
  stamp: string,
): Promise<{ id: number; html_url: string | null } | null> {
  const notKnown = (why: string, cause?: unknown): Error =>
    new Error(
      `its answer was lost, and whether GitHub stored it anyway could not be checked (${why}); not sending it again, which could make a second check run "${run.name}"`,
      cause === undefined ? undefined : { cause },
    );
  const read = async (page: number) => {
    const { data, headers } = await listCheckRunsNamed(octokit, target, {
      name: run.name,
      sha: run.headSha,
      filter: 'all',
      page,
    });
    const found = data.check_runs.find((checkRun) => checkRun.external_id === stamp);
    return { found, total: data.total_count, link: headers.link };
  };
  let pages: number[];
  let total: number;
  try {
    const first = await read(1);
    if (first.found !== undefined) return first.found;
    total = first.total;
    const last = lastPage(first.link, first.total);
    // The last page next, then those between; the first is read.
    pages = last > 1 ? [last, ...Array.from({ length: last - 2 }, (_, i) => i + 2)] : [];
    for (const page of pages.slice(0, MAX_LOOKUP_PAGES - 1)) {
      const next = await read(page);
      if (next.found !== undefined) return next.found;
    }
  } catch (error) {
    // Reading them back needs no more than the write the step makes: `checks: write` names both.
    const failure = toReportingFailure(
      error,
      `list the check runs of ${run.headSha.slice(0, 7)}`,
      PERMISSION,
      'read',
    );
    // No such repository for this token (404), or no such commit in it (GitHub lists a commit
    // it lacks with 422 "No commit found for SHA"): then the create cannot have made a check run
    // on it either, and sending it again is safe (it gets GitHub's own answer to that).
    if (httpStatus(error) === 404 || failure.code === 'github.no-commit') return null;
    throw notKnown(failure.message, error);
  }
  if (pages.length <= MAX_LOOKUP_PAGES - 1) return null;
  throw notKnown(
    `the commit ${run.headSha.slice(0, 7)} has ${total.toLocaleString('en-US')} check runs named "${run.name}", and the first ${(MAX_LOOKUP_PAGES * CHECK_RUNS_PER_PAGE).toLocaleString('en-US')} read did not hold it`,
  );
}

/**
 * The number of the list's last page: the `page` of the `Link` header's `last` relation, else
 * counted from `total_count` (a GitHub that sends no `Link`); 1 when there is one page.
 */
function lastPage(link: string | undefined, total: number): number {
  const last = /<([^>]+)>\s*;\s*rel="last"/.exec(link ?? '')?.[1];
  const page = last === undefined ? NaN : Number(/[?&]page=(\d+)/.exec(last)?.[1]);
  if (Number.isSafeInteger(page) && page >= 1) return page;
  return Math.max(1, Math.ceil(total / CHECK_RUNS_PER_PAGE));
}

/**
 * Whether an update carrying `size` annotations, sent when the check run had `before`, was
 * stored although its answer was lost: the check run as read back when its annotation count
 * grew by `size`, null when it did not grow (it may be sent again). Throws when the check run
 * cannot be read, or its count is neither: sending the batch again could duplicate annotations.
 */
async function batchLanded(
  octokit: Octokit,
  { owner, repo }: CheckRunTarget,
  id: number,
  before: number,
  size: number,
): Promise<object | null> {
  const what = `annotations ${before + 1}-${before + size}`;
  let read: { data: { output: { annotations_count: number } } };
  try {
    read = await octokit.rest.checks.get({ owner, repo, check_run_id: id });
  } catch (error) {
    const failure = toReportingFailure(error, `read the check run ${id} back`, PERMISSION, 'read');
    throw new Error(
      `the answer was lost, and whether GitHub stored ${what} anyway could not be checked (${failure.message}); not sending them again, which could duplicate them`,
      { cause: error },
    );
  }
  const count = read.data.output.annotations_count;
  if (count === before) return null;
  if (count === before + size) return read.data;
  throw new Error(
    `the answer was lost, and the check run now has ${count} annotations, neither the ${before} it had nor the ${before + size} it would have with ${what}; not sending them again`,
  );
}

/** A completed check run that passed, as {@link passedCheckRun} finds it. */
export interface PassedCheckRun {
  id: number;
  url: string;
  /** The run, attempt and job that posted it, when its `external_id` says (`check-run-origin.ts`). */
  origin: CheckRunOrigin | null;
}

/**
 * The latest check run named `name` on `sha` (`filter: latest`, what a required check reads) when
 * it passed and is not `exceptId`: the report of a job that ran, which a refusal must not shadow
 * unless this job posted it in an earlier attempt (`publish-not-started.ts`). Null when it did not
 * pass, or when it cannot be read (the refusal is then posted as it was before this check).
 */
export async function passedCheckRun(
  octokit: Octokit,
  target: CheckRunTarget,
  query: { name: string; sha: string; exceptId?: number },
): Promise<PassedCheckRun | null> {
  try {
    // The newest check run of the name, as a required check reads it: an older pass that a
    // later failure replaced is no report to stand down for.
    const { data } = await listCheckRunsNamed(octokit, target, { ...query, filter: 'latest' });
    const passed = data.check_runs.find(
      (run) =>
        run.id !== query.exceptId &&
        run.name === query.name &&
        run.status === 'completed' &&
        run.conclusion === 'success',
    );
    if (passed === undefined) return null;
    return { id: passed.id, url: passed.html_url ?? '', origin: parseOrigin(passed.external_id) };
  } catch {
    return null;
  }
}

/**
 * Turns check run `id` (a refusal's failure) `neutral`, with `output`: a passed check run of its
 * name landed on the commit while it was being posted, and GitHub takes the latest check run of
 * a name for a required check, so the failure would have shadowed a report that ran. Null when
 * done; what GitHub refused otherwise.
 */
export async function yieldCheckRun(
  octokit: Octokit,
  { owner, repo }: CheckRunTarget,
  id: number,
  output: { title: string; summary: string },
): Promise<ReportingFailure | null> {
  try {
    await octokit.rest.checks.update({
      owner,
      repo,
      check_run_id: id,
      status: 'completed',
      conclusion: 'neutral',
      output,
    });
    return null;
  } catch (error) {
    return toReportingFailure(error, `mark the check run ${id} neutral`, PERMISSION);
  }
}
