/**
 * The config's YAML with positions: parsing (errors with line:col) and finding where a config
 * path is written, so every later problem can point at the exact key or value.
 */
import {
  Composer,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  Parser,
  visit,
  YAMLParseError,
  type CST,
  type Document,
  type Node,
  type Pair,
  type YAMLMap,
} from 'yaml';
import type { ConfigPath, Loc } from './types.ts';
import { MAX_CONFIG_NESTING, shapeProblems, tooDeepOffset } from './yaml-limits.ts';

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

  /**
   * True when the document holds nothing: an empty file, only comments, or only a `---` marker
   * (which yaml reads as a document holding an empty scalar, not as no document).
   */
  get empty(): boolean {
    const contents = this.doc.contents;
    if (contents === null) return true;
    return (
      isScalar(contents) &&
      contents.value === null &&
      contents.source === '' &&
      contents.tag === undefined &&
      contents.anchor === undefined
    );
  }

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

  /**
   * `path` with each number key as the file writes it: yaml reads `0.1000000000000000055511151231257827:`
   * or a 23-digit key as a double, whose text (`0.1`, `1.2345678901234568e+22`) is not in the file.
   */
  writtenPath(path: ConfigPath): ConfigPath {
    let node = this.resolve(this.doc.contents);
    const out: ConfigPath = [];
    for (const segment of path) {
      let next: Node | null = null;
      let written: string | number = segment;
      if (node && isMap(node)) {
        const item = this.entry(node, String(segment));
        if (item) {
          const key = item.key;
          if (isScalar(key) && typeof key.value === 'number' && typeof key.source === 'string') {
            written = key.source.trim();
          }
          next = this.resolve(item.value);
        }
      } else if (node && isSeq(node) && typeof segment === 'number') {
        next = this.resolve(node.items[segment]);
      }
      out.push(written);
      node = next;
    }
    return out;
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
        const item = this.entry(node, String(segment));
        if (item) {
          nextPair = item;
          next = this.resolve(item.value);
          // An entry written with no value has no node; its key still has a position.
          if (!next && isNodeWithRange(item.key))
            return { node: item.key, pair: item, complete: false };
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

  /**
   * The first entry of `map` with key `key`. Each mapping is indexed once, on first use, so
   * locating every one of 20,000 unknown keys stays linear.
   */
  private entry(map: YAMLMap<unknown, unknown>, key: string): Pair<unknown, unknown> | undefined {
    let index = this.index.get(map);
    if (!index) {
      index = new Map();
      for (const item of map.items) {
        const text = keyText(item.key);
        if (!index.has(text)) index.set(text, item);
      }
      this.index.set(map, index);
    }
    return index.get(key);
  }

  private readonly index = new WeakMap<object, Map<string, Pair<unknown, unknown>>>();

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
 * Most YAML errors reported for one file. A malformed line makes yaml report one error per
 * token after it; the first few say what is wrong.
 */
export const MAX_YAML_PROBLEMS = 10;

/**
 * Parses the config text, keeping positions. `merge: true` lets `<<: *anchor` share evaluator
 * settings, a YAML 1.1 habit many users bring along. Text nested deeper than
 * {@link MAX_CONFIG_NESTING} is refused before yaml composes it (which recurses), and duplicate
 * keys and self-containing aliases are found by `shapeProblems` in one linear pass.
 */
export function parseYaml(
  text: string,
): { ok: true; source: YamlSource } | { ok: false; problems: YamlProblem[] } {
  const lines = new LineCounter();
  const tokens = [...new Parser(lines.addNewLine).parse(text)];
  const deep = tooDeepOffset(tokens);
  if (deep !== null) {
    const message = `the YAML nests more than ${MAX_CONFIG_NESTING} levels deep here: a config may nest at most ${MAX_CONFIG_NESTING} levels of mappings and lists`;
    return { ok: false, problems: [{ code: 'yaml.too-deep', loc: lines.linePos(deep), message }] };
  }
  const doc = composeFirst(tokens, text.length);
  const problems = doc.errors.slice(0, MAX_YAML_PROBLEMS).map((error) => {
    const loc = lines.linePos(errorOffset(doc, error));
    return syntaxProblem(error.code, error.message, loc, lineAt(text, lines, loc.line));
  });
  if (doc.errors.length > MAX_YAML_PROBLEMS) {
    const more = doc.errors.length - MAX_YAML_PROBLEMS;
    const loc = lines.linePos(doc.errors[MAX_YAML_PROBLEMS]?.pos[0] ?? 0);
    // Its own code: the CLI's closing total counts the errors it stands for, not one problem.
    problems.push({
      code: 'yaml.too-many-issues',
      loc,
      message: `${more} more YAML errors not shown (${doc.errors.length} in all)`,
    });
  }
  if (problems.length > 0) return { ok: false, problems };
  const shape = shapeProblems(doc).map((p): YamlProblem => ({
    code: p.code,
    loc: lines.linePos(p.offset),
    message: p.message,
  }));
  if (shape.length > 0) return { ok: false, problems: shape };
  return { ok: true, source: new YamlSource(doc, lines) };
}

/**
 * The first document of the parsed tokens, as `parseDocument` composes it (a second document is
 * an error). Keys are not checked for uniqueness here: yaml compares each key with every earlier
 * one, which takes seconds for a mapping of 20,000 keys; `shapeProblems` does it in one pass.
 */
function composeFirst(tokens: CST.Token[], length: number): Document.Parsed {
  const composer = new Composer({ ...YAML_PARSE_OPTIONS, uniqueKeys: false });
  let doc: Document.Parsed | undefined;
  for (const next of composer.compose(tokens, true, length)) {
    if (!doc) doc = next;
    else {
      doc.errors.push(
        new YAMLParseError(
          [next.range[0], next.range[1]],
          'MULTIPLE_DOCS',
          'Source contains multiple documents',
        ),
      );
      break;
    }
  }
  // compose(…, true) always ends with a document, even for empty text.
  return doc as Document.Parsed;
}

/**
 * Where an error is shown. yaml places a missing closing quote at the end of the text the quoted
 * scalar swallowed, often the end of the file; the quote that opens it is the mistake to fix.
 */
function errorOffset(doc: Document.Parsed, error: YAMLParseError): number {
  const at = error.pos[0];
  if (error.code !== 'MISSING_CHAR' || !/^Missing closing .quote/.test(error.message)) return at;
  let start = at;
  visit(doc, {
    Scalar(_key, node) {
      const quoted = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE';
      if (!quoted || node.range?.[1] !== at) return undefined;
      start = node.range[0];
      return visit.BREAK;
    },
  });
  return start;
}

/** The text of 1-based line `line`, without reading past it. */
function lineAt(text: string, lines: LineCounter, line: number): string {
  const start = lines.lineStarts[line - 1] ?? 0;
  const end = lines.lineStarts[line] ?? text.length;
  return text.slice(start, end);
}

function syntaxProblem(code: string, message: string, loc: Loc, lineText: string): YamlProblem {
  if (code === 'RESOURCE_EXHAUSTION') {
    // yaml ran out of stack below the nesting limit (a very small stack): say so plainly.
    return { code: 'yaml.too-deep', loc, message: 'the YAML nests too deeply here to be read' };
  }
  // `${VAR}` is plain YAML in a block, but inside [ ] or { } its braces end the scalar. Two
  // searches, not a regex such as /[[{].*\$\{/, which backtracks quadratically on a long line.
  const open = lineText.search(/[[{]/);
  const hint =
    open !== -1 && lineText.includes('${', open)
      ? ' (inside [ ] or { }, quote a value that holds ${VAR}: "${VAR}"; a quoted value stays a string, so give a number or a boolean from the environment in block style, on a line of its own)'
      : '';
  return { code: 'yaml.syntax', loc, message: `malformed YAML: ${message}${hint}` };
}
