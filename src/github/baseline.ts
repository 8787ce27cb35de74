/**
 * `baseline: auto`: the newest results artifact uploaded from the pull request's base branch,
 * found through the REST API (this call and the download, `baseline-download.ts`, need
 * `permissions: actions: read`).
 * Like every GitHub call, a problem comes back as a {@link ReportingFailure}; no baseline is not
 * a problem (`found: null`), the comparison is simply left out.
 */
import { toReportingFailure } from './errors.ts';
import type { ReportingFailure } from './errors.ts';
import type { Octokit } from './octokit.ts';

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
}

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
 * could plant the baseline a later pull request is judged against.
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
  const searched: SearchExtent = { artifacts: 0, pages: 0, total: null, exhausted: true };

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
      for (const artifact of response.data) {
        const time = Date.parse(artifact.created_at ?? '');
        const run = artifact.workflow_run;
        const candidate =
          artifact.name === name &&
          !artifact.expired &&
          run?.head_branch === branch &&
          !fromFork(run) &&
          !Number.isNaN(time);
        if (candidate && (best === undefined || isNewer({ artifact, time }, best))) {
          best = { artifact, time };
        }
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
      failure: toReportingFailure(error, `list the artifacts named "${name}"${config}`, PERMISSION),
    };
  }

  if (best === undefined) return { ok: true, found: null, searched };
  const { artifact } = best;
  return {
    ok: true,
    found: {
      id: artifact.id,
      createdAt: artifact.created_at ?? '',
      runId: artifact.workflow_run?.id ?? null,
      headSha: artifact.workflow_run?.head_sha ?? null,
    },
    searched,
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
