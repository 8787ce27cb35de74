/**
 * The text edit that writes one suite's pin: its `testset:` mapping found as written in the
 * suite, and the pin replaced in place or inserted after `path:` (or `cases:`), indented, quoted
 * and ended like the text around it.
 */
import { isAlias, isMap, isScalar, parse, Scalar, type Pair, type YAMLMap } from 'yaml';
import { isRevisionPin } from '../testsets/identity.ts';
import { formatConfigPath } from './config-path.ts';
import type { ConfigPath } from './types.ts';
import { keyOf, nodeKind, ownPair, rangeOf } from './yaml-nodes.ts';

/** A change to the original text: replace `[start, end)` with `insert`. */
export interface Edit {
  start: number;
  end: number;
  insert: string;
}

/** Why a suite cannot be pinned by an edit. */
export type Failure = { ok: false; message: string };

/**
 * The suite's `testset:` mapping, which must be written in the suite itself: through an alias or
 * a merge key the one edit would also change every other suite sharing that node.
 */
export function testsetMap(
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
export function pinEdit(
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
    const range = rangeOf(node);
    // A pin YAML read as a number (`0123456`) keeps the length of its digits as written.
    const oldText =
      typeof old === 'string'
        ? old
        : typeof old === 'number' && range
          ? text.slice(range[0], range[1])
          : '';
    const keep = isRevisionPin(oldText) ? oldText.length : 0;
    const value = revision.slice(0, Math.max(length, keep));
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

/** The line break ending the line before `offset` (which starts a line). */
function eolBefore(text: string, offset: number): string {
  return text[offset - 2] === '\r' ? '\r\n' : '\n';
}

function dominantEol(text: string): string {
  const first = text.indexOf('\n');
  return first > 0 && text[first - 1] === '\r' ? '\r\n' : '\n';
}
