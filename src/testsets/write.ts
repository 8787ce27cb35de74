import type { RowMeta, TestsetRow } from '../types/index.ts';
import type { TestsetFormat } from './formats.ts';
import { DATA_DEDUP_KEY, decodeJsonText, isReservedKey, isSpace, setDataKey } from './rows.ts';

/** Options of {@link serializeTestset}. */
export interface SerializeOptions {
  /**
   * How a row's dedup id is written: `column` as `__dedup_id__` (Agenta's CSV column), `data` as
   * `testcase_dedup_id` (Agenta's JSON-payload key). Readers accept both. Default: `column` for
   * CSV, `data` for JSON and JSONL.
   */
  dedupStyle?: 'column' | 'data';
}

/** Something in a row that the target format would not give back as it is. */
export interface SerializeProblem {
  /** 0-based index of the row in the list given; -1 for a problem of the whole testset. */
  row: number;
  /** The row's source line (`TestsetRow.line`); 0 for a problem of the whole testset. */
  line: number;
  /** The data key or metadata column concerned (as written); '' for the whole row or file. */
  field: string;
  /** What the value is and what it would read back as. */
  message: string;
}

/**
 * The testset's text, or the problems that stop it from reading back unchanged. `text` is there
 * in both cases: on failure it is what the writer produced anyway (each problem says what it
 * changes), for a caller that chooses to accept those changes; most callers should refuse.
 */
export type SerializeResult =
  { ok: true; text: string } | { ok: false; problems: SerializeProblem[]; text: string };

/**
 * Text of `rows` in `format`, such that `parseTestset(text, format)` gives rows with the same
 * data and metadata, in the same order (the revision is over the ordered content ids), hence the
 * same content ids, case ids and revision. Source lines are not kept: they belong to the file
 * the rows were read from.
 *
 * - CSV: a header of the data keys in first-seen order, then the metadata columns that are
 *   non-empty in some row (`__id__`, `__dedup_id__`, `__flags__`, `__tags__`, `__meta__`); arrays
 *   and objects as their JSON text; LF line ends and a final newline. Only strings, arrays and
 *   objects survive a CSV cell, and every row must have every key: anything else is a problem.
 * - JSON: an array of row objects, 2-space indented. JSONL: one compact object per line. Each
 *   object is the row's data followed by its metadata keys, present ones only.
 *
 * Problems are collected, never thrown: values JSON cannot hold, data keys readers would take for
 * metadata, metadata readers would normalise (untrimmed ids and tags, empty values), and the CSV
 * losses above.
 */
export function serializeTestset(
  rows: TestsetRow[],
  format: TestsetFormat,
  options: SerializeOptions = {},
): SerializeResult {
  const style = options.dedupStyle ?? (format === 'csv' ? 'column' : 'data');
  const dedupColumn = style === 'data' ? DATA_DEDUP_KEY : '__dedup_id__';
  const problems: SerializeProblem[] = [];
  const written = rows.map((row, index) =>
    writtenRow(row, format, dedupColumn, (field, message) =>
      problems.push({ row: index, line: row.line, field, message }),
    ),
  );

  let text: string;
  if (format === 'csv') {
    text = csvText(rows, written, problems);
  } else if (format === 'json') {
    text = `${JSON.stringify(written.map(rowObject), null, 2)}\n`;
  } else {
    text = written.map((row) => `${JSON.stringify(rowObject(row))}\n`).join('');
  }
  if (problems.length === 0) return { ok: true, text };
  // Header problems are found after the row checks; list everything in file order.
  problems.sort((a, b) => a.row - b.row);
  return { ok: false, problems, text };
}

/** A row as it will be written: data and metadata made JSON-safe, in output order. */
interface WrittenRow {
  data: Record<string, unknown>;
  /** Metadata keys (as written: `__tags__`, `testcase_dedup_id`, …) and their JSON values. */
  meta: [column: string, value: unknown][];
}

type Report = (field: string, message: string) => void;

/** Reports a problem of the metadata field being checked; the message follows its name. */
type Say = (message: string) => void;

