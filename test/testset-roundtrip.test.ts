/**
 * Property test of the testset writers against the readers: random testsets go through
 * CSV → JSON → JSONL → CSV and must keep their data, metadata, case ids, content ids and revision
 * at every step. The PRNG is seeded, so a failure names its seed and case and reproduces; set
 * ROUNDTRIP_SEED to explore other seeds (ROUNDTRIP_CASES for more cases).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mulberry32 } from '../src/compare/sign-flip.ts';
import { parseTestset, type TestsetFormat } from '../src/testsets/formats.ts';
import { prepareCases } from '../src/testsets/identity.ts';
import { decodeJsonText, isReservedKey } from '../src/testsets/rows.ts';
import { serializeTestset, type SerializeOptions } from '../src/testsets/write.ts';
import type { RowMeta, TestsetRow } from '../src/types/index.ts';

const SEED = Number(process.env.ROUNDTRIP_SEED ?? 20240611);
const CASES = Number(process.env.ROUNDTRIP_CASES ?? 300);
const TESTSET_ID = 'roundtrip';

class Random {
  readonly #next: () => number;
  constructor(seed: number) {
    this.#next = mulberry32(seed);
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.#next() * n);
  }
  chance(p: number): boolean {
    return this.#next() < p;
  }
  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }
}

/** Text pieces chosen for what breaks CSV and JSON writers: separators, quotes, line ends, scripts. */
const PIECES = [
  'a',
  'Paris',
  'hello world',
  '42',
  '3.5',
  'true',
  'null',
  ',',
  ', ',
  ';',
  '"',
  '""',
  "'",
  '\n',
  '\r',
  '\r\n',
  '\n\n',
  '\r\n\r\n',
  ' ',
  '  ',
  '\t',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\u0085',
  '\u0000',
  '\u000b\f',
  '\ufeff',
  '😀',
  '👩‍💻',
  '🇫🇷',
  '漢字',
  'こんにちは',
  'e\u0301',
  'n\u0303o',
  'Ω',
  '[',
  ']',
  '{',
  '}',
  '[1]',
  '{"a":1}',
  '\\',
  '#',
  '=1+1',
];

const KEY_NAMES = [
  'question',
  'answer',
  'a',
  'b',
  'two words',
  'with,comma',
  'quote"d',
  "it's",
  'ключ',
  '名前',
  '😀 emoji',
  'e\u0301',
  '2',
  '10',
  '__proto__',
  'multi\nline',
  'tab\there',
  'testcase_dedup',
  '__x__',
  'data',
  'id',
];

function text(random: Random, maxPieces = 5): string {
  let s = '';
  const n = random.int(maxPieces + 1);
  for (let i = 0; i < n; i++) s += random.pick(PIECES);
  return s;
}

/**
 * Text a CSV cell gives back unchanged: anything the reader would not decode as JSON, without a
 * carriage return (the reader takes every line break in a quoted cell as \n).
 */
function cellText(random: Random): string {
  for (;;) {
    const s = random.chance(0.1) ? '' : text(random);
    if (decodeJsonText(s) === s && !s.includes('\r')) return s;
  }
}

/** Trimmed, non-empty text without a carriage return: what readers give back for ids and tags. */
function trimmedText(random: Random): string {
  for (;;) {
    const s = text(random, 4).trim();
    if (s !== '' && !s.includes('\r')) return s;
  }
}

