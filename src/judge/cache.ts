/**
 * The on-disk cache of judge and embedding responses. A judge at temperature 0 asked the same
 * thing gives (near enough) the same answer, so a re-run of an unchanged suite should cost
 * nothing. Only successful, well-formed responses are stored: an error is never replayed, nor
 * a judge's answer it cannot use (see `forced-call.ts`), which a retry may well get right. The
 * trials of a case (`trials: N`) are separate samples, so each trial has its own entries.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { canonicalJson } from '../shared/canonical-json.ts';

/** Bumped when the entry shape changes; entries of another version are misses. */
const CACHE_FORMAT = 1;

/**
 * What identifies a call: the server, the model, the full request body and the trial it was
 * made for. Headers — the API key above all — are deliberately not part of it, so rotating a
 * key keeps the cache and the key never reaches the disk.
 */
export interface CacheKeyInput {
  baseUrl: string;
  model: string;
  body: unknown;
  /**
   * The request headers that may change the answer (a gateway picks a route by a header), as
   * sorted `[name, value]` pairs; credential headers stay out, like the key. Hashed, never stored.
   */
  headers?: readonly (readonly [string, string])[];
  /**
   * The trial (1-based) of the case the call was made for (`trials: N`). Every trial sends the
   * same request, yet each must be its own sample: trials after the first get keys of their
   * own. Trial 1 (or none) keeps the key of a run without trials, so existing caches still hit.
   */
  trial?: number;
}

/**
 * The cache key: sha256 (hex) of the canonical JSON of `{ baseUrl, model, body }`, with
 * `headers` added when there are any and `trial` for a trial after the first, so a request
 * without either keeps the key it always had.
 */
export function cacheKey(input: CacheKeyInput): string {
  const { baseUrl, model, body, headers, trial } = input;
  const identity = {
    baseUrl,
    model,
    body,
    ...(headers !== undefined && headers.length > 0 ? { headers } : {}),
    ...(trial !== undefined && trial > 1 ? { trial } : {}),
  };
  return createHash('sha256').update(canonicalJson(identity)).digest('hex');
}

/**
 * A cached answer, with how long the call that got it took (`latencyMs`, from its first attempt
 * to the answer): a `model` target's output served from the cache is timed by it. Absent in an
 * entry an earlier evalgate wrote.
 */
export interface CacheEntry {
  value: unknown;
  latencyMs?: number;
}

/** A response cache; `get` answers undefined on a miss. */
export interface ResponseCache {
  get(key: string): Promise<CacheEntry | undefined>;
  set(key: string, value: unknown, latencyMs?: number): Promise<void>;
}

/**
 * A cache in `dir`, one file per entry at `dir/<first 2 hex>/<key>.json` (the fan-out keeps
 * directories small for `actions/cache` and for humans). Reads of a missing, unreadable or
 * corrupt file are misses — the next successful call overwrites it. Writes go to a temp file
 * renamed into place, so a concurrent reader or a killed run never sees half an entry. Write
 * failures are swallowed: a full disk must not turn a good judge answer into an error.
 */
export function createFileCache(
  dir: string,
  onUnwritable?: (message: string) => void,
): ResponseCache {
  const pathOf = (key: string): string => join(dir, key.slice(0, 2), `${key}.json`);
  return {
    async get(key) {
      let text: string;
      try {
        text = await readFile(pathOf(key), 'utf8');
      } catch {
        return undefined;
      }
      try {
        const entry = JSON.parse(text) as unknown;
        if (
          typeof entry === 'object' &&
          entry !== null &&
          (entry as { format?: unknown }).format === CACHE_FORMAT &&
          (entry as { key?: unknown }).key === key &&
          'value' in entry
        ) {
          const { latencyMs } = entry as { latencyMs?: unknown };
          const timed =
            typeof latencyMs === 'number' && Number.isFinite(latencyMs) && latencyMs >= 0;
          return { value: entry.value, ...(timed ? { latencyMs } : {}) };
        }
      } catch {
        // corrupt: fall through to a miss
      }
      return undefined;
    },
    async set(key, value, latencyMs) {
      const file = pathOf(key);
      const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await mkdir(join(dir, key.slice(0, 2)), { recursive: true });
        await writeFile(
          temp,
          `${JSON.stringify({ format: CACHE_FORMAT, key, value, ...(latencyMs !== undefined ? { latencyMs } : {}) })}\n`,
        );
        await rename(temp, file);
      } catch (error) {
        await rm(temp, { force: true }).catch(() => undefined);
        // A cache that cannot be written is no reason to fail a call, but a run that calls the
        // model every time, believing it cached, should hear of it.
        const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        onUnwritable?.(
          `cannot write the response cache in ${dir} (${reason}): model calls are not cached`,
        );
      }
    },
  };
}
