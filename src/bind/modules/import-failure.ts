import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { displayFile, specPath, type ModuleError } from './module-error.ts';
import type { ModuleRef } from '../../config/module-spec.ts';
import { describeError } from '../../shared/describe-error.ts';

/**
 * Turns whatever an import threw into a `module.syntax` or `module.load-failed` error.
 *
 * What the error looks like depends on who threw it:
 * - esbuild (through tsx), for TypeScript that does not parse. esbuild's own error carries
 *   `errors[0].location {file, line, column}`, but tsx deletes `errors`, renames the error to
 *   `TransformError` and, when its hooks run off-thread (Node 20), only the message crosses
 *   back. So we read the structured field when present and otherwise the message, which
 *   esbuild formats as `<file>:<line>:<column>: ERROR: <text>` (line 1-based, column 0-based).
 *   tsx also names `.mts`/`.cts` sources `.ts` in that message.
 * - V8, for JavaScript that does not parse or link (`SyntaxError` with no user frame on the
 *   stack). A CommonJS one has a `<file>:<line>` header on its stack; an ES module one has no
 *   position we can read.
 * - The user's code, running at import time: anything else, positioned by the first stack
 *   frame in the referenced file (tsx installs source maps, so TypeScript lines are right).
 */
export function describeImportFailure(error: unknown, ref: ModuleRef): ModuleError {
  const transform = esbuildFailure(error);
  if (transform) {
    const file = transform.file === undefined ? ref.file : sourceFile(transform.file, ref);
    return {
      code: 'module.syntax',
      message: syntaxMessage(file, transform.text, ref),
      file,
      ...(transform.line !== undefined ? { line: transform.line } : {}),
      ...(transform.col !== undefined ? { col: transform.col } : {}),
    };
  }
  if (isSyntaxErrorFromParsing(error)) {
    const header = stackHeader(error.stack);
    const file = header?.file ?? ref.file;
    return {
      code: 'module.syntax',
      message: syntaxMessage(file, firstLine(error.message), ref),
      file,
      ...(header ? { line: header.line } : {}),
    };
  }
  const at = stackFrameIn(error, ref.file);
  return {
    code: 'module.load-failed',
    message: `${specPath(ref)} failed to load: ${errorText(error)}${missingPackageHint(error)}`,
    file: ref.file,
    ...(at ? { line: at.line, col: at.col } : {}),
  };
}

/**
 * A bare package the module imports is not installed: say how to add it. `evalgate` itself is the
 * usual case, imported for `BaseTestEvaluator` from a folder outside the project that has it.
 */
function missingPackageHint(error: unknown): string {
  const code =
    typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return '';
  const name = /Cannot find (?:package|module) '((?:@[^/']+\/)?[^/.'][^/']*)/.exec(
    errorText(error),
  )?.[1];
  return name ? ` (is ${name} installed where the module can see it? npm i -D ${name})` : '';
}

/** `TypeError: x is not a function`; plain `Error`s without the name; non-errors as text. */
export function errorText(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error) {
    const message = firstLine(String(error.message));
    const name = 'name' in error && typeof error.name === 'string' ? error.name : 'Error';
    return name === 'Error' || name === '' ? message : `${name}: ${message}`;
  }
  // A thrown object or `undefined` reads as the engine records it (`{"code":1}`), not `[object Object]`.
  return firstLine(describeError(error));
}

interface TransformFailure {
  text: string;
  file?: string;
  line?: number;
  col?: number;
}

const ESBUILD_LOCATED = /^(.*):(\d+):(\d+): ERROR: (.*)$/m;
const ESBUILD_UNLOCATED = /^error: (.*)$/m;

function esbuildFailure(error: unknown): TransformFailure | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const structured = structuredLocation(error);
  if (structured) return structured;
  const message = 'message' in error && typeof error.message === 'string' ? error.message : '';
  const name = 'name' in error ? error.name : undefined;
  if (name !== 'TransformError' && !message.startsWith('Transform failed with')) return undefined;
  const located = ESBUILD_LOCATED.exec(message);
  if (located) {
    const [, file = '', line = '0', column = '0', text = ''] = located;
    return { text, file, line: Number(line), col: Number(column) + 1 };
  }
  const bare = ESBUILD_UNLOCATED.exec(message);
  return { text: bare?.[1] ?? firstLine(message) };
}