/** Sets a key the way JSON.parse does, so `__proto__` stays a plain key. */
function define(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** A JSON value, nested up to `depth` levels; numbers never -0 (JSON text has no -0 to keep). */
function jsonValue(random: Random, depth: number): unknown {
  const kind = random.int(depth > 0 ? 7 : 5);
  switch (kind) {
    case 0:
      return text(random);
    case 1:
      return random.chance(0.5) ? random.int(2000) - 1000 : (random.int(1e6) - 5e5) / 128;
    case 2:
      return random.chance(0.5);
    case 3:
      return null;
    case 4:
      return random.chance(0.5) ? '' : text(random, 2);
    case 5: {
      const items: unknown[] = [];
      const n = random.int(4);
      for (let i = 0; i < n; i++) items.push(jsonValue(random, depth - 1));
      return items;
    }
    default: {
      const record: Record<string, unknown> = {};
      const n = random.int(4);
      for (let i = 0; i < n; i++) {
        // Nested keys are not touched by readers: any text, reserved names included.
        const key = random.chance(0.3)
          ? random.pick(['__id__', '__proto__', ' ', ''])
          : text(random, 2);
        define(record, key, jsonValue(random, depth - 1));
      }
      return record;
    }
  }
}

/** A value a CSV cell keeps: text, or an array or object (written as JSON text). */
function csvSafeValue(random: Random): unknown {
  const roll = random.int(10);
  if (roll < 7) return cellText(random);
  if (roll < 8) {
    const items: unknown[] = [];
    const n = random.int(4);
    for (let i = 0; i < n; i++) items.push(jsonValue(random, 2));
    return items;
  }
  const record: Record<string, unknown> = {};
  const n = random.int(4);
  for (let i = 0; i < n; i++) define(record, text(random, 2), jsonValue(random, 2));
  return record;
}

function keyNames(random: Random, count: number): string[] {
  const keys = new Set<string>();
  while (keys.size < count) {
    const key = random.chance(0.6) ? random.pick(KEY_NAMES) : trimmedText(random);
    if (!isReservedKey(key)) keys.add(key);
  }
  return [...keys];
}

/** Flags/meta a CSV cell keeps: an array, an object, or text that is neither blank nor JSON. */
function structuredMeta(random: Random): unknown {
  if (random.chance(0.3)) {
    for (;;) {
      const s = text(random);
      if (s.trim() !== '' && decodeJsonText(s) === s && !s.includes('\r')) return s;
    }
  }
  return random.chance(0.5) ? [jsonValue(random, 2)] : { note: jsonValue(random, 2) };
}

function isBlank(value: unknown): boolean {
  return typeof value === 'string' && value.trim() === '';
}

/** A testset every format can carry: same keys in every row, CSV-safe values, valid metadata. */
function csvSafeTestset(random: Random): TestsetRow[] {
  const keys = keyNames(random, 1 + random.int(5));
  // Per testset, how often each metadata field appears: never, sometimes, always.
  const rate = (): number => random.pick([0, 0.3, 1]);
  const rates = { id: rate(), dedupId: rate(), tags: rate(), flags: rate(), meta: rate() };
  const rows: TestsetRow[] = [];
  const count = 1 + random.int(12);
  while (rows.length < count) {
    const data: Record<string, unknown> = {};
    // Rows list keys in different orders; the header follows the first row.
    const order = random.chance(0.3) ? [...keys].reverse() : keys;
    for (const key of order) define(data, key, csvSafeValue(random));
    const meta: RowMeta = {};
    if (random.chance(rates.id)) meta.id = trimmedText(random);
    if (random.chance(rates.dedupId))
      meta.dedupId = `${random.pick(['d', '7', 'é ', ''])}${rows.length}`;
    if (random.chance(rates.tags)) {
      meta.tags = Array.from({ length: 1 + random.int(3) }, () => trimmedText(random));
    }
    if (random.chance(rates.flags)) meta.flags = structuredMeta(random);
    if (random.chance(rates.meta)) meta.meta = structuredMeta(random);
    // A CSV row whose cells are all blank is skipped by the reader: not a CSV-safe row.
    if (Object.keys(meta).length === 0 && Object.values(data).every(isBlank)) continue;
    rows.push({ data, line: rows.length + 2, meta });
  }
  return rows;
}

function parse(text: string, format: TestsetFormat): TestsetRow[] {
  const result = parseTestset(text, format, `cases.${format}`);
  assert.ok(
    result.ok,
    `the ${format} reader rejected the writer's text: ${JSON.stringify(result)}`,
  );
  return result.rows;
}

function write(rows: TestsetRow[], format: TestsetFormat, options?: SerializeOptions): string {
  const result = serializeTestset(rows, format, options);
  assert.ok(result.ok, `${format} writer reported problems: ${JSON.stringify(result)}`);
  return result.text;
}

function identities(rows: TestsetRow[]): { ids: string[][]; revision: string } {
  const prepared = prepareCases(rows, { testsetId: TESTSET_ID, file: 'cases' });
  assert.ok(prepared.ok, JSON.stringify(prepared));
  return { ids: prepared.cases.map((c) => [c.id, c.contentId]), revision: prepared.revision };
}

function assertSameTestset(actual: TestsetRow[], expected: TestsetRow[], step: string): void {
  assert.equal(actual.length, expected.length, `${step}: row count`);
  assert.deepStrictEqual(
    actual.map((r) => r.data),
    expected.map((r) => r.data),
    `${step}: data`,
  );
  assert.deepStrictEqual(
    actual.map((r) => r.meta),
    expected.map((r) => r.meta),
    `${step}: metadata`,
  );
  assert.deepStrictEqual(identities(actual), identities(expected), `${step}: ids and revision`);
}

/**
 * The CSV text with its record separators (the LFs outside quotes) replaced, and maybe a BOM:
 * the reader must take the files other tools write, not only ours.
 */
function withLineEnds(csv: string, eol: string, bom: boolean): string {
  let out = bom ? '\ufeff' : '';
  let quoted = false;
  for (const c of csv) {
    if (c === '"') quoted = !quoted;
    out += c === '\n' && !quoted ? eol : c;
  }
  return out;
}

/** Runs `check` on `cases` generated testsets, naming the seed and case when one fails. */
function forEachCase(
  name: string,
  generate: (random: Random) => TestsetRow[],
  check: (rows: TestsetRow[], random: Random) => void,
): void {
  const random = new Random(SEED);
  for (let index = 0; index < CASES; index++) {
    let rows = generate(random);
    // Two rows with equal data and no dedup id share an identity, which prepareCases rejects:
    // draw again (deterministically) rather than test a testset no format accepts.
    while (!prepareCases(rows, { testsetId: TESTSET_ID, file: null }).ok) rows = generate(random);
    try {
      check(rows, random);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(
        `${name}: seed ${SEED}, case ${index} failed (ROUNDTRIP_SEED=${SEED} reproduces it)\n${reason}\nrows: ${JSON.stringify(rows)}`,
        { cause: error },
      );
    }
  }
}

describe('testset round trips (property)', () => {
  it(`CSV → JSON → JSONL → CSV keeps data, metadata, ids and revision (${CASES} cases)`, () => {
    forEachCase('csv-json-jsonl-csv', csvSafeTestset, (rows, random) => {
      const csv = write(rows, 'csv');
      const eol = random.pick(['\n', '\r\n', '\r']);
      const fromCsv = parse(withLineEnds(csv, eol, random.chance(0.3)), 'csv');
      assertSameTestset(fromCsv, rows, `CSV (${JSON.stringify(eol)} line ends)`);

      const style = (): SerializeOptions => ({ dedupStyle: random.pick(['column', 'data']) });
      const fromJson = parse(write(fromCsv, 'json', style()), 'json');
      assertSameTestset(fromJson, rows, 'JSON');

      const fromJsonl = parse(write(fromJson, 'jsonl', style()), 'jsonl');
      assertSameTestset(fromJsonl, rows, 'JSONL');

      const csvAgain = write(fromJsonl, 'csv');
      assert.equal(csvAgain, csv, 'CSV text after the round trip');
      assertSameTestset(parse(csvAgain, 'csv'), rows, 'CSV again');
    });
  });

  it(`JSON with numbers, booleans and null: JSON ↔ JSONL keeps everything, CSV reports each loss (${CASES} cases)`, () => {
    forEachCase('json-scalars', jsonTestset, (rows) => {
      const json = write(rows, 'json');
      const fromJson = parse(json, 'json');
      assertSameTestset(fromJson, rows, 'JSON');
      const fromJsonl = parse(write(fromJson, 'jsonl'), 'jsonl');
      assertSameTestset(fromJsonl, rows, 'JSONL');
      assert.equal(write(fromJsonl, 'json'), json, 'JSON text after the round trip');

      const expected = expectedCsvProblems(rows);
      const result = serializeTestset(fromJsonl, 'csv');
      if (expected.length === 0) {
        assert.ok(result.ok, JSON.stringify(result));
        assertSameTestset(parse(result.text, 'csv'), rows, 'CSV');
        return;
      }
      assert.ok(!result.ok, 'expected CSV problems');
      assert.deepStrictEqual(
        result.problems.map((p) => `${p.row}:${p.field}`),
        expected,
        'CSV problems',
      );
      for (const problem of result.problems) {
        assert.equal(problem.line, fromJsonl[problem.row]?.line, 'problem line is the source line');
      }
      // The text written anyway changes exactly the rows the problems name, nothing else.
      const lossy = identities(parse(result.text, 'csv')).ids.map((pair) => pair[1]);
      const before = identities(rows).ids.map((pair) => pair[1]);
      const flagged = new Set(result.problems.map((p) => p.row));
      before.forEach((cid, index) => {
        assert.equal(lossy[index] === cid, !flagged.has(index), `content id of row ${index}`);
      });
    });
  });
});

/** Rows as a JSON file may hold them: numbers, booleans, null, JSON-looking text, missing keys. */
function jsonTestset(random: Random): TestsetRow[] {
  const keys = keyNames(random, 1 + random.int(4));
  const rows: TestsetRow[] = [];
  const count = 1 + random.int(8);
  for (let index = 0; index < count; index++) {
    // The first key always holds text, so no row is blank in CSV whatever the others hold.
    const data: Record<string, unknown> = {};
    define(data, keys[0] ?? 'q', `row ${index} ${text(random, 2)}`);
    for (const key of keys.slice(1)) {
      if (random.chance(0.15)) continue; // missing in this row
      const roll = random.int(8);
      const value =
        roll === 0
          ? random.int(100)
          : roll === 1
            ? random.chance(0.5)
            : roll === 2
              ? null
              : roll === 3
                ? random.pick(['[1]', ' {"a": 2} ', '[]', '[not json]'])
                : csvSafeValue(random);
      define(data, key, value);
    }
    const meta: RowMeta = random.chance(0.3) ? { dedupId: `case-${index}` } : {};
    rows.push({ data, line: 2 + index * 3, meta });
  }
  return rows;
}

/** The `row:field` problems CSV must report for {@link jsonTestset} rows, in order. */
function expectedCsvProblems(rows: TestsetRow[]): string[] {
  const columns: string[] = [];
  for (const row of rows)
    for (const key of Object.keys(row.data)) if (!columns.includes(key)) columns.push(key);
  const problems: string[] = [];
  rows.forEach((row, index) => {
    for (const key of columns) {
      const value = row.data[key];
      const lost =
        !Object.hasOwn(row.data, key) ||
        value === null ||
        typeof value === 'number' ||
        typeof value === 'boolean' ||
        (typeof value === 'string' && (decodeJsonText(value) !== value || value.includes('\r')));
      if (lost) problems.push(`${index}:${key}`);
    }
  });
  return problems;
}
