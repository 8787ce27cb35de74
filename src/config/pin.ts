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
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  type Document,
  type Scalar,
} from 'yaml';
import { isRevisionPin, revisionMatches } from '../testsets/identity.ts';
import { formatConfigPath } from './config-path.ts';
import { pinEdit, testsetMap, type Edit } from './pin-edit.ts';
import type { ConfigPath } from './types.ts';
import { nodeKind, ownValue } from './yaml-nodes.ts';
// The same reading as the loader's, so "unchanged" means unchanged to it.
import { MAX_ALIAS_COUNT, YAML_PARSE_OPTIONS } from './yaml-source.ts';

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
  const doc = parseDocument(text, { ...YAML_PARSE_OPTIONS, lineCounter: lines });
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

/**
 * The suites whose `testset.revision` is written as bare hex digits that YAML reads as a number
 * (`000000` is 0, `0123456` is 123456, `8e71234567` is a float), each with the digits as written.
 * The loader refuses such a pin (it would compare 0, not the digits); `evals testset pin`, whose
 * job is to write the pin, reads the digits as written instead and writes the pin quoted.
 */
export function numericPins(
  doc: Document,
  text: string,
): { suiteIndex: number; written: string; node: Scalar }[] {
  const root = doc.contents;
  const suites = isMap(root) ? ownValue(root, 'suites') : undefined;
  if (!isSeq(suites)) return [];
  return suites.items.flatMap((suite, suiteIndex) => {
    const testset = isMap(suite) ? ownValue(suite, 'testset') : undefined;
    const node = isMap(testset) ? ownValue(testset, 'revision') : undefined;
    if (!isScalar(node) || typeof node.value !== 'number' || node.range == null) return [];
    const written = text.slice(node.range[0], node.range[1]);
    return /^[0-9a-f]+$/i.test(written) ? [{ suiteIndex, written, node }] : [];
  });
}

/** Why the loader refuses a pin {@link numericPins} finds, and the two ways to mend it. */
export function numericPinMessage(written: string): string {
  return `expected a revision id of 6 to 64 lowercase hex digits in quotes, found ${written} written bare, which YAML reads as the number ${String(parseDocument(written).toJS())}: write it in quotes ("${written}"), or run \`evals testset pin\` to write the current revision quoted`;
}

/** {@link numericPins} of config text: the indexes of the suites, [] when it does not parse. */
export function numericPinSuites(text: string): number[] {
  const doc = parseDocument(text, YAML_PARSE_OPTIONS);
  return doc.errors.length > 0 ? [] : numericPins(doc, text).map((pin) => pin.suiteIndex);
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
  const doc = parseDocument(after, YAML_PARSE_OPTIONS);
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