/** Metadata columns in output order, with the `RowMeta` field each one holds. */
const META_ORDER = [
  ['__id__', 'id'],
  ['__dedup_id__', 'dedupId'],
  ['__flags__', 'flags'],
  ['__tags__', 'tags'],
  ['__meta__', 'meta'],
] as const satisfies readonly (readonly [string, keyof RowMeta])[];

const CONTENT = "changing the row's content id";
const CSV_CONTENT = `a CSV cell would read back as`;

function writtenRow(
  row: TestsetRow,
  format: TestsetFormat,
  dedupColumn: string,
  report: Report,
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
      else setDataKey(data, key, safe);
    }
  }

  const meta: [string, unknown][] = [];
  for (const [column, field] of META_ORDER) {
    const value = row.meta[field];
    if (value === undefined) continue;
    const name = field === 'dedupId' ? dedupColumn : column;
    const say: Say = (message) => report(name, `${name} ${message}`);
    let safe: unknown;
    if (field === 'id' || field === 'dedupId') safe = checkId(value, field, say);
    else if (field === 'tags') safe = checkTags(value, say);
    else safe = checkStructured(value, format, say);
    if (safe !== DROP) meta.push([name, safe]);
  }
  return { data, meta };
}

function copyData(data: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(data)) setDataKey(copy, key, data[key]);
  return copy;
}

/** `at a.b[2] ` when a problem is nested inside a field, else nothing. */
function atPath(path: string, key: string): string {
  return path === key ? '' : `at ${path} `;
}

/** `__id__` and the dedup id: readers trim ids and treat an empty one as absent. */
function checkId(value: unknown, field: 'id' | 'dedupId', say: Say): unknown {
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
  say(`is ${kindOf(value)}: readers accept only a string, so the file would not read back`);
  return jsonValue(value, '', () => undefined);
}

/** `__tags__`: readers keep a list of trimmed, non-empty strings, and drop an empty list. */
function checkTags(value: unknown, say: Say): unknown {
  if (!Array.isArray(value)) {
    say(`is ${kindOf(value)}: readers expect a list of strings`);
    return jsonValue(value, '', () => undefined);
  }
  if (value.length === 0) {
    say('is an empty list: readers treat it as no tags');
  }
  for (let i = 0; i < value.length; i++) {
    const tag: unknown = value[i];
    if (typeof tag !== 'string') {
      say(`item ${i} is ${kindOf(tag)}: readers accept only strings as tags`);
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
function checkStructured(value: unknown, format: TestsetFormat, say: Say): unknown {
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
          `is the text ${quoteShort(value)}, which holds JSON: readers would decode it into ${Array.isArray(decoded) ? 'an array' : 'an object'}, ${consequence}`,
        );
      }
    }
    return value;
  }
  if (format === 'csv' && (typeof value === 'number' || typeof value === 'boolean')) {
    say(
      `is ${kindOf(value)}: ${CSV_CONTENT} the string ${JSON.stringify(String(value))}, ${consequence}`,
    );
  }
  return jsonValue(value, '', (path, what) =>
    say(`${path === '' ? '' : `at ${path} `}${what}, ${consequence}`),
  );
}

/** Marks a value JSON leaves out (an object key dropped, an array item written as null). */
const DROP = Symbol('drop');

/**
 * `value` as JSON text would give it back: the value itself when it is plain JSON data (the
 * common case: no copy), else a copy with each difference reported at its path.
 *
 * Readers only ever produce plain JSON, but rows can also come from code, where `undefined`,
 * `NaN` or a `Date` slip in; writing those silently would change the data on the way through.
 */
