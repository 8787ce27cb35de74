/**
 * The pure core of `evals testset pin`: writing each suite's current testset revision into its
 * `testset.revision:` field, and finding the suites whose pin is missing or out of date.
 *
 * The config is edited as text, not re-serialized. A `yaml` Document round trip
 * (`setIn` + `toString`) collapses the spaces before trailing comments, respaces flow
 * collections, reflows folded scalars and turns CRLF into LF, so a one-line change would come
 * back as a diff of the whole file. Instead the document is parsed once for node positions,
 * each change is spliced into the original text, and the result is parsed again to check that
 * the new pins are there and that nothing else changed.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parse,
  parseDocument,
  Scalar,
  type Pair,
  type YAMLMap,
} from 'yaml';
import { isRevisionPin, revisionMatches } from '../testsets/identity.ts';
import { formatConfigPath } from './config-path.ts';
import type { ConfigPath } from './types.ts';

/** One pin to write: the suite's index in `suites:` and its testset's current (full) revision. */
export interface PinUpdate {
  suiteIndex: number;
  revision: string;
}

/** Options of {@link applyPins}. */
export interface ApplyPinsOptions {
  /**
   * Hex digits to write (6 to 64; default {@link DEFAULT_PIN_LENGTH}). An existing valid pin
   * that is longer keeps its length, so a team that pins full ids is not downgraded.
   */
  length?: number;
}

/** The outcome of {@link applyPins}: the new config text, or why it could not be edited. */
export type ApplyPinsResult = { ok: true; text: string } | { ok: false; message: string };

/**
 * Digits written by default: like an abbreviated git commit, 12 hex digits are unique in
 * practice and still readable in a diff, while a pin accepts any prefix of at least 6.
 */
export const DEFAULT_PIN_LENGTH = 12;

/** The same reading as the loader's (`parseYaml`), so "unchanged" means unchanged to it. */
const PARSE_OPTIONS = { merge: true, uniqueKeys: true, prettyErrors: false } as const;

/** Enough for any real config; a file that expands further is refused like the loader does. */
const MAX_ALIAS_COUNT = 1000;

/** A change to the original text: replace `[start, end)` with `insert`. */
interface Edit {
  start: number;
  end: number;
  insert: string;
}

/**
 * The config text with each listed suite's `testset.revision` set to the given revision (cut
 * to `options.length` digits); everything else byte-for-byte as it was: comments, blank lines,
 * key order, quoting, indentation, line endings.
 *
 * - An existing `revision:` value is replaced in place, keeping its quotes when it had some.
 * - A missing one is inserted after `path:` (or `cases:`, else at the end of the mapping): as a
 *   new line with the same indentation in a block mapping, as `, revision: …` in a flow one.
 * - The value is written plain unless YAML would read it as something other than the string
 *   (`123456`, `1e5…` are numbers), then double-quoted.
 *
 * Fails, changing nothing, when the text does not parse, a suite's testset is not a mapping
 * written in that suite (an alias, a merge key), or the result would change any other value.
 */
