/**
 * Config paths: the segments that locate a value (`['suites', 0, 'id']`) and their text form
 * in messages (`suites[0].id`).
 */
import type { Issue } from '../shared/errors.ts';
import type { ConfigPath, LoadedConfig, SuiteConfig } from './types.ts';

const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

/** `['suites', 0, 'evaluators', 1, 'use']` → `suites[0].evaluators[1].use`; odd keys are quoted. */
export function formatConfigPath(path: ConfigPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (PLAIN_KEY.test(segment)) out += out ? `.${segment}` : segment;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/**
 * A JSON pointer (ajv's `instancePath`, `/suites/0/id`) as config path segments. Walks `data`
 * so an array index becomes a number while a mapping key that looks like one (`"0"`) stays text.
 */
export function pointerToPath(pointer: string, data: unknown): ConfigPath {
  if (pointer === '') return [];
  const path: ConfigPath = [];
  let current = data;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) {
      const index = Number(key);
      path.push(index);
      current = current[index] as unknown;
    } else {
      path.push(key);
      current =
        current !== null && typeof current === 'object'
          ? (current as Record<string, unknown>)[key]
          : undefined;
    }
  }
  return path;
}

/** The value at `path` in `data` (the config as parsed); undefined where there is none. */
export function valueAtPath(data: unknown, path: ConfigPath): unknown {
  let current = data;
  for (const segment of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) {
      return undefined;
    }
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

/**
 * A dotted option path as a built-in's `validate()` reports it (`pattern`, `cases[0].flags`)
 * as segments; `''` is the options object itself.
 */
export function parseDottedPath(text: string): ConfigPath {
  const path: ConfigPath = [];
  for (const match of text.matchAll(/\[(\d+)\]|([^.[\]]+)/g)) {
    if (match[1] !== undefined) path.push(Number(match[1]));
    else if (match[2] !== undefined) path.push(match[2]);
  }
  return path;
}

/**
 * An issue placed at a config path inside `suite` (line, column and path text filled in), for
 * problems found after loading: a testset that does not match its pin, a module that does not
 * load. The caller sets `code` and `message`.
 */
export function suiteIssueAt(
  config: Pick<LoadedConfig, 'file' | 'locate'>,
  suite: Pick<SuiteConfig, 'index'>,
): (...path: ConfigPath) => Issue {
  return (...path) => {
    const full: ConfigPath = ['suites', suite.index, ...path];
    const loc = config.locate(full);
    return {
      code: '',
      file: config.file,
      line: loc.line,
      col: loc.col,
      path: formatConfigPath(full),
      message: '',
    };
  };
}
