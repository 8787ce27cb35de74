/**
 * The configHash of a config that names files: what those files hold is part of what the config
 * means. An interrupted run resumed after `prompts/answer.md`, `app/answer.ts` (or a file it
 * imports) or `agent.py` was edited, or two shards run with different versions of one, would
 * otherwise make one artifact out of two versions' results, and `--resume` and `evals merge`
 * could not tell. Covered, by kind:
 *
 * - `promptFiles`: the prompt and message files of model targets, at every grid point;
 * - `modules`: the JavaScript and TypeScript modules the config names (function targets, module
 *   evaluators, `pass:` modules) and the files of the project they import (module-graph-hash.ts);
 * - `scripts`: the script a command target runs when the command names a project file
 *   (targets/command-script.ts);
 * - with `promptFiles`, under the store's name: the human overrides (`evals-overrides.jsonl`)
 *   a judge shows in its prompt. For an `llm-judge` with `overrides: N`, only the entries it
 *   picks (its evaluator id's N most recent, `recentOverrides`), so an override of another
 *   evaluator leaves the hash as it was; when the store exists and a module evaluator may read
 *   it (a `BaseLLMJudge` with `numOverrides`, which only loading the module would tell, with a
 *   count and code only the module knows), the whole file. A store that does not exist yet, or
 *   holds nothing a judge picks, counts as an empty one.
 *
 * Every file is hashed by one rule (`fileDigest`), and the hash is the sha256 of the canonical
 * JSON of `{ config, promptFiles, modules, scripts }`, each kind present only when the config
 * names a file of it, so a config naming none keeps the hash of its data, and one naming prompt
 * files only keeps the hash evalgate recorded before modules and scripts were covered.
 */
import { existsSync, statSync } from 'node:fs';
import { hash } from 'node:crypto';
import { hashOfParts } from '../config/config-hash-parts.ts';
import { dirname, join, relative, sep } from 'node:path';
import { parseModuleSpec, isModuleSpec } from '../config/module-spec.ts';
import { promptFileRefs } from '../config/template-check.ts';
import type { CoveredFiles } from '../config/config-hash.ts';
import type { EvaluatorConfig, LoadedConfig } from '../config/types.ts';
import {
  OVERRIDES_FILE,
  OverridesFileError,
  readOverrides,
  recentOverrides,
  type StoredOverride,
} from '../evaluators/judges/overrides.ts';
import { canonicalJson } from '../shared/canonical-json.ts';
import type { ConfigHashParts } from '../types/index.ts';
import { expandGrid } from '../plan/grid.ts';
import { checkoutRoot } from '../shared/checkout-root.ts';
import { promptFileText } from '../shared/prompt-text.ts';
import { readRegularFileSync } from '../shared/regular-file.ts';
import { commandScripts } from '../targets/command-script.ts';
import { moduleGraph } from './module-graph-hash.ts';

/** Each covered file's digest (`null`: unreadable), by its path relative to the config's folder. */
type Digests = Record<string, string | null>;

/**
 * `config` with its hash covering the files it names (see the module comment), its
 * `earlierHash` when that differs from the hash evalgate recorded before modules and scripts
 * were covered, and `coveredFiles` saying what is covered for messages. esbuild, which reads the
 * modules' imports, is looked for from `searchFrom` first (see module-graph-hash.ts).
 */