export function applyPins(
  text: string,
  updates: PinUpdate[],
  options: ApplyPinsOptions = {},
): ApplyPinsResult {
  const length = options.length ?? DEFAULT_PIN_LENGTH;
  if (!Number.isInteger(length) || length < 6 || length > 64) {
    return { ok: false, message: `pin length must be an integer from 6 to 64, got ${length}` };
  }

  const lines = new LineCounter();
  const doc = parseDocument(text, { ...PARSE_OPTIONS, lineCounter: lines });
  const firstError = doc.errors[0];
  if (firstError) {
    const { line, col } = lines.linePos(firstError.pos[0]);
    return {
      ok: false,
      message: `the config is not valid YAML (line ${line}, column ${col}): ${firstError.message}`,
    };
  }
  const root = doc.contents;
  if (!isMap(root))
    return { ok: false, message: 'the config is not a mapping of version: and suites:' };
  const suites = ownValue(root, 'suites');
  if (!isSeq(suites)) {
    return { ok: false, message: `suites: expected a list, found ${nodeKind(suites)}` };
  }

  const edits: Edit[] = [];
  const written = new Map<number, string>();
  const at = (offset: number): string => `line ${lines.linePos(offset).line}`;
  for (const update of updates) {
    const { suiteIndex, revision } = update;
    const suitePath: ConfigPath = ['suites', suiteIndex];
    if (written.has(suiteIndex)) {
      return { ok: false, message: `${formatConfigPath(suitePath)}: listed more than once` };
    }
    if (!isRevisionPin(revision)) {
      return {
        ok: false,
        message: `${formatConfigPath(suitePath)}: a revision must be 6 to 64 hex digits, got ${JSON.stringify(revision)}`,
      };
    }
    const suite: unknown = suites.items[suiteIndex];
    if (suite === undefined) {
      return {
        ok: false,
        message: `${formatConfigPath(suitePath)}: no such suite (the config has ${suites.items.length})`,
      };
    }
    const located = testsetMap(suite, suitePath, at);
    if (!located.ok) return located;
    const edit = pinEdit(text, located.map, [...suitePath, 'testset'], revision, length, at);
    if (!edit.ok) return edit;
    edits.push(edit.edit);
    written.set(suiteIndex, edit.value);
  }

  let before: unknown;
  try {
    before = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // yaml refuses documents whose aliases expand without bound, as the loader does.
    return { ok: false, message: `cannot expand the YAML aliases: ${(error as Error).message}` };
  }
  const result = splice(text, edits);
  const problem = changeProblem(before, result, written);
  return problem === null ? { ok: true, text: result } : { ok: false, message: problem };
}

/** A suite whose pin does not cover its testset's current revision. */
export interface StalePin {
  suiteIndex: number;
  suiteId: string;
  /** The `revision:` as written; `undefined` when the suite has no pin. */
  pinned: string | undefined;
  /** The testset's current revision. */
  current: string;
}

/**
 * The suites whose pin is missing or does not match their testset's current revision (a
 * case-insensitive hex prefix, as the run checks it), in the order given.
 */
export function stalePins(
  suites: { suiteIndex: number; suiteId: string; pinned: string | undefined; current: string }[],
): StalePin[] {
  return suites
    .filter(({ pinned, current }) => pinned === undefined || !revisionMatches(pinned, current))
    .map(({ suiteIndex, suiteId, pinned, current }) => ({ suiteIndex, suiteId, pinned, current }));
}

type Failure = { ok: false; message: string };

/**
 * The suite's `testset:` mapping, which must be written in the suite itself: through an alias or
 * a merge key the one edit would also change every other suite sharing that node.
 */
function testsetMap(
  suite: unknown,
  suitePath: ConfigPath,
  at: (offset: number) => string,
): { ok: true; map: YAMLMap<unknown, unknown> } | Failure {
  const where = formatConfigPath(suitePath);
  if (isAlias(suite)) {
    return {
      ok: false,
      message: `${where}: the suite is an alias (*${suite.source}); pin it by hand`,
    };
  }
  if (!isMap(suite)) {
    return { ok: false, message: `${where}: expected a mapping, found ${nodeKind(suite)}` };
  }
  const testsetPath = formatConfigPath([...suitePath, 'testset']);
  const pair = ownPair(suite, 'testset');
  if (!pair) {
    const merged = suite.items.some((item) => keyOf(item) === '<<');
    return {
      ok: false,
      message: merged
        ? `${testsetPath}: comes from a merge key (<<); pin it by hand where it is written`
        : `${testsetPath}: missing (${at(rangeOf(suite)?.[0] ?? 0)})`,
    };
  }
  const value = pair.value;
  if (isAlias(value)) {
    return {
      ok: false,
      message: `${testsetPath}: an alias (*${value.source}) shared with other suites; pin it by hand (${at(rangeOf(value)?.[0] ?? 0)})`,
    };
  }
  if (!isMap(value)) {
    const offset = rangeOf(value)?.[0] ?? rangeOf(pair.key)?.[0] ?? 0;
    return {
      ok: false,
      message: `${testsetPath}: expected a mapping (path: or cases:), found ${nodeKind(value)} (${at(offset)})`,
    };
  }
  return { ok: true, map: value };
}

