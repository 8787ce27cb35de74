/**
 * Downloading the baseline artifact `baseline.ts` found: the archive from GitHub's storage, its
 * entries read (`artifact-zip.ts`) and the results file picked among them. A problem comes back
 * as a {@link ReportingFailure}, like every GitHub call.
 */
import { httpStatus, scrubGitHubText } from './errors.ts';
import type { ReportingFailure } from './errors.ts';
import type { Octokit } from './octokit.ts';
import { readZipEntries, ZipError } from './artifact-zip.ts';
import type { ZipEntry } from './artifact-zip.ts';
import { PERMISSION, type BaselineTarget } from './baseline.ts';
import { proxyFetchFor } from './proxy-fetch.ts';
import { RetryBudget } from './retry-budget.ts';
import { refusalOf } from './token-user.ts';

/** How to download. */
export interface DownloadBaselineOptions {
  /**
   * The results file inside the archive, matched on its full path or, when unique, its base
   * name. Default: the archive's only `.json` file, or else its one `evals-results.json`.
   */
  fileName?: string;
  /**
   * What the storage download's waiting draws on: the run's one budget, shared with every
   * request of `octokit`, so a slow storage host and a slow GitHub together wait no longer than
   * the run's budget; default one of its own.
   */
  budget?: RetryBudget;
  /** Refuse archives larger than this many bytes; default 256 MiB. */
  maxArchiveBytes?: number;
}

/** The results file's text and its path inside the archive, or why it could not be had. */
export type DownloadBaselineResult =
  { ok: true; text: string; entry: string } | { ok: false; failure: ReportingFailure };

/** The file the Action writes by default, preferred when an archive holds several `.json`. */
export const DEFAULT_RESULTS_FILE = 'evals-results.json';

/**
 * How long the storage download waits for an answer, and then for each next piece of the
 * archive, in the budget's seconds: as long as one attempt of a GitHub request (`octokit.ts`).
 */
const ATTEMPT_TIMEOUT_SECONDS = 20;
const DEFAULT_MAX_ARCHIVE_BYTES = 256 * 1024 * 1024;
/** How many entry names a message lists before summarising the rest. */
const LISTED_ENTRIES = 20;

/**
 * Downloads artifact `artifactId` and returns the text of its results file.
 *
 * GitHub answers the download with a 302 to a short-lived signed storage URL on another host.
 * The redirect is not left to fetch: the storage URL is requested separately and without the
 * token, with its own choice of proxy (the storage host is not the API host), whatever fetch
 * implementation octokit was given, and the signed query (a credential itself) never appears in
 * a message.
 */
export async function downloadBaseline(
  octokit: Octokit,
  target: BaselineTarget,
  artifactId: number,
  options: DownloadBaselineOptions = {},
): Promise<DownloadBaselineResult> {
  const what = `download the baseline artifact ${artifactId}`;
  let archive: Buffer;
  try {
    const response = await octokit.rest.actions.downloadArtifact({
      owner: target.owner,
      repo: target.repo,
      artifact_id: artifactId,
      archive_format: 'zip',
      request: { redirect: 'manual' },
    });
    const status: number = response.status;
    const location: unknown = response.headers.location;
    const data: unknown = response.data;
    if (status >= 300 && status < 400 && typeof location === 'string' && location !== '') {
      const fetched = await fetchArchive(location, response.url, what, options);
      if ('failure' in fetched) return { ok: false, failure: fetched.failure };
      archive = fetched.archive;
    } else if (status === 200 && data instanceof ArrayBuffer) {
      // A fetch that ignores `redirect: 'manual'` followed the redirect itself.
      archive = Buffer.from(data);
    } else {
      return {
        ok: false,
        failure: {
          code: 'github.failed',
          status,
          message: `could not ${what}: GitHub answered ${status} without a download location`,
        },
      };
    }
  } catch (error) {
    return { ok: false, failure: await downloadFailure(octokit, error, what) };
  }

  let entries: ZipEntry[];
  try {
    entries = await readZipEntries(archive);
  } catch (error) {
    if (!(error instanceof ZipError)) throw error;
    return {
      ok: false,
      failure: {
        code: 'github.failed',
        message: `could not read the baseline artifact ${artifactId}: ${error.message}`,
      },
    };
  }

  const picked = pickResultsEntry(entries, options.fileName);
  if ('problem' in picked) {
    return {
      ok: false,
      failure: {
        code: 'github.failed',
        message: `the baseline artifact ${artifactId} ${picked.problem}`,
      },
    };
  }
  let text: string;
  try {
    // TextDecoder drops a leading byte order mark, which JSON.parse would reject.
    text = new TextDecoder('utf-8', { fatal: true }).decode(picked.entry.data);
  } catch {
    return {
      ok: false,
      failure: {
        code: 'github.failed',
        message: `the baseline artifact ${artifactId}: "${picked.entry.name}" is not UTF-8 text`,
      },
    };
  }
  return { ok: true, text, entry: picked.entry.name };
}