export async function withCoveredFiles(
  config: LoadedConfig,
  searchFrom: readonly string[],
): Promise<LoadedConfig> {
  const promptFiles: [string, string][] = [];
  const modules = new Set<string>();
  const scripts = new Set<string>();
  const root = projectRoot(config.dir);
  const store = join(config.dir, OVERRIDES_FILE);
  // Each `llm-judge` reading overrides by its evaluator id, with the most any suite shows.
  const judges = new Map<string, number>();
  let wholeStore = false;
  for (const suite of config.suites) {
    const points = expandGrid(suite.grid);
    // Keyed as written (after `{{ params.… }}`), as evalgate keyed them before modules counted.
    for (const ref of promptFileRefs(suite.target, points)) {
      promptFiles.push([ref.file, join(config.dir, ref.file)]);
    }
    for (const evaluator of suite.evaluators) {
      const count = overridesShown(evaluator);
      if (count > 0) judges.set(evaluator.id, Math.max(judges.get(evaluator.id) ?? 0, count));
      else if (evaluator.kind === 'module' && existsSync(store)) wholeStore = true;
    }
    const specs = [
      ...(suite.target.kind === 'function' ? [suite.target.module] : []),
      ...suite.evaluators.filter((e) => e.kind === 'module').map((e) => e.use),
      ...(isModuleSpec(suite.pass) ? [suite.pass] : []),
    ];
    for (const spec of specs) modules.add(parseModuleSpec(spec, config.dir).file);
    if (suite.target.kind === 'command') {
      const isProjectFile = (path: string): boolean => inProject(path, root) && isFile(path);
      for (const script of commandScripts(suite.target, points, config.dir, isProjectFile)) {
        scripts.add(script);
      }
    }
  }
  const graph =
    modules.size > 0 ? await moduleGraph([...modules], config.dir, searchFrom) : undefined;
  const covered = {
    promptFiles: {
      ...digests(promptFiles),
      ...(wholeStore
        ? { [OVERRIDES_FILE]: storeDigest(store) }
        : judges.size > 0
          ? { [OVERRIDES_FILE]: shownDigest(store, judges) }
          : {}),
    },
    modules: digests(fromDir(graph?.files ?? [], config.dir)),
    scripts: digests(fromDir([...scripts], config.dir)),
  };
  const earlier = hashOfParts(partsOf({ config: config.hash, promptFiles: covered.promptFiles }));
  const hashParts = partsOf({ config: config.hash, ...covered });
  const current = hashOfParts(hashParts);
  const coveredFiles = describeCovered(covered, modules.size);
  return {
    ...config,
    hash: current,
    ...(earlier !== current ? { earlierHash: earlier } : {}),
    ...(coveredFiles.length > 0 ? { coveredFiles, hashParts } : {}),
    ...(modules.size > 0 && { namedModules: fromDir([...modules], config.dir).map(([n]) => n) }),
  };
}

/** How many human overrides `evaluator` appends to its prompt (`llm-judge`, `overrides: N`). */
function overridesShown(evaluator: EvaluatorConfig): number {
  const count = evaluator.with['overrides'];
  return evaluator.use === 'llm-judge' && typeof count === 'number' && count > 0 ? count : 0;
}

/** The config's data hash and the kinds of file it names, each present only when it has files. */
function partsOf(record: { config: string } & Record<string, Digests | string>): ConfigHashParts {
  return Object.fromEntries(
    Object.entries(record).filter(
      ([key, value]) => key === 'config' || Object.keys(value).length > 0,
    ),
  ) as unknown as ConfigHashParts;
}

/** Each file's digest by its name, as given with its absolute path. */
function digests(files: readonly (readonly [name: string, path: string])[]): Digests {
  const out: Digests = {};
  for (const [name, path] of files) out[name] = fileDigest(path);
  return out;
}

/** Absolute paths named by their path from `dir`, `/`-separated so every checkout agrees. */
function fromDir(paths: readonly string[], dir: string): [string, string][] {
  return paths.map((path) => [relative(dir, path).split(sep).join('/'), path]);
}

/**
 * The one rule every covered file is hashed by: sha256 (hex) of its text as a prompt is sent
 * (`promptFileText`: a leading BOM and the kind of line ends do not count, so a checkout that
 * converts them is the same config); of its bytes when it is not UTF-8 text (a compiled
 * program). `null` when it cannot be read: whatever uses it reports that.
 */
