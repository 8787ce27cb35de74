/**
 * `baseline: auto`: the newest results artifact uploaded from the pull request's base branch,
 * found through the REST API (this call and the download, `baseline-download.ts`, need
 * `permissions: actions: read`).
 * Like every GitHub call, a problem comes back as a {@link ReportingFailure}; no baseline is not
 * a problem (`found: null`), the comparison is simply left out.
 */
import type { ReportingFailure } from './errors.ts';
import type { Octokit } from './octokit.ts';
import { refusalOf } from './token-user.ts';

/** The repository whose artifacts are searched. */
export interface BaselineTarget {
  owner: string;
  repo: string;
}

/** An artifact {@link findBaselineArtifact} chose. */
export interface BaselineArtifact {
  id: number;
  /** ISO 8601, as GitHub gives it. */
  createdAt: string;
  /** The workflow run that uploaded it; null when GitHub does not say. */
  runId: number | null;
  /** The commit that run was on; null when GitHub does not say. */
  headSha: string | null;
}

/** What to look for. */
export interface FindBaselineOptions {
  /** The artifact name, exact (the `name:` given to actions/upload-artifact). */
  name: string;
  /** The branch whose runs count, e.g. the pull request's base branch `main`. */
  branch: string;
  /** The config the baseline is for; only named in messages. */
  configPath?: string;
  /**
   * Pages of 100 to read at most; default 100 (10,000 artifacts of that name). Bounds the API
   * calls on a repository that uploads the artifact on every pull request and rarely on the
   * base branch; when the search stops there, {@link SearchExtent} says so.
   */
  maxPages?: number;
  /**
   * Looks at a candidate that passed every other test (its branch, repository and event), newest
   * first, until one is taken: null takes it; a string passes it over, counted under that key in
   * {@link SearchExtent.skipped} (`baseline.ts` of the Action downloads it and checks it is a run
   * of the branch's own commit). Without it the first such candidate is taken.
   */
  vet?: (candidate: BaselineArtifact) => Promise<string | null>;
}

/** How far a search looked, for saying so when it found nothing. */
export interface SearchExtent {
  /** Artifacts of that name read, newest first. */
  artifacts: number;
  pages: number;
  /** How many artifacts of that name GitHub says there are; null when it did not say. */
  total: number | null;
  /** True when every artifact of that name was read; false when `maxPages` stopped the search. */
  exhausted: boolean;
  /**
   * Artifacts from the branch passed over because the run that uploaded them was not one that
   * evaluates the branch's own code ({@link BASELINE_EVENTS}), by that run's event.
   */
  skipped: Record<string, number>;
}

/**
 * The events whose runs evaluate the branch's own code, so whose results may be its baseline.
 * GitHub also names the base branch as the `head_branch` of a `pull_request_target` run and the
 * default branch as that of an `issue_comment` run, while such a job may have checked out and
 * evaluated a pull request; a `workflow_run` run takes the branch of the run that triggered it,
 * a fork's included. Their results would pass for the branch's, and the next pull request would
 * be judged against another pull request's code.
 */
export const BASELINE_EVENTS: readonly string[] = ['push', 'schedule', 'workflow_dispatch'];

/** Runs looked up at most, to read their event; each is one API call. */
export const MAX_RUN_LOOKUPS = 50;

/** {@link SearchExtent.skipped}'s key for an artifact whose run GitHub does not name. */
export const UNKNOWN_RUN = '(no run)';
/** {@link SearchExtent.skipped}'s key for one passed over once MAX_RUN_LOOKUPS runs were read. */
export const NOT_LOOKED_UP = '(not looked up)';

/** The newest matching artifact, null when there is none, or why the search failed. */
export type FindBaselineResult =
  | { ok: true; found: BaselineArtifact; searched: SearchExtent }
  | { ok: true; found: null; searched: SearchExtent }
  | { ok: false; failure: ReportingFailure };

/** Listing and downloading artifacts both need this workflow permission. */
export const PERMISSION = 'actions: read';
export const DEFAULT_MAX_PAGES = 100;
const PER_PAGE = 100;

type ListedArtifact = Awaited<
  ReturnType<Octokit['rest']['actions']['listArtifactsForRepo']>
>['data']['artifacts'][number];

/**
 * Finds the newest non-expired artifact named `options.name` uploaded by a run on
 * `options.branch` of this repository.
 *
 * GitHub filters the list by name (`?name=`), but cannot filter it by branch: a repository that
 * uploads the artifact on every pull request buries the base branch's under them, so the search
 * pages on until it finds one or the list ends, up to `maxPages`.
 *
 * A run for a pull request from a fork reports the fork's branch as `head_branch`, so a fork's
 * `main` would pass for ours; such runs (head repository ≠ repository) are ignored, or anyone
 * could plant the baseline a later pull request is judged against. So are runs of events that
 * may have evaluated other code than the branch's ({@link BASELINE_EVENTS}): the artifact list
 * does not say a run's event, so the run of each candidate is read.
 *
 * GitHub does not document the list's order; it answers newest first, so the search stops after
 * the page on which a match was found once that page ends with older artifacts. Newest is decided
 * by `created_at` (then id), never by list position.
 */
