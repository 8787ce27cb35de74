/**
 * The config's YAML with positions: parsing (errors with line:col) and finding where a config
 * path is written, so every later problem can point at the exact key or value.
 */
import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  type Document,
  type Node,
  type Pair,
} from 'yaml';
import type { ConfigPath, Loc } from './types.ts';

/** A problem yaml itself found (malformed text, a duplicate key). */
export interface YamlProblem {
  code: string;
  loc: Loc;
  message: string;
}

/** A parsed config document and the means to find positions in it. */
export class YamlSource {
  constructor(
    readonly doc: Document.Parsed,
    private readonly lines: LineCounter,
  ) {}

  /** 1-based position of a character offset in the text. */
  position(offset: number): Loc {
    const { line, col } = this.lines.linePos(offset);
    return { line, col };
  }

  /**
   * Where the value at `path` is written, or the closest existing ancestor's when the path does
   * not exist. An empty value (`threshold:` followed by nothing) points at its key instead,
   * because the place after the colon is not something a reader can see.
   */
  locate(path: ConfigPath): Loc {
    const found = this.walk(path);
    const node = found.node;
    if (!node) return { line: 1, col: 1 };
    const emptyValue = isScalar(node) && node.value === null && node.range?.[0] === node.range?.[1];
    if (emptyValue && found.pair && isNodeWithRange(found.pair.key)) {
      return this.position(found.pair.key.range[0]);
    }
    return this.position(node.range?.[0] ?? 0);
  }

  /** Where the key of the mapping entry at `path` is written (for unknown keys), else `locate`. */
  locateKey(path: ConfigPath): Loc {
    const found = this.walk(path);
    if (found.complete && found.pair && isNodeWithRange(found.pair.key)) {
      return this.position(found.pair.key.range[0]);
    }
    return this.locate(path);
  }

  /** The YAML node at `path`, when the whole path exists (aliases followed). */
  nodeAt(path: ConfigPath): Node | undefined {
    const found = this.walk(path);
    return found.complete ? (found.node ?? undefined) : undefined;
  }

  private walk(path: ConfigPath): { node: Node | null; pair: Pair | null; complete: boolean } {
    let node = this.resolve(this.doc.contents);
    let pair: Pair | null = null;
    if (!node) return { node: null, pair: null, complete: false };
    for (const segment of path) {
      let next: Node | null = null;
      let nextPair: Pair | null = null;
      if (isMap(node)) {
        for (const item of node.items) {
          if (keyText(item.key) === String(segment)) {
            nextPair = item;
            next = this.resolve(item.value);
            // An entry written with no value has no node; its key still has a position.
            if (!next && isNodeWithRange(item.key))
              return { node: item.key, pair: item, complete: false };
            break;
          }
        }
      } else if (isSeq(node) && typeof segment === 'number') {
        next = this.resolve(node.items[segment]);
      }
      if (!next) return { node, pair, complete: false };
      node = next;
      pair = nextPair;
    }
    return { node, pair, complete: true };
  }

  private resolve(value: unknown): Node | null {
    if (isAlias(value)) return (value.resolve(this.doc) as Node | undefined) ?? value;
    return isNodeWithRange(value) ? value : null;
  }
}

/** The text of a mapping key as a config path segment (`1:` becomes `"1"`). */
export function keyText(key: unknown): string {
  const value: unknown = isScalar(key) ? key.value : key;
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  // A complex key (`? [a, b]`) never names a config field; any stable text will do.
  return JSON.stringify(value) ?? '';
}

function isNodeWithRange(value: unknown): value is Node & { range: [number, number, number] } {
  return (
    (isScalar(value) || isMap(value) || isSeq(value) || isAlias(value)) &&
    Array.isArray((value as { range?: unknown }).range)
  );
}

/** How the config's YAML is read, by the loader and by `evals testset pin` alike. */
export const YAML_PARSE_OPTIONS = { merge: true, uniqueKeys: true, prettyErrors: false } as const;

/**
 * The most aliases a config may expand to (`toJS`): enough for any real config, while a file
 * whose aliases expand without bound (a "billion laughs") is refused.
 */
export const MAX_ALIAS_COUNT = 1000;

/**
 * Parses the config text, keeping positions. `merge: true` lets `<<: *anchor` share evaluator
 * settings, a YAML 1.1 habit many users bring along.
 */
export function parseYaml(
  text: string,
): { ok: true; source: YamlSource } | { ok: false; problems: YamlProblem[] } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, ...YAML_PARSE_OPTIONS });
  if (doc.errors.length === 0) return { ok: true, source: new YamlSource(doc, lines) };
  const problems = doc.errors.map((error): YamlProblem => {
    const { line, col } = lines.linePos(error.pos[0]);
    if (error.code === 'DUPLICATE_KEY') {
      // yaml's range covers only the key's first character; the key runs to its colon.
      const key = /^[^:\n]*/.exec(text.slice(error.pos[0]))?.[0].trim() ?? '';
      return {
        code: 'yaml.duplicate-key',
        loc: { line, col },
        message: `duplicate key ${JSON.stringify(key)}: each key may appear once in a mapping`,
      };
    }
    // `${VAR}` is plain YAML in a block, but inside [ ] or { } its braces end the scalar.
    const lineText = text.split('\n')[line - 1] ?? '';
    const hint = /[[{].*\$\{/.test(lineText)
      ? ' (inside [ ] or { }, quote a value that holds ${VAR}: "${VAR}")'
      : '';
    return {
      code: 'yaml.syntax',
      loc: { line, col },
      message: `malformed YAML: ${error.message}${hint}`,
    };
  });
  return { ok: false, problems };
}