export function fileDigest(path: string): string | null {
  let bytes: Buffer;
  try {
    // Not a FIFO or a device: reading one would block or never end.
    bytes = readRegularFileSync(path, Number.MAX_SAFE_INTEGER);
  } catch {
    return null;
  }
  const text = bytes.toString('utf8');
  const isText = Buffer.byteLength(text) === bytes.length && Buffer.from(text).equals(bytes);
  return isText ? hash('sha256', promptFileText(text), 'hex') : hash('sha256', bytes, 'hex');
}

/** The digest of a store with nothing in it for any judge: that of an empty file. */
const EMPTY_STORE = hash('sha256', '', 'hex');

/** The overrides store's digest: one not written yet is an empty store, the same prompt. */
function storeDigest(path: string): string | null {
  return existsSync(path) ? fileDigest(path) : EMPTY_STORE;
}

/**
 * The digest of what the `llm-judge`s in `judges` (evaluator id → the largest `overrides: N`
 * of any suite) show of the store at `path`: the entries `recentOverrides` picks for each id,
 * as the judge picks them when it is created. The pick depends on the store, the id and N
 * only, all known now, and the pick for a smaller N is the start of the pick for a larger one,
 * so one pick per id covers every suite's judge of that id. An entry of another evaluator, or
 * one of this evaluator behind the N newest (or a case's earlier label), changes nothing. A
 * store that is not valid makes every such judge refuse to start, so its whole file counts
 * then; one that cannot be read is `null`, as any covered file.
 */
function shownDigest(path: string, judges: ReadonlyMap<string, number>): string | null {
  let stored: StoredOverride[];
  try {
    stored = readOverrides(dirname(path));
  } catch (error) {
    return error instanceof OverridesFileError ? fileDigest(path) : null;
  }
  const shown = [...judges]
    .map(([id, count]) => [id, recentOverrides(stored, id, count)] as const)
    .filter(([, picked]) => picked.length > 0);
  // None shown is the prompt of an empty store: the digest is, too.
  return shown.length === 0
    ? EMPTY_STORE
    : hash('sha256', canonicalJson(Object.fromEntries(shown)), 'hex');
}

/** The covered files, one phrase per kind: `the module app/answer.ts and 2 files it imports`. */
function describeCovered(
  covered: { promptFiles: Digests; modules: Digests; scripts: Digests },
  named: number,
): CoveredFiles[] {
  const list = (digest: Digests, from = 0, to?: number): string => {
    const names = Object.keys(digest).slice(from, to);
    return names.length > 3 ? `${names.slice(0, 3).join(', ')}, …` : names.join(', ');
  };
  const phrases: CoveredFiles[] = [];
  const prompts = Object.keys(covered.promptFiles).length;
  if (prompts > 0) {
    const phrase = `the prompt or message file${prompts > 1 ? 's' : ''} ${list(covered.promptFiles)}`;
    phrases.push({ kind: 'prompt', phrase });
  }
  const imported = Object.keys(covered.modules).length - named;
  if (named > 0) {
    const imports =
      imported > 0
        ? ` and the ${imported} local file${imported > 1 ? 's' : ''} ${named > 1 ? 'they import' : 'it imports'}`
        : '';
    const phrase = `the module${named > 1 ? 's' : ''} ${list(covered.modules, 0, named)}${imports}`;
    phrases.push({ kind: 'module', phrase });
  }
  const scripts = Object.keys(covered.scripts).length;
  if (scripts > 0) {
    const phrase = `the command script${scripts > 1 ? 's' : ''} ${list(covered.scripts)}`;
    phrases.push({ kind: 'script', phrase });
  }
  return phrases;
}

/** The folder of the config's git work tree (the nearest with `.git`), else the config's own. */
function projectRoot(dir: string): string {
  return checkoutRoot(dir) ?? dir;
}

function inProject(path: string, root: string): boolean {
  const from = relative(root, path);
  return (
    from !== '' &&
    !from.startsWith(`..${sep}`) &&
    from !== '..' &&
    !from.split(sep).includes('node_modules')
  );
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