function jsonValue(
  value: unknown,
  path: string,
  report: (path: string, what: string) => void,
  ancestors: object[] = [],
): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (Number.isFinite(value)) return value;
      report(path, `holds ${String(value)}, which JSON writes as null`);
      return null;
    case 'bigint':
      report(
        path,
        `holds the bigint ${value}n, which JSON cannot hold: it would be written as the string "${value}"`,
      );
      return value.toString();
    case 'undefined':
    case 'function':
    case 'symbol':
      report(path, `holds ${kindOf(value)}, which JSON leaves out`);
      return DROP;
    default:
      break;
  }
  if (value === null) return null;
  const object = value as object;
  if (ancestors.includes(object)) {
    report(path, 'holds a circular reference, which JSON cannot hold: it would be written as null');
    return null;
  }
  if (Array.isArray(object)) {
    const items: unknown[] = object;
    let copy: unknown[] | null = null;
    ancestors.push(object);
    for (let i = 0; i < items.length; i++) {
      const itemPath = `${path}[${i}]`;
      if (!(i in items)) {
        report(itemPath, 'is a hole in the array, which JSON writes as null');
        copy ??= items.slice(0, i);
        copy.push(null);
        continue;
      }
      const item = items[i];
      const safe = jsonValue(item, itemPath, report, ancestors);
      if (safe !== item && copy === null) copy = items.slice(0, i);
      if (copy !== null) copy.push(safe === DROP ? null : safe);
    }
    ancestors.pop();
    return copy ?? object;
  }
  const proto: unknown = Object.getPrototypeOf(object);
  if (proto !== Object.prototype && proto !== null) {
    const name = (object.constructor as { name?: unknown } | undefined)?.name;
    report(
      path,
      `holds ${typeof name === 'string' && name !== '' ? `a ${name} object` : 'a class instance'}, which is not plain JSON data: it would be written as its JSON text`,
    );
    try {
      return JSON.parse(JSON.stringify(object) ?? 'null') as unknown;
    } catch {
      return null;
    }
  }
  const record = object as Record<string, unknown>;
  let copy: Record<string, unknown> | null = null;
  ancestors.push(object);
  const keys = Object.keys(record);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] ?? '';
    const child = record[key];
    const safe = jsonValue(child, path === '' ? key : `${path}.${key}`, report, ancestors);
    if (safe !== child && copy === null) {
      copy = {};
      for (let j = 0; j < i; j++) {
        const before = keys[j] ?? '';
        setDataKey(copy, before, record[before]);
      }
    }
    if (copy !== null && safe !== DROP) setDataKey(copy, key, safe);
  }
  ancestors.pop();
  return copy ?? object;
}

/** `the number 3`, `the boolean true`, `null`, `an array`… for messages. */
function kindOf(value: unknown): string {
  switch (typeof value) {
    case 'number':
      return `the number ${String(value)}`;
    case 'boolean':
      return `the boolean ${String(value)}`;
    case 'string':
      return `the string ${quoteShort(value)}`;
    case 'bigint':
      return `the bigint ${value}n`;
    case 'undefined':
      return 'undefined';
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    default:
      return value === null ? 'null' : Array.isArray(value) ? 'an array' : 'an object';
  }
}

/** A string as JSON, shortened: messages quote the bad value without printing a whole essay. */
function quoteShort(text: string): string {
  const quoted = JSON.stringify(text);
  return quoted.length > 60 ? `${quoted.slice(0, 57)}..."` : quoted;
}

/** The JSON/JSONL object of a row: its data, then its metadata keys. */
function rowObject(row: WrittenRow): Record<string, unknown> {
  // Spreading defines properties, so a `__proto__` data key stays a plain key.
  const object: Record<string, unknown> = { ...row.data };
  for (const [column, value] of row.meta) object[column] = value;
  return object;
}

// ---------------------------------------------------------------------------------------------
// CSV
// ---------------------------------------------------------------------------------------------