/**
 * Fetches the archive from the storage URL GitHub redirected to: no Authorization header,
 * through the runner's proxy when HTTPS_PROXY, HTTP_PROXY and NO_PROXY say so for the storage
 * host (`proxy-fetch.ts`), bounded in time and size.
 */
async function fetchArchive(
  location: string,
  requestUrl: string,
  what: string,
  options: DownloadBaselineOptions,
): Promise<{ archive: Buffer } | { failure: ReportingFailure }> {
  const maxBytes = options.maxArchiveBytes ?? DEFAULT_MAX_ARCHIVE_BYTES;
  let url: URL;
  try {
    url = new URL(location, requestUrl);
  } catch {
    return {
      failure: {
        code: 'github.failed',
        message: `could not ${what}: GitHub redirected to an invalid URL`,
      },
    };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return {
      failure: {
        code: 'github.failed',
        message: `could not ${what}: GitHub redirected to a ${url.protocol} URL`,
      },
    };
  }
  // The query string is the signature that grants access: keep it out of logs.
  const where = `${url.origin}${url.pathname}`;
  // Not octokit's fetch: its proxy was chosen for the API host, and NO_PROXY may say otherwise
  // of the storage host.
  const fetchImpl = proxyFetchFor(url.href);
  const clock = downloadClock(options.budget ?? new RetryBudget());
  try {
    return await readArchive(fetchImpl, url, where, what, maxBytes, clock);
  } finally {
    clock.stop();
  }
}

/** The storage download's request and body, under `clock`'s timeouts. */
async function readArchive(
  fetchImpl: typeof globalThis.fetch,
  url: URL,
  where: string,
  what: string,
  maxBytes: number,
  clock: DownloadClock,
): Promise<{ archive: Buffer } | { failure: ReportingFailure }> {
  let response: Response;
  try {
    response = await fetchImpl(url.href, {
      method: 'GET',
      redirect: 'follow',
      signal: clock.signal,
    });
  } catch (error) {
    const why = clock.gaveUp() ?? describeError(error);
    return {
      failure: {
        code: 'github.unavailable',
        message: `could not ${what}: no answer from the artifact storage ${where} (${why})`,
      },
    };
  }
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    return {
      failure: {
        code: response.status >= 500 ? 'github.unavailable' : 'github.failed',
        status: response.status,
        message: `could not ${what}: the artifact storage answered ${response.status} for ${where}${
          response.status === 403 ? ' (the download link is only valid for a minute)' : ''
        }`,
      },
    };
  }
  const tooLarge: ReportingFailure = {
    code: 'github.failed',
    message: `could not ${what}: the archive is larger than ${maxBytes} bytes; refusing it`,
  };
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return { failure: tooLarge };
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    const body = (response.body ?? []) as AsyncIterable<Uint8Array>;
    clock.progressed();
    for await (const chunk of body) {
      clock.progressed();
      total += chunk.byteLength;
      // Counted as it arrives: a missing or lying Content-Length must not bypass the cap.
      // Leaving the loop cancels the stream, which closes the connection.
      if (total > maxBytes) return { failure: tooLarge };
      chunks.push(chunk);
    }
  } catch (error) {
    return {
      failure: {
        code: 'github.unavailable',
        message: `could not ${what}: the download from ${where} broke off (${clock.gaveUp() ?? describeError(error)})`,
      },
    };
  }
  return { archive: Buffer.concat(chunks) };
}

/** The storage download's timeouts: its abort signal, told of each piece that arrives. */
interface DownloadClock {
  signal: AbortSignal;
  /** A piece of the answer arrived: the wait for the next one starts over. */
  progressed(): void;
  /** Why the download was given up, when it was. */
  gaveUp(): string | null;
  stop(): void;
}

/**
 * Gives up on the download when nothing arrives for {@link ATTEMPT_TIMEOUT_SECONDS} (no answer,
 * or a body that stalls), charging that wait to `budget` like a timed-out request; a download
 * that keeps arriving goes on past that time only while `budget` grants it, a second at a time.
 * So a storage host that never answers costs 20 s plus what is left of the budget at most.
 */