/** The edit that writes the pin into one testset mapping, and the pin text it writes. */
function pinEdit(
  text: string,
  map: YAMLMap<unknown, unknown>,
  testsetPath: ConfigPath,
  revision: string,
  length: number,
  at: (offset: number) => string,
): { ok: true; edit: Edit; value: string } | Failure {
  const existing = ownPair(map, 'revision');
  if (existing) {
    const node = existing.value;
    if (node !== null && !isScalar(node) && !isAlias(node)) {
      const offset = rangeOf(node)?.[0] ?? 0;
      return {
        ok: false,
        message: `${formatConfigPath([...testsetPath, 'revision'])}: expected a hex string, found ${nodeKind(node)} (${at(offset)})`,
      };
    }
    const old = isScalar(node) ? node.value : undefined;
    const oldText = typeof old === 'string' || typeof old === 'number' ? String(old) : '';
    const keep = isRevisionPin(oldText) ? oldText.length : 0;
    const value = revision.slice(0, Math.max(length, keep));
    const range = rangeOf(node);
    if (!range || range[0] === range[1]) {
      // `revision:` with nothing after it: the empty node sits wherever the next token is (a
      // comment, the next line), so write right after the colon instead.
      const colon = text.indexOf(':', rangeOf(existing.key)?.[1] ?? 0);
      return {
        ok: true,
        value,
        edit: { start: colon + 1, end: colon + 1, insert: ` ${scalarText(value, Scalar.PLAIN)}` },
      };
    }
    const type = isScalar(node) ? node.type : undefined;
    let insert = scalarText(value, type);
    if (type === Scalar.BLOCK_LITERAL || type === Scalar.BLOCK_FOLDED) {
      // A block scalar's range runs through its last line break, which the next key needs.
      insert += /\r?\n$/.exec(text.slice(range[0], range[1]))?.[0] ?? '';
    }
    return { ok: true, value, edit: { start: range[0], end: range[1], insert } };
  }

  const value = revision.slice(0, length);
  const entry = `revision: ${scalarText(value, Scalar.PLAIN)}`;
  const after = ownPair(map, 'path') ?? ownPair(map, 'cases') ?? map.items[map.items.length - 1];
  if (map.flow) {
    if (!after) {
      const open = rangeOf(map)?.[0] ?? 0;
      return { ok: true, value, edit: { start: open + 1, end: open + 1, insert: ` ${entry} ` } };
    }
    const end = pairEnd(text, after);
    return { ok: true, value, edit: { start: end, end, insert: `, ${entry}` } };
  }
  if (!after)
    return {
      ok: false,
      message: `${formatConfigPath(testsetPath)}: an empty mapping (${at(rangeOf(map)?.[0] ?? 0)})`,
    };
  // A new line below the entry (and its trailing comment), indented like that entry's key.
  const keyStart = rangeOf(after.key)?.[0] ?? 0;
  const lineStart = text.lastIndexOf('\n', keyStart - 1) + 1;
  const prefix = text.slice(lineStart, keyStart);
  // An explicit key (`? path`) is indented by the spaces before its `?`.
  const indent = /^ *\?/.test(prefix) ? (/^ */.exec(prefix)?.[0] ?? '') : ' '.repeat(prefix.length);
  const end = pairEnd(text, after);
  if (end > 0 && text[end - 1] === '\n') {
    return {
      ok: true,
      value,
      edit: { start: end, end, insert: `${indent}${entry}${eolBefore(text, end)}` },
    };
  }
  const lineEnd = text.indexOf('\n', end);
  if (lineEnd === -1) {
    return {
      ok: true,
      value,
      edit: {
        start: text.length,
        end: text.length,
        insert: `${dominantEol(text)}${indent}${entry}`,
      },
    };
  }
  const next = lineEnd + 1;
  return {
    ok: true,
    value,
    edit: { start: next, end: next, insert: `${indent}${entry}${eolBefore(text, next)}` },
  };
}