/** Lone surrogates: fine in a JS string, replaced by U+FFFD when the text is saved as UTF-8. */
const LONE_SURROGATE = /\p{Cs}/u;
const NEEDS_QUOTES = /[",\r\n]/;

/** A CSV cell: quoted when it holds a delimiter, a quote, a line break, or edge spaces. */
function csvCell(text: string): string {
  if (text === '') return '';
  const quote =
    NEEDS_QUOTES.test(text) ||
    isSpace(text.charCodeAt(0)) ||
    isSpace(text.charCodeAt(text.length - 1));
  return quote ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvText(rows: TestsetRow[], written: WrittenRow[], problems: SerializeProblem[]): string {
  // Data columns in first-seen order; where each first appears, for header problems.
  const firstRow = new Map<string, number>();
  written.forEach((row, index) => {
    for (const key of Object.keys(row.data)) if (!firstRow.has(key)) firstRow.set(key, index);
  });
  const dataColumns = [...firstRow.keys()];

  // Metadata cells per row; a column is written only when some row has something in it.
  const metaCells = written.map((row) => {
    const cells = new Map<string, string>();
    for (const [column, value] of row.meta) cells.set(column, metaCellText(value));
    return cells;
  });
  const metaColumns: string[] = [];
  for (const column of [
    '__id__',
    '__dedup_id__',
    DATA_DEDUP_KEY,
    '__flags__',
    '__tags__',
    '__meta__',
  ]) {
    if (metaCells.some((cells) => (cells.get(column) ?? '') !== '')) metaColumns.push(column);
  }

  const report = (index: number, field: string, message: string): void => {
    problems.push({ row: index, line: rows[index]?.line ?? 0, field, message });
  };

  for (const [key, index] of firstRow) {
    if (key.trim() === '') {
      report(
        index,
        key,
        `field ${JSON.stringify(key)} has a blank name: a CSV header column needs a name`,
      );
    } else if (key.trim() !== key) {
      report(
        index,
        key,
        `field ${JSON.stringify(key)} has spaces around its name: CSV readers trim column names, so it would read back as ${JSON.stringify(key.trim())} in every row`,
      );
    }
    if (LONE_SURROGATE.test(key)) {
      report(index, key, `field name ${JSON.stringify(key)} ${SURROGATE_LOSS}`);
    }
  }
  if (rows.length === 0) {
    problems.push({
      row: -1,
      line: 0,
      field: '',
      message:
        'the testset has no rows, so no columns: a CSV file needs a header row, and an empty one reads back as an error',
    });
  }

  const lines: string[] = [];
  lines.push([...dataColumns, ...metaColumns].map(csvCell).join(','));
  written.forEach((row, index) => {
    const original = rows[index]?.data ?? {};
    const cells: string[] = [];
    for (const key of dataColumns) {
      const text = dataCellText(key, original, row.data, (message) => report(index, key, message));
      cells.push(text);
    }
    const rowMeta = metaCells[index] ?? new Map<string, string>();
    for (const column of metaColumns) {
      const text = rowMeta.get(column) ?? '';
      if (LONE_SURROGATE.test(text)) report(index, column, `${column} ${SURROGATE_LOSS}`);
      cells.push(text);
    }
    if (cells.every((cell) => cell.trim() === '')) {
      report(
        index,
        '',
        'every cell of this row would be empty or blank: CSV readers skip such a row, so it would be lost and the revision would change',
      );
    }
    lines.push(cells.map(csvCell).join(','));
  });
  return `${lines.join('\n')}\n`;
}

const SURROGATE_LOSS =
  'holds a lone surrogate (broken UTF-16), which a UTF-8 CSV file cannot hold: it would be saved as U+FFFD';

/**
 * The text of a data cell, reporting what would not read back: a missing key, a value that is not
 * text, an array or an object, and text the reader would decode as JSON.
 */
function dataCellText(
  key: string,
  original: Record<string, unknown>,
  data: Record<string, unknown>,
  report: (message: string) => void,
): string {
  const field = `field ${JSON.stringify(key)}`;
  if (!Object.hasOwn(data, key)) {
    // A key written as undefined was already reported by the JSON check.
    if (!Object.hasOwn(original, key)) {
      report(
        `${field} is missing from this row (other rows have it): ${CSV_CONTENT} the empty string "", ${CONTENT}`,
      );
    }
    return '';
  }
  const value = data[key];
  if (typeof value === 'string') {
    const decoded = decodeJsonText(value);
    if (decoded !== value) {
      report(
        `${field} is the text ${quoteShort(value)}, which holds JSON: ${CSV_CONTENT} ${Array.isArray(decoded) ? 'an array' : 'an object'}, ${CONTENT}`,
      );
    }
    if (LONE_SURROGATE.test(value)) report(`${field} ${SURROGATE_LOSS}`);
    return value;
  }
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  // What is left after the JSON check: a number, a boolean or null.
  const text = typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
  report(
    `${field} is ${kindOf(value)}: ${CSV_CONTENT} the string ${JSON.stringify(text)}, ${CONTENT}`,
  );
  return text;
}

/** A metadata cell: text as it is, anything else as its JSON text (readers decode it back). */
function metaCellText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  return JSON.stringify(value) ?? '';
}