export async function findBaselineArtifact(
  octokit: Octokit,
  target: BaselineTarget,
  options: FindBaselineOptions,
): Promise<FindBaselineResult> {
  const { owner, repo } = target;
  const { name, branch } = options;
  const maxPages = Math.max(1, options.maxPages ?? DEFAULT_MAX_PAGES);
  let best: { artifact: ListedArtifact; time: number } | undefined;
  const searched: SearchExtent = {
    artifacts: 0,
    pages: 0,
    total: null,
    exhausted: true,
    skipped: {},
  };
  const events = new Map<number, string>();
  /** The event of the run that uploaded `artifact` (a lookup per run, at most MAX_RUN_LOOKUPS). */
  const uploadedBy = async (artifact: ListedArtifact): Promise<string> => {
    const runId = artifact.workflow_run?.id;
    if (runId === undefined) return UNKNOWN_RUN;
    const known = events.get(runId);
    if (known !== undefined) return known;
    if (events.size >= MAX_RUN_LOOKUPS) return NOT_LOOKED_UP;
    const { data } = await octokit.rest.actions.getWorkflowRun({ owner, repo, run_id: runId });
    events.set(runId, data.event);
    return data.event;
  };

  try {
    const pages = octokit.paginate.iterator(octokit.rest.actions.listArtifactsForRepo, {
      owner,
      repo,
      name,
      per_page: PER_PAGE,
    });
    for await (const response of pages) {
      searched.pages += 1;
      searched.artifacts += response.data.length;
      // paginate moves `total_count` onto the page's array.
      const total = (response.data as { total_count?: unknown }).total_count;
      if (typeof total === 'number') searched.total = total;
      const candidates = response.data
        .map((artifact) => ({ artifact, time: Date.parse(artifact.created_at ?? '') }))
        .filter(({ artifact, time }) => {
          const run = artifact.workflow_run;
          return (
            artifact.name === name &&
            !artifact.expired &&
            run?.head_branch === branch &&
            !fromFork(run) &&
            !Number.isNaN(time)
          );
        })
        .sort((a, b) => (isNewer(a, b) ? -1 : 1));
      // Newest first, so the run of each is looked up only while it could still be the newest.
      for (const candidate of candidates) {
        if (best !== undefined && !isNewer(candidate, best)) break;
        const event = await uploadedBy(candidate.artifact);
        const passedOver = !BASELINE_EVENTS.includes(event)
          ? event
          : ((await options.vet?.(baselineArtifact(candidate.artifact))) ?? null);
        if (passedOver === null) best = candidate;
        else searched.skipped[passedOver] = (searched.skipped[passedOver] ?? 0) + 1;
      }
      // GitHub lists newest first: once a page ends older than the best match, so does
      // everything after it.
      const last = response.data.at(-1);
      const restIsOlder =
        best !== undefined &&
        last !== undefined &&
        !(Date.parse(last.created_at ?? '') > best.time);
      if (restIsOlder) break;
      if (searched.pages >= maxPages) {
        searched.exhausted = response.data.length < PER_PAGE || searched.artifacts === total;
        break;
      }
    }
  } catch (error) {
    const config = options.configPath ? ` (the baseline for ${options.configPath})` : '';
    return {
      ok: false,
      failure: await refusalOf(
        octokit,
        error,
        `list the artifacts named "${name}" and the runs that uploaded them${config}`,
        PERMISSION,
      ),
    };
  }

  if (best === undefined) return { ok: true, found: null, searched };
  return { ok: true, found: baselineArtifact(best.artifact), searched };
}

function baselineArtifact(artifact: ListedArtifact): BaselineArtifact {
  return {
    id: artifact.id,
    createdAt: artifact.created_at ?? '',
    runId: artifact.workflow_run?.id ?? null,
    headSha: artifact.workflow_run?.head_sha ?? null,
  };
}

/** A run for a pull request from a fork: its head repository is not the repository itself. */
function fromFork(run: NonNullable<ListedArtifact['workflow_run']>): boolean {
  return (
    run.head_repository_id !== undefined &&
    run.repository_id !== undefined &&
    run.head_repository_id !== run.repository_id
  );
}

function isNewer(
  a: { artifact: ListedArtifact; time: number },
  b: { artifact: ListedArtifact; time: number },
): boolean {
  return a.time > b.time || (a.time === b.time && a.artifact.id > b.artifact.id);
}
