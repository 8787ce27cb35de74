/**
 * The last checks of `evals run`, for code under test that runs in this process (unless its
 * suite says `isolation: worker`) and replaces a built-in evals relies on. A case's function
 * that made `Array.prototype.push` a no-op ended a run with exit 0 and no artifact, or, over an
 * old artifact, with one that counted 3 cases and held none; one that added an
 * `Object.prototype.toJSON` had the run write an "artifact" that was not JSON, and exit 0. A
 * pipeline reading exit 0 takes any of these as a pass. So the run ends by checking that each
 * file it reports as written is a new file that begins as its format does, and that the
 * built-ins below are the ones evals loaded with. What is used here is taken when evals loads,
 * before any user module, and the loops use no array method.
 */
import * as fs from 'node:fs';
import { resolve } from 'node:path';
import type { GateCondition, ResultsArtifact, RunResult } from '../types/index.ts';
import type { OutputPath } from './output-paths.ts';
import { EXIT_UNWRITTEN } from './write-failure.ts';

const { closeSync, openSync, readSync, statSync } = fs;
const alloc = Buffer.alloc.bind(Buffer);
const { getOwnPropertyDescriptor, is } = Object;
const ownKeys = Reflect.ownKeys;

/** The built-ins whose own properties are compared before and after the run, by name. */
const WATCHED: readonly (readonly [string, object])[] = [
  ['Object', Object],
  ['Object.prototype', Object.prototype],
  ['Array', Array],
  ['Array.prototype', Array.prototype],
  ['String.prototype', String.prototype],
  ['Number.prototype', Number.prototype],
  ['Function.prototype', Function.prototype],
  ['Map.prototype', Map.prototype],
  ['Set.prototype', Set.prototype],
  ['Promise', Promise],
  ['Promise.prototype', Promise.prototype],
  ['JSON', JSON],
  ['Math', Math],
];

/** A watched object's own properties when evals loaded: key → descriptor. */
interface Loaded {
  name: string;
  target: object;
  properties: Record<PropertyKey, PropertyDescriptor>;
  count: number;
}

const LOADED: readonly Loaded[] = WATCHED.map(([name, target]) => loaded(name, target));

function loaded(name: string, target: object): Loaded {
  const properties = Object.create(null) as Record<PropertyKey, PropertyDescriptor>;
  const keys = ownKeys(target);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as PropertyKey;
    properties[key] = getOwnPropertyDescriptor(target, key) ?? {};
  }
  return { name, target, properties, count: keys.length };
}

/** The watched built-ins as they are now, for {@link changedBuiltins} to compare with later. */
export type BuiltinsSnapshot = readonly Loaded[];

/**
 * The watched built-ins now: `runTestSuite` takes them as it starts, so that a polyfill its
 * caller loaded before is not held against the run (`evals run` compares with those evals loaded
 * with, since everything it loads after is code under test). No array method is used.
 */
export function snapshotBuiltins(): BuiltinsSnapshot {
  const now: Loaded[] = [];
  for (let i = 0; i < LOADED.length; i++) {
    const { name, target } = LOADED[i] as Loaded;
    now[now.length] = loaded(name, target);
  }
  return now;
}

/**
 * The watched built-ins the run's code replaced, added or removed (`Array.prototype.push`,
 * `Object.prototype.toJSON (added)`) since `since` (by default, as evals loaded them); empty when
 * all are as they were.
 */
export function changedBuiltins(since: BuiltinsSnapshot = LOADED): string[] {
  const changed: string[] = [];
  for (let i = 0; i < since.length; i++) {
    const { name, target, properties, count } = since[i] as Loaded;
    const keys = ownKeys(target);
    let kept = 0;
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k] as PropertyKey;
      const then = key in properties ? properties[key] : undefined;
      const now = getOwnPropertyDescriptor(target, key);
      if (then !== undefined) kept += 1;
      if (then === undefined || now === undefined || !sameProperty(then, now)) {
        changed[changed.length] = `${name}.${String(key)}${then === undefined ? ' (added)' : ''}`;
      }
    }
    if (kept < count) changed[changed.length] = `${name} (${count - kept} removed)`;
  }
  return changed;
}

function sameProperty(a: PropertyDescriptor, b: PropertyDescriptor): boolean {
  // The accessors are compared as values, never called.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  return is(a.value, b.value) && is(a.get, b.get) && is(a.set, b.set);
}

/** The name of the gate condition a run fails when its code replaced built-ins. */
export const BUILTINS_CONDITION = 'built-ins';

/**
 * `artifact` as it must be written when the run's code replaced built-ins since `since`: every
 * run failed by a `built-ins` condition naming them, so the file never says pass for a run its
 * end checks fail (`checkRunEnd` then raises the exit code, and says the same on stderr). Called
 * as the artifact is built, before the reports write it. Unchanged when the built-ins are as
 * they were. No array method is used.
 */
export function failedForBuiltins(
  artifact: ResultsArtifact,
  since: BuiltinsSnapshot = LOADED,
): ResultsArtifact {
  const changed = changedBuiltins(since);
  if (changed.length === 0) return artifact;
  const condition: GateCondition = {
    name: BUILTINS_CONDITION,
    expected: 'unchanged by the code the run loaded',
    actual: `replaced: ${list(changed)} (its results may be incomplete or wrong)`,
    passed: false,
  };
  const runs: RunResult[] = [];
  for (let i = 0; i < artifact.runs.length; i++) {
    const run = artifact.runs[i] as RunResult;
    const conditions: GateCondition[] = [];
    for (let c = 0; c < run.gate.conditions.length; c++) {
      conditions[conditions.length] = run.gate.conditions[c] as GateCondition;
    }
    conditions[conditions.length] = condition;
    runs[runs.length] = { ...run, verdict: 'fail', gate: { ...run.gate, conditions } };
  }
  return { ...artifact, verdict: 'fail', runs };
}

