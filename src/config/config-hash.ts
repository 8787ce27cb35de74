/**
 * The config's `configHash`: what `--resume` and `evals merge` compare to tell "the same config"
 * from another. It is the sha256 of the canonical JSON of the config's data as written (aliases
 * and `<<` merges expanded, `${VAR}` references NOT substituted), so comments, whitespace,
 * indentation, key order, quoting style and anchors do not change it, while any change of a
 * value, of a key, or of the name (or default) of an environment reference does. The values of
 * environment variables never enter it: the hash is written to artifacts and must not
 * fingerprint secrets.
 *
 * One thing a canonical JSON of the data alone would lose is kept apart: an unquoted value
 * holding a `${VAR}` reference (after substitution it may read as a number or boolean, which a
 * quoted one never does). YAML's `.inf` and `.nan`, which JSON would write as null, never get
 * here: the loader refuses them (yaml-numbers.ts).
 *
 * Earlier evalgate versions hashed the file's text; `configTextHash` is that hash, so their
 * artifacts can still be matched by a config whose text is unchanged.
 */
import { createHash } from 'node:crypto';
import { isMap, isScalar, isSeq, Scalar, type Document } from 'yaml';
import { canonicalJson } from '../shared/canonical-json.ts';
import { setOwn } from '../shared/own-key.ts';
import type { ConfigDataParts, ConfigHashParts } from '../types/index.ts';
import { configDataParts } from './config-data-parts.ts';
import { envValue } from './env.ts';
import { MAX_ALIAS_COUNT } from './yaml-source.ts';

/**
 * The key of the objects that stand for the values plain JSON cannot tell apart: a NUL and a
 * name, which a config would have to spell out on purpose to write such an object itself.
 */
const MARK = '\u0000evalgate';

/** The config's data as written, before `${VAR}` substitution; see {@link hashWritten}. */
export interface WrittenConfig {
  /** A copy of the document, its values marked where plain JSON would lose a distinction. */
  readonly doc: Document;
}

/**
 * Captures the document as written. Call it before `${VAR}` substitution, which changes the
 * document in place; the document given is not changed.
 */
export function captureWritten(doc: Document): WrittenConfig {
  const copy = doc.clone();
  const visit = (node: unknown): void => {
    if (isScalar(node)) mark(node);
    else if (isMap(node)) for (const pair of node.items) visit(pair.value);
    else if (isSeq(node)) for (const item of node.items) visit(item);
    // Keys are never substituted and are compared as text; aliases resolve to the anchored
    // node, which is marked where it is written.
  };
  visit(copy.contents);
  return { doc: copy };
}

/**
 * The configHash of a config captured by {@link captureWritten}: sha256 (hex) of the canonical
 * JSON of its data as written and, when it refers to environment variables, of the values those
 * that are not secrets had (`{ config, env }`). A `${MODEL}` that named another model when a run
 * was interrupted is another config: its results would not be one run's. A secret's value
 * (`isSecret`: by its variable's name, or because the config uses it as a key, a header, a URL
 * credential) never enters the hash, so rotating a key keeps it and the hash fingerprints none.
 *
 * With the hash, the same data broken down (config-data-parts.ts), for a refusal to name what
 * changed in it.
 *
 * @throws when its aliases expand past {@link MAX_ALIAS_COUNT} (the loader refuses such a file
 * before it gets here).
 */
export function hashWritten(
  written: WrittenConfig,
  env: Readonly<Record<string, string | undefined>>,
  isSecret: (name: string, value: string) => boolean,
): { hash: string; dataParts: ConfigDataParts } {
  const data: unknown = written.doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  const values: Record<string, string | null> = {};
  for (const name of referencedNames(data)) {
    const value = envValue(env, name);
    if (value === undefined || !isSecret(name, value)) setOwn(values, name, value ?? null);
  }
  const hashed = Object.keys(values).length === 0 ? data : { config: data, env: values };
  const hash = createHash('sha256').update(canonicalJson(hashed)).digest('hex');
  return { hash, dataParts: configDataParts(data, values, hash) };
}

/** The names of the environment variables the strings of `data` refer to, once each. */
function referencedNames(data: unknown): Set<string> {
  const names = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      // `$${` is an escaped `${`, not a reference (as substituteEnv reads it).
      for (const match of value.replaceAll('$${', '').matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)) {
        names.add(match[1]!);
      }
    } else if (Array.isArray(value)) {
      value.forEach(visit);
    } else if (value !== null && typeof value === 'object') {
      Object.values(value).forEach(visit);
    }
  };
  visit(data);
  return names;
}

/** The hash earlier evalgate versions recorded as `configHash`: sha256 (hex) of the file's text. */
export function configTextHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The hashes a loaded config answers to: a partial or shard recording either was written by it. */
export interface ConfigHashes {
  /**
   * The configHash: of the data as written (see the module comment) and of the files the config
   * names (see pipeline/config-files-hash.ts).
   */
  hash: string;
  /** The hash of the text, which evalgate recorded as configHash before it hashed the data. */
  textHash?: string;
  /**
   * The configHash as evalgate recorded it before it covered modules and command scripts (the
   * data and the prompt files only); absent when the config names neither, as it is then `hash`.
   */
  earlierHash?: string;
  /**
   * The files the hash covers beside the config, by kind, for a refusal to say what may have
   * changed: `["the prompt file prompts/a.md", "the module app/answer.ts and 2 files it imports"]`.
   */
  coveredFiles?: readonly CoveredFiles[];
  /** What `hash` is the hash of, when it covers files: artifacts record it as `configHashParts`. */
  hashParts?: ConfigHashParts;
  /** The config's data hash broken down: artifacts record it as `configDataParts`. */
  dataParts?: ConfigDataParts;
  /** The config as the user named it (`evals.yaml`), for messages. */
  file?: string;
  /**
   * The modules the config names (function targets, module evaluators, `pass:` modules), by
   * their path from its folder, as `hashParts.modules` keys them: the other keys there are files
   * they import.
   */
  namedModules?: readonly string[];
}

/** Files of one kind a configHash covers beside the config, for messages. */
export interface CoveredFiles {
  kind: 'prompt' | 'module' | 'script';
  /** `the module app/answer.ts and the 2 local files it imports` */
  phrase: string;
}

/** Whether an artifact recording `configHash` was written by the config with these hashes. */
export function writtenByConfig(configHash: string, config: ConfigHashes): boolean {
  return (
    configHash === config.hash ||
    configHash === config.textHash ||
    configHash === config.earlierHash
  );
}

function mark(node: Scalar): void {
  const value: unknown = node.value;
  if (typeof value === 'string' && node.type === Scalar.PLAIN && hasReference(value)) {
    node.value = { [MARK]: 'unquoted', value };
  }
}

/**
 * Whether `text` holds a `${…}` reference, scanned as `substituteEnv` scans it: `$${` is an
 * escaped `${`, not a reference.
 */
function hasReference(text: string): boolean {
  let i = text.indexOf('$');
  while (i !== -1) {
    if (text.startsWith('$${', i)) i = text.indexOf('$', i + 3);
    else if (text.startsWith('${', i)) return true;
    else i = text.indexOf('$', i + 1);
  }
  return false;
}
