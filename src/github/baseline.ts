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
   * Pages of 100 to read at most; default 10. Bounds the API calls on a repository that
   * uploads the artifact on every pull request and rarely on the base branch.
   */
  maxPages?: number;
}

/** The newest matching artifact, null when there is none, or why the search failed. */
export type FindBaselineResult =
  { ok: true; found: BaselineArtifact | null } | { ok: false; failure: ReportingFailure };

/** Listing and downloading artifacts both need this workflow permission. */
export const PERMISSION = 'actions: read';
const DEFAULT_MAX_PAGES = 10;

type ListedArtifact = Awaited<
  ReturnType<Octokit['rest']['actions']['listArtifactsForRepo']>
>['data']['artifacts'][number];

/**
 * Finds the newest non-expired artifact named `options.name` uploaded by a run on
 * `options.branch` of this repository.
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
  let pages = 0;

  try {
    await octokit.paginate(
      octokit.rest.actions.listArtifactsForRepo,
      { owner, repo, name, per_page: 100 },
      (response, done) => {
        pages += 1;
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
        if (restIsOlder || pages >= maxPages) done();
        return [];
      },
    );
  } catch (error) {
    const config = options.configPath ? ` (the baseline for ${options.configPath})` : '';
    return {
      ok: false,
      failure: toReportingFailure(error, `list the artifacts named "${name}"${config}`, PERMISSION),
    };
  }

  if (best === undefined) return { ok: true, found: null };
  const { artifact } = best;
  return {
    ok: true,
    found: {
      id: artifact.id,
      createdAt: artifact.created_at ?? '',
      runId: artifact.workflow_run?.id ?? null,
      headSha: artifact.workflow_run?.head_sha ?? null,
    },
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