/** The first character each output's format begins with (a results artifact is one JSON object). */
const FIRST_CHARACTER: Readonly<Record<string, string>> = {
  '-o': '{',
  '--resume': '{',
  '--junit': '<',
  '--report': '<',
  output: '{', // runTestSuite's
};

/** An output and the file its path named before the run (see `identityOf`), if any. */
export interface OutputBefore {
  flag: string;
  path: string;
  absolute: string;
  identity: string | undefined;
}

/** What each output path names before the run, for {@link unwrittenOutputs} after it. */
export function outputsBefore(outputs: readonly OutputPath[], cwd: string): OutputBefore[] {
  return outputs.map((output) => {
    const absolute = resolve(cwd, output.path);
    return { ...output, absolute, identity: identityOf(absolute) };
  });
}

/** How `evals run` ended, as its last checks read it. */
export interface RunEnd {
  exitCode: number;
  interrupted: boolean;
  /** The outputs that failed to write, by path as given (already reported, with what was kept). */
  failed: readonly { path: string }[];
  /** The built-ins to compare with (`snapshotBuiltins`); by default, as evals loaded them. */
  builtins?: BuiltinsSnapshot;
  /** Where code runs apart, said after the replaced built-ins; by default `isolation: worker`. */
  apart?: string;
}

/**
 * The run's exit code and error lines after its last checks (see the top of this file):
 * - an output it did not write although no write failed (missing, still the file that was
 *   there before: every write renames a new file onto its path; or not beginning as its format
 *   does) makes the exit code 3, as an unwritten file does;
 * - built-ins replaced by the code under test make a 0 a 1: results written through them may be
 *   incomplete or wrong, so the run cannot pass on them.
 * A run cut short is due only its partial artifact; outputs that are not regular files
 * (`/dev/stdout`, a FIFO) are not checked.
 */
export function checkRunEnd(
  outputs: readonly OutputBefore[],
  end: RunEnd,
): { exitCode: number; lines: string[] } {
  const lines: string[] = [];
  let exitCode = end.exitCode;
  for (let i = 0; i < outputs.length; i++) {
    const output = outputs[i] as OutputBefore;
    if (named(end.failed, output.path)) continue;
    if (end.interrupted && FIRST_CHARACTER[output.flag] !== '{') continue;
    const found = checkOne(output);
    if (found === undefined) continue;
    lines[lines.length] = found;
    if (!end.interrupted) exitCode = EXIT_UNWRITTEN;
  }
  const changed = changedBuiltins(end.builtins);
  if (changed.length > 0) {
    const raised = exitCode === 0 ? '; the exit code is 1' : '';
    if (exitCode === 0) exitCode = 1;
    // First, as the likely cause of any file problem above.
    for (let i = lines.length; i > 0; i--) lines[i] = lines[i - 1] as string;
    lines[0] = `the code this run loaded replaced built-ins that evals relies on (${list(changed)}), so its results may be incomplete or wrong; ${end.apart ?? APART}${raised}`;
  }
  return { exitCode, lines };
}

/** Where `evals run` runs a suite's code apart from its own. */
export const APART = 'a suite with `isolation: worker` runs its code apart';

function named(failed: readonly { path: string }[], path: string): boolean {
  for (let i = 0; i < failed.length; i++) if (failed[i]?.path === path) return true;
  return false;
}

/** `items` joined by commas (the run's code may have replaced `Array.prototype.join`). */
function list(items: readonly string[]): string {
  let text = '';
  for (let i = 0; i < items.length; i++) text += `${i > 0 ? ', ' : ''}${items[i] ?? ''}`;
  return text;
}

function checkOne(output: OutputBefore): string | undefined {
  let stats: fs.Stats | undefined;
  try {
    stats = statSync(output.absolute, { throwIfNoEntry: false });
  } catch {
    return undefined; // not ours to judge: the run's own write reported what it met
  }
  const cause = 'although no write failed';
  if (stats === undefined) return `${output.flag} ${output.path} was not written, ${cause}`;
  if (!stats.isFile()) return undefined;
  if (identityOf(output.absolute) === output.identity) {
    return `${output.flag} ${output.path} is the file that was there before the run, not this run's results, ${cause}`;
  }
  const expected = FIRST_CHARACTER[output.flag];
  const first = firstCharacter(output.absolute);
  if (expected === undefined || first === undefined || first === expected) return undefined;
  return `${output.flag} ${output.path} was written, but does not begin with "${expected}" as its format does (it begins with ${JSON.stringify(first)}), ${cause}`;
}

/**
 * The regular file at `path` as one text, or undefined: its device and inode, and its size and
 * times to the nanosecond. The inode alone does not tell: a file system hands a freed inode to
 * the next file it creates, and a resumed run replaces its `-o` once before its results (the
 * partial it recovers from a journal), so the results' new file can get the inode of the file
 * that was there before the run. A file the run did not write keeps all of these.
 */
function identityOf(path: string): string | undefined {
  try {
    const stats = statSync(path, { throwIfNoEntry: false, bigint: true });
    if (stats?.isFile() !== true) return undefined;
    return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
  } catch {
    return undefined;
  }
}

/** The first non-blank character of the file at `path`, among its first bytes; undefined if none. */
function firstCharacter(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const bytes = alloc(64);
    const read = readSync(fd, bytes, 0, bytes.length, 0);
    return bytes.toString('utf8', 0, read).trimStart().charAt(0) || undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