function downloadClock(budget: RetryBudget): DownloadClock {
  // Never below two real seconds, however much a test shortens the waits (as in octokit.ts).
  const attemptMs = Math.max(ATTEMPT_TIMEOUT_SECONDS * budget.secondMs, 2000);
  const abort = new AbortController();
  let reason: string | null = null;
  let overtime: ReturnType<typeof setInterval> | undefined;
  let started = false;
  const giveUp = (why: string): void => {
    reason ??= why;
    abort.abort();
  };
  const waitFor = (what: string): ReturnType<typeof setTimeout> =>
    setTimeout(() => {
      // Past the attempt's time the seconds are already charged, one by one.
      if (overtime === undefined) budget.spend(attemptMs);
      giveUp(`${what} within ${ATTEMPT_TIMEOUT_SECONDS} s`);
    }, attemptMs);
  let idle = waitFor('no answer');
  let seconds = 0;
  const attempt = setTimeout(() => {
    overtime = setInterval(() => {
      seconds += 1;
      if (!budget.take(budget.secondMs)) {
        giveUp(
          `still downloading after ${ATTEMPT_TIMEOUT_SECONDS + seconds} s: ${budget.describe()}`,
        );
      }
    }, budget.secondMs);
  }, attemptMs);
  return {
    signal: abort.signal,
    progressed() {
      clearTimeout(idle);
      idle = waitFor(started ? 'nothing more arrived' : 'no data arrived');
      started = true;
    },
    gaveUp: () => reason,
    stop() {
      clearTimeout(idle);
      clearTimeout(attempt);
      clearInterval(overtime);
    },
  };
}

/** A failed download call as a failure; an expired artifact (410) counts as not found. */
async function downloadFailure(
  octokit: Octokit,
  error: unknown,
  what: string,
): Promise<ReportingFailure> {
  const status = httpStatus(error);
  if (status === 404 || status === 410) {
    const said = githubSaid(error);
    const reason = said === '' ? String(status) : `${status} ${said}`;
    const hint =
      status === 410
        ? 'the artifact has expired; the next run on the base branch uploads a new one'
        : 'the artifact was deleted, or the token cannot see this repository';
    return { code: 'github.not-found', status, message: `could not ${what}: ${reason} (${hint})` };
  }
  return refusalOf(octokit, error, what, PERMISSION);
}

/**
 * The results file: `fileName` by full path or unique base name; by default the only `.json`
 * entry, or the one named `evals-results.json` among several.
 */
function pickResultsEntry(
  entries: ZipEntry[],
  fileName: string | undefined,
): { entry: ZipEntry } | { problem: string } {
  const listing = describeEntries(entries);
  if (fileName !== undefined) {
    const exact = entries.find((entry) => entry.name === fileName);
    if (exact) return { entry: exact };
    const byBase = entries.filter((entry) => baseName(entry.name) === baseName(fileName));
    if (byBase.length === 1 && byBase[0]) return { entry: byBase[0] };
    return byBase.length > 1
      ? { problem: `holds several files named "${baseName(fileName)}": ${listing}` }
      : { problem: `holds no "${fileName}"; it holds ${listing}` };
  }
  const json = entries.filter((entry) => entry.name.toLowerCase().endsWith('.json'));
  if (json.length === 1 && json[0]) return { entry: json[0] };
  const named = json.filter((entry) => baseName(entry.name) === DEFAULT_RESULTS_FILE);
  if (named.length === 1 && named[0]) return { entry: named[0] };
  if (json.length === 0) return { problem: `holds no .json results file; it holds ${listing}` };
  return {
    problem: `holds several .json files and no single "${DEFAULT_RESULTS_FILE}" among them: ${listing}; name the file to use`,
  };
}

function describeEntries(entries: ZipEntry[]): string {
  if (entries.length === 0) return 'no files';
  const shown = entries.slice(0, LISTED_ENTRIES).map((entry) => `"${entry.name}"`);
  const more = entries.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * GitHub's `message` from an octokit error's body, on one line, scrubbed of the process's secrets
 * and then cut to 300 characters (scrubbed first: see `scrubGitHubText`); '' when there is none.
 */
function githubSaid(error: unknown): string {
  const data = (error as { response?: { data?: unknown } }).response?.data;
  const message =
    typeof data === 'object' && data !== null ? (data as { message?: unknown }).message : undefined;
  if (typeof message !== 'string') return '';
  return scrubGitHubText(message.replace(/\s+/g, ' ').trim()).slice(0, 300);
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.name === 'TimeoutError' ? 'timed out' : error.message}${cause}`;
  }
  return String(error);
}
