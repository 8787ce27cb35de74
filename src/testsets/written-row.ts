/**
 * A testset row as the writer will write it: its data and metadata made JSON-safe, each value
 * checked for what a reader would give back differently (a data key named like a metadata column,
 * an untrimmed id or tag, text that holds JSON, …).
 */
import type { RowMeta, TestsetRow } from '../types/index.ts';
import type { TestsetFormat } from './formats.ts';
import { DROP, jsonValue, kindOf, quoteShort, type Scrub } from './json-safe.ts';
import { decodeJsonText, isReservedKey, META_COLUMNS, type MetaColumn } from './rows.ts';
import { setOwn } from '../shared/own-key.ts';

/** A row as it will be written: data and metadata made JSON-safe, in output order. */
export interface WrittenRow {
  data: Record<string, unknown>;
  /** Metadata keys (as written: `__tags__`, `testcase_dedup_id`, …) and their JSON values. */
  meta: [column: string, value: unknown][];
}

/** Reports a problem of the row being written: the data key or metadata column, and what. */
export type Report = (field: string, message: string) => void;

/** Reports a problem of the metadata field being checked; the message follows its name. */
type Say = (message: string) => void;

/**
 * Metadata columns in output order, with the `RowMeta` field each one holds: the readers' own
 * table, whose order (`__id__`, `__dedup_id__`, `__flags__`, `__tags__`, `__meta__`) is the order
 * they are written in.
 */
export const META_ORDER = Object.entries(META_COLUMNS) as [MetaColumn, keyof RowMeta][];

/** How a problem message ends when the change would give the row another content id. */
export const CONTENT = "changing the row's content id";
/** How a message says what a CSV cell gives back instead: `… the string "3"`. */
export const CSV_CONTENT = `a CSV cell would read back as`;

/**
 * `row` as it will be written in `format`, the dedup id under `dedupColumn`; what would not read
 * back as it is goes to `report`, a value it quotes short scrubbed with `scrub` first.
 */
export function writtenRow(
  row: TestsetRow,
  format: TestsetFormat,
  dedupColumn: string,
  report: Report,
  scrub: Scrub,
): WrittenRow {
  let data = row.data;
  let copied = false;
  for (const key of Object.keys(row.data)) {
    if (isReservedKey(key)) {
      report(
        key,
        `field ${JSON.stringify(key)} has the name of a metadata column: readers would take it out of the data, ${CONTENT}`,
      );
    }
    const value = row.data[key];
    // Most cells are text: skip the walk and its closure.
    if (typeof value === 'string') continue;
    const safe = jsonValue(value, key, (path, what) =>
      report(key, `field ${JSON.stringify(key)} ${atPath(path, key)}${what}, ${CONTENT}`),
    );
    if (safe !== value) {
      // Copy on write: rows are almost always plain JSON already and are written as given.
      if (!copied) {
        data = copyData(row.data);
        copied = true;
      }
      if (safe === DROP) delete data[key];
      else setOwn(data, key, safe);
    }
  }

  const meta: [string, unknown][] = [];
  for (const [column, field] of META_ORDER) {
    const value = row.meta[field];
    if (value === undefined) continue;
    const name = field === 'dedupId' ? dedupColumn : column;
    const say: Say = (message) => report(name, `${name} ${message}`);
    let safe: unknown;
    if (field === 'id' || field === 'dedupId') safe = checkId(value, field, say, scrub);
    else if (field === 'tags') safe = checkTags(value, say, scrub);
    else safe = checkStructured(value, format, say, scrub);
    if (safe !== DROP) meta.push([name, safe]);
  }
  return { data, meta };
}

function copyData(data: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(data)) setOwn(copy, key, data[key]);
  return copy;
}

/**
 * `at a.b[2] ` when a problem is nested inside the value whose own path is `key` ('' for a
 * metadata value), else nothing.
 */
function atPath(path: string, key: string): string {
  return path === key ? '' : `at ${path} `;
}

/** `__id__` and the dedup id: readers trim ids and treat an empty one as absent. */
function checkId(value: unknown, field: 'id' | 'dedupId', say: Say, scrub: Scrub): unknown {
  const consequence =
    field === 'dedupId'
      ? "changing the case's identity"
      : 'changing the metadata kept for round trips';
  if (typeof value === 'string') {
    if (value.trim() === '') {
      say(`is ${JSON.stringify(value)}: readers treat an empty id as absent, ${consequence}`);
    } else if (value.trim() !== value) {
      say(
        `${JSON.stringify(value)} has spaces around it: readers trim ids, so it would read back as ${JSON.stringify(value.trim())}, ${consequence}`,
      );
    }
    return value;
  }
  if (typeof value === 'number' && Number.isFinite(value)) {
    say(`is the number ${value}: readers give ids back as text ("${value}")`);
    return value;
  }
  say(`is ${kindOf(value, scrub)}: readers accept only a string, so the file would not read back`);
  return jsonValue(value, '', () => undefined);
}

/** `__tags__`: readers keep a list of trimmed, non-empty strings, and drop an empty list. */
function checkTags(value: unknown, say: Say, scrub: Scrub): unknown {
  if (!Array.isArray(value)) {
    say(`is ${kindOf(value, scrub)}: readers expect a list of strings`);
    return jsonValue(value, '', () => undefined);
  }
  if (value.length === 0) {
    say('is an empty list: readers treat it as no tags');
  }
  for (let i = 0; i < value.length; i++) {
    const tag: unknown = value[i];
    if (typeof tag !== 'string') {
      say(`item ${i} is ${kindOf(tag, scrub)}: readers accept only strings as tags`);
    } else if (tag.trim() === '') {
      say(`item ${i} is ${JSON.stringify(tag)}: readers drop empty tags`);
    } else if (tag.trim() !== tag) {
      say(
        `item ${i} ${JSON.stringify(tag)} has spaces around it: readers trim tags, so it would read back as ${JSON.stringify(tag.trim())}`,
      );
    }
  }
  return jsonValue(value, '', () => undefined);
}

/**
 * `__flags__` / `__meta__`: free-form, but readers drop `null` and blank text and decode text
 * holding a JSON array or object, and a CSV cell gives back only text, arrays and objects.
 */
function checkStructured(value: unknown, format: TestsetFormat, say: Say, scrub: Scrub): unknown {
  const consequence = "changing the row's metadata";
  if (value === null) {
    say(`is null: readers treat null as absent, ${consequence}`);
    return DROP;
  }
  if (typeof value === 'string') {
    if (value.trim() === '') {
      say(`is ${JSON.stringify(value)}: readers treat blank text as absent, ${consequence}`);
    } else {
      const decoded = decodeJsonText(value);
      if (decoded !== value) {
        say(
          `is the text ${quoteShort(value, scrub)}, which holds JSON: readers would decode it into ${Array.isArray(decoded) ? 'an array' : 'an object'}, ${consequence}`,
        );
      }
    }
    return value;
  }
  if (format === 'csv' && (typeof value === 'number' || typeof value === 'boolean')) {
    say(
      `is ${kindOf(value, scrub)}: ${CSV_CONTENT} the string ${JSON.stringify(String(value))}, ${consequence}`,
    );
  }
  return jsonValue(value, '', (path, what) => say(`${atPath(path, '')}${what}, ${consequence}`));
}