/** esbuild's own shape, for when a tsx version (or an in-thread path) keeps it. */
function structuredLocation(error: object): TransformFailure | undefined {
  if (!('errors' in error) || !Array.isArray(error.errors)) return undefined;
  const first: unknown = error.errors[0];
  if (typeof first !== 'object' || first === null || !('text' in first)) return undefined;
  const text = String(first.text);
  const location = 'location' in first ? first.location : undefined;
  if (typeof location !== 'object' || location === null) return { text };
  const { file, line, column } = location as { file?: unknown; line?: unknown; column?: unknown };
  return {
    text,
    ...(typeof file === 'string' && file !== '' ? { file } : {}),
    ...(typeof line === 'number' ? { line } : {}),
    ...(typeof column === 'number' ? { col: column + 1 } : {}),
  };
}

/**
 * A V8 parse or link error rather than a SyntaxError thrown by running code (`JSON.parse` at
 * the top of a module): CommonJS parse errors carry a `<file>:<line>` stack header, and the
 * others are raised inside Node's module loader, so their first frame is a `node:` one. (Later
 * frames may be ours: async stacks include the loader's own frames.)
 */
function isSyntaxErrorFromParsing(error: unknown): error is SyntaxError & { stack?: string } {
  if (!(typeof error === 'object' && error !== null && 'name' in error)) return false;
  if (error.name !== 'SyntaxError' || !('message' in error)) return false;
  const stack = 'stack' in error && typeof error.stack === 'string' ? error.stack : '';
  if (stackHeader(stack)) return true;
  const first = stackFrames(stack)[0];
  return first === undefined || first.location.startsWith('node:');
}

function syntaxMessage(file: string, text: string, ref: ModuleRef): string {
  const importedFrom = file === ref.file ? '' : ` (imported from ${specPath(ref)})`;
  return `syntax error in ${displayFile(file, ref)}: ${text}${importedFrom}`;
}

/** The file esbuild named, mapped back from tsx's `.mts`/`.cts` → `.ts` renaming. */
function sourceFile(reported: string, ref: ModuleRef): string {
  const file = toPath(reported);
  const alternatives = file.endsWith('.ts')
    ? [file.slice(0, -3) + '.mts', file.slice(0, -3) + '.cts']
    : file.endsWith('.js')
      ? [file.slice(0, -3) + '.mjs']
      : [];
  if (alternatives.includes(ref.file)) return ref.file;
  if (existsSync(file)) return file;
  return alternatives.find((alt) => existsSync(alt)) ?? file;
}

/** A stack location as a file path: `file:` URLs converted, tsx's `?namespace=…` query dropped. */
function toPath(location: string): string {
  if (location.startsWith('file:')) {
    try {
      return fileURLToPath(location);
    } catch {
      return location;
    }
  }
  const query = location.indexOf('?');
  return query === -1 ? location : location.slice(0, query);
}

interface StackFrame {
  location: string;
  line: number;
  col: number;
}

const FRAME = /^\s*at (?:.*? \()?(.+?):(\d+):(\d+)\)?$/;

function stackFrames(stack: string): StackFrame[] {
  const frames: StackFrame[] = [];
  for (const text of stack.split('\n')) {
    const match = FRAME.exec(text);
    if (match) {
      const [, location = '', line = '0', col = '0'] = match;
      frames.push({ location, line: Number(line), col: Number(col) });
    }
  }
  return frames;
}

function stackFrameIn(error: unknown, file: string): { line: number; col: number } | undefined {
  if (typeof error !== 'object' || error === null || !('stack' in error)) return undefined;
  if (typeof error.stack !== 'string') return undefined;
  // Frames inside `data:` URLs (tsx's CommonJS wrapper on Node 20) carry generated positions
  // and never match the file, so they are skipped rather than misreported.
  return stackFrames(error.stack).find((frame) => toPath(frame.location) === file);
}

const HEADER = /^(.+):(\d+)$/;

/** V8's `<file>:<line>` first stack line on CommonJS parse errors. */
function stackHeader(stack: string | undefined): { file: string; line: number } | undefined {
  const first = stack?.split('\n', 1)[0];
  const match = first === undefined ? null : HEADER.exec(first);
  if (!match) return undefined;
  const [, location = '', line = '0'] = match;
  const file = toPath(location);
  return existsSync(file) ? { file, line: Number(line) } : undefined;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? '';
}
