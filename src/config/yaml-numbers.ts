/**
 * Numbers written in evals.yaml that a double cannot keep. yaml reads every number scalar as a
 * double and says nothing when that changes it, as `JSON.parse` does in a testset: an inline
 * case's id `12345678901234567890` became `12345678901234567000`, `1e400` Infinity and `1e-400`
 * 0, so a case or an `expected:` compared another value than the config shows. YAML's own
 * `.inf` and `.nan` are kept by the double but not by JSON: the results recorded them as null
 * (an inline case's data, a grid point named `t=null`). The loader refuses them all, with the
 * testsets' wording (`inexactNumberMessage`).
 */
import { isMap, isScalar, isSeq, type Node } from 'yaml';
import type { InexactNumber } from '../testsets/json-numbers.ts';
import type { ConfigPath } from './types.ts';
import { keyText } from './yaml-source.ts';

/** A number scalar of the document that would be read as another: where it is written. */
export interface InexactScalar extends InexactNumber {
  /** The config path of the value, or of the mapping entry whose key it is. */
  path: ConfigPath;
}

/** Whole numbers as YAML writes them: decimal, `0x` hex, `0o` octal (1.2), `0b`, `_` (1.1). */
const WHOLE = /^[-+]?(?:[0-9_]+|0x[0-9a-fA-F_]+|0o[0-7_]+|0b[01_]+)$/;

/**
 * Every number scalar (value or key) of the document whose text reads as another number. Walks
 * the nodes as written (an anchored value once, where its anchor is); the nesting is bounded.
 */
export function inexactYamlNumbers(root: Node | null): InexactScalar[] {
  const found: InexactScalar[] = [];
  const visit = (node: unknown, path: ConfigPath): void => {
    if (isScalar(node)) {
      const read = node.value;
      const text = node.source;
      if (typeof read !== 'number' || typeof text !== 'string') return;
      if (!keepsYamlNumber(text.trim(), read)) {
        found.push({ offset: node.range?.[0] ?? 0, text: text.trim(), read, path });
      }
    } else if (isMap(node)) {
      for (const pair of node.items) {
        // The key as yaml read it; the loader shows every path with its keys as written.
        const at = [...path, keyText(pair.key)];
        visit(pair.key, at);
        visit(pair.value, at);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => visit(item, [...path, index]));
    }
  };
  visit(root, []);
  return found;
}

/**
 * Whether `read`, what yaml made of the number written `text`, is that number (or its nearest)
 * and a number JSON can hold: never an infinity or NaN, written as such or reached by overflow.
 */
export function keepsYamlNumber(text: string, read: number): boolean {
  if (!Number.isFinite(read)) return false;
  if (WHOLE.test(text)) return Number.isSafeInteger(read) || wholeValue(text) === BigInt(read);
  // A decimal or an exponent: rounding to the nearest double is what the number means, but a
  // number that is not 0 must not become 0.
  if (read === 0) return !/[1-9]/.test(text.replace(/[eE].*/, ''));
  return true;
}

/** The exact value of a whole number written as yaml reads it. */
function wholeValue(text: string): bigint | null {
  const digits = text.replace(/_/g, '');
  const negative = digits.startsWith('-');
  const unsigned = digits.replace(/^[-+]/, '');
  try {
    const value = BigInt(unsigned);
    return negative ? -value : value;
  } catch {
    return null;
  }
}