/** Where a mapping entry's text ends: after its value, or after its colon when it has none. */
function pairEnd(text: string, pair: Pair<unknown, unknown>): number {
  const value = rangeOf(pair.value);
  if (value && value[0] !== value[1]) return value[1];
  const keyEnd = rangeOf(pair.key)?.[1] ?? 0;
  const colon = text.indexOf(':', keyEnd);
  return colon === -1 ? keyEnd : colon + 1;
}

/**
 * A pin as YAML: plain when every YAML reader takes it for this string, else quoted. Both the
 * 1.2 core schema (the loader's) and 1.1 (older tools: `0123` is octal there) are asked,
 * because a hex digest can look like an integer (`123456`) or a float (`1e5…`).
 */
function scalarText(value: string, type: Scalar.Type | undefined): string {
  if (type === Scalar.QUOTE_SINGLE) return `'${value}'`;
  if (type === Scalar.QUOTE_DOUBLE) return `"${value}"`;
  const plain = parse(value) === value && parse(value, { version: '1.1' }) === value;
  return plain ? value : `"${value}"`;
}

/**
 * Why the edited text is wrong, or `null`: it must parse, and read as the original with only
 * the listed pins set. This catches what position arithmetic cannot see, such as an anchored
 * testset or pin that other suites alias.
 */
function changeProblem(
  before: unknown,
  after: string,
  written: ReadonlyMap<number, string>,
): string | null {
  const doc = parseDocument(after, PARSE_OPTIONS);
  if (doc.errors.length > 0) {
    return `internal error: the edited config does not parse (${doc.errors[0]?.message ?? ''}); nothing was written`;
  }
  const expected = plainCopy(before);
  const suites = (expected as { suites: Record<string, unknown>[] }).suites;
  for (const [index, value] of written) {
    const testset = suites[index]?.testset as Record<string, unknown>;
    testset.revision = value;
  }
  if (isDeepStrictEqual(plainCopy(doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT })), expected)) {
    return null;
  }
  return 'the edit would change more than the listed pins (is a testset or a pin shared through an anchor?); pin those suites by hand';
}

/** A JSON copy, so that one node shared through aliases becomes independent copies. */
function plainCopy(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value) ?? 'null') as unknown;
}

function splice(text: string, edits: Edit[]): string {
  let out = text;
  // From the end, so earlier offsets stay valid.
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) {
    out = out.slice(0, edit.start) + edit.insert + out.slice(edit.end);
  }
  return out;
}

/** The line break ending the line before `offset` (which starts a line). */
function eolBefore(text: string, offset: number): string {
  return text[offset - 2] === '\r' ? '\r\n' : '\n';
}

function dominantEol(text: string): string {
  const first = text.indexOf('\n');
  return first > 0 && text[first - 1] === '\r' ? '\r\n' : '\n';
}

function ownPair(map: YAMLMap<unknown, unknown>, key: string): Pair<unknown, unknown> | undefined {
  return map.items.find((item) => keyOf(item) === key);
}

function ownValue(map: YAMLMap<unknown, unknown>, key: string): unknown {
  return ownPair(map, key)?.value;
}

function keyOf(pair: Pair<unknown, unknown>): unknown {
  const key: unknown = isScalar(pair.key) ? pair.key.value : pair.key;
  // With `merge: true`, yaml reads a `<<` key as a symbol named `<<`.
  return typeof key === 'symbol' ? key.description : key;
}

function rangeOf(node: unknown): readonly [number, number, number] | undefined {
  return isScalar(node) || isMap(node) || isSeq(node) || isAlias(node)
    ? (node.range ?? undefined)
    : undefined;
}

function nodeKind(node: unknown): string {
  if (isAlias(node)) return `an alias (*${node.source})`;
  if (isMap(node)) return 'a mapping';
  if (isSeq(node)) return 'a list';
  if (isScalar(node)) {
    const value: unknown = node.value;
    if (value === null || value === undefined) return 'nothing';
    if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
    return typeof value === 'number' || typeof value === 'boolean' ? String(value) : 'a value';
  }
  return 'nothing';
}
