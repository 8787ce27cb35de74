/**
 * The script a command target runs, when the command names one in the project: what the
 * configHash covers of a command target beside the config (pipeline/config-files-hash.ts). A
 * program found on `PATH`, what a script imports or reads, and a file a case's value names are
 * not known from the config, so they are not covered.
 */
import { resolve } from 'node:path';
import type { CommandTargetConfig } from '../config/types.ts';
import { resolveTemplates, templateSpans } from '../shared/templates.ts';
import type { Params } from '../types/index.ts';

/**
 * The absolute paths of the scripts `target` runs at these grid points, each once: its program
 * when that is a path to a project file (`./agent.sh`, `bin/run`; a bare name is looked up on
 * `PATH`), else the first argument that is not an option when that is one (`python agent.py`,
 * `node --no-warnings dist/agent.js`, `bash scripts/run.sh`). A `shell: true` line is read as
 * words up to its first operator (`;`, `|`, `&`, a redirection), quotes stripped. A word holding
 * a `{{ case.… }}` template names no file known before the run and is skipped.
 * `isProjectFile` says whether an absolute path is a file of the project.
 */
export function commandScripts(
  target: CommandTargetConfig,
  points: readonly Params[],
  dir: string,
  isProjectFile: (path: string) => boolean,
): string[] {
  const cwd = resolve(dir, target.cwd ?? '.');
  const scripts = new Set<string>();
  for (const params of points) {
    const words = commandWords(target, params);
    const [program, ...args] = words;
    if (program === undefined) continue;
    const programPath =
      program.includes('/') && !program.includes(UNKNOWN) ? resolve(cwd, program) : undefined;
    if (programPath !== undefined && isProjectFile(programPath)) {
      scripts.add(programPath);
      continue;
    }
    const script = args.find((arg) => !arg.startsWith('-'));
    if (script !== undefined && !script.includes(UNKNOWN) && isProjectFile(resolve(cwd, script))) {
      scripts.add(resolve(cwd, script));
    }
  }
  return [...scripts];
}

/** Stands for a template's value not known before the run (a case's): no file name holds it. */
const UNKNOWN = '\u0000';

/** The words of the command at a grid point, up to a shell operator. */
function commandWords(target: CommandTargetConfig, params: Params): string[] {
  if (Array.isArray(target.run) && !target.shell) {
    return target.run.map((word) => atPoint(word, params));
  }
  const line = atPoint(Array.isArray(target.run) ? target.run.join(' ') : target.run, params);
  const words: string[] = [];
  for (const word of line.trim().split(/\s+/)) {
    if (/^(?:[;&|<>]|\d[<>])/.test(word)) break;
    words.push(word.replace(/^(['"])(.*)\1$/, '$2'));
  }
  return words;
}

/** `text` with its `{{ params.… }}` templates resolved and the others {@link UNKNOWN}. */
function atPoint(text: string, params: Params): string {
  let out = '';
  let from = 0;
  for (const span of templateSpans(text)) {
    const end = text.indexOf('}}', span.index) + 2;
    const resolved = resolveTemplates(text.slice(span.index, end), {
      case: {},
      output: null,
      params,
    });
    const value = resolved.ok ? resolved.value : undefined;
    out += text.slice(from, span.index);
    out += typeof value === 'string' || typeof value === 'number' ? String(value) : UNKNOWN;
    from = end;
  }
  return out + text.slice(from);
}
