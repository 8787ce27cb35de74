/**
 * The secrets a loaded config holds: the API keys and header values of judges and targets, the
 * credentials in their URLs (user part and query), as written or read from the environment,
 * and the values a command target sets under secret-looking names (`env: { OPENAI_API_KEY: … }`),
 * which the program may print. The run scrubs them, with the environment's own secrets, from
 * everything it writes (see shared/secrets.ts).
 */
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { isRecord } from '../shared/is-record.ts';
import {
  isSecretName,
  MIN_SECRET_LENGTH,
  secretsInHeaders,
  secretsInUrl,
  sentText,
} from '../shared/secrets.ts';
import { hasTemplates } from '../shared/templates.ts';
import { envValue } from './env.ts';
import type { JudgeSettings, LoadedConfig } from './types.ts';

export function configSecrets(config: Pick<LoadedConfig, 'defaults' | 'suites'>): string[] {
  const found: string[] = [];
  const fromJudge = (settings: JudgeSettings | undefined): void => {
    if (settings === undefined) return;
    if (settings.apiKey !== undefined) found.push(settings.apiKey);
    if (settings.baseUrl !== undefined) found.push(...secretsInUrl(settings.baseUrl));
    found.push(...secretsInHeaders(settings.headers));
  };
  fromJudge(config.defaults.judge);
  for (const suite of config.suites) {
    for (const evaluator of suite.evaluators) fromJudge(evaluator.judge);
    const target = suite.target;
    if (target.kind === 'model') fromJudge(target);
    if (target.kind === 'http') {
      found.push(...secretsInUrl(target.url));
      found.push(...secretsInHeaders(target.headers));
    }
    if (target.kind === 'command') {
      // A template is resolved per case, from the case's own data: not a secret.
      for (const [name, value] of Object.entries(target.env)) {
        if (isSecretName(name) && !hasTemplates(value)) found.push(sentText(value));
      }
    }
  }
  return found;
}

/**
 * The same secrets read from a config's data as written, its `${VAR}` references substituted,
 * before it is checked: for the messages of a config that is refused, which may quote them. A
 * number where text belongs (`apiKey: ${NUMERIC_KEY}`, which YAML reads as a number) counts as
 * its text; a target's fields are taken whatever its `type:`.
 */
export function writtenConfigSecrets(data: unknown): string[] {
  if (!isRecord(data)) return [];
  const found: string[] = [];
  const fromJudge = (settings: unknown): void => {
    if (!isRecord(settings)) return;
    const apiKey = scalarText(settings.apiKey);
    if (apiKey !== undefined) found.push(apiKey);
    if (typeof settings.baseUrl === 'string') found.push(...secretsInUrl(settings.baseUrl));
    found.push(...secretsInHeaders(strings(settings.headers)));
  };
  fromJudge(isRecord(data.defaults) ? data.defaults.judge : undefined);
  for (const suite of Array.isArray(data.suites) ? data.suites : []) {
    if (!isRecord(suite)) continue;
    for (const evaluator of Array.isArray(suite.evaluators) ? suite.evaluators : []) {
      if (isRecord(evaluator)) fromJudge(evaluator.judge);
    }
    const target = suite.target;
    if (!isRecord(target)) continue;
    fromJudge(target);
    if (typeof target.url === 'string') found.push(...secretsInUrl(target.url));
    for (const [name, value] of Object.entries(strings(target.env))) {
      if (isSecretName(name) && !hasTemplates(value)) found.push(sentText(value));
    }
  }
  return found;
}

/** The scalar values of a map (`headers:`, `env:`) as text; none when it is not a map. */
function strings(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(
    Object.entries(value).flatMap(([name, item]) => {
      const text = scalarText(item);
      return text === undefined ? [] : [[name, text]];
    }),
  );
}

/** A string, or a number or boolean YAML read from text, as text; otherwise undefined. */
function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
}

/**
 * The values a config's text reads from the environment, by variable name: each `${VAR}` (or
 * `${VAR:-default}` whose variable is set and not empty) in a string value, as the loader
 * substitutes them (`config/env.ts`); keys, comments and `$${` escapes read nothing. Text that is
 * not YAML is searched whole, so a config the loader will refuse still has its values found.
 */
export function envValuesRead(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
): Map<string, string> {
  const found = new Map<string, string>();
  const read = (value: string): void => {
    for (const match of value.matchAll(/\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}/g)) {
      const name = match[1];
      const set = name === undefined ? undefined : envValue(env, name);
      if (name !== undefined && set !== undefined && set !== '') found.set(name, set);
    }
  };
  const doc = parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length > 0) {
    read(text);
    return found;
  }
  // Iterative: the config is not checked yet, and its nesting may be deep. Aliases are skipped:
  // the anchored node is read where it is written.
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isScalar(node)) {
      if (typeof node.value === 'string' && node.value.includes('${')) read(node.value);
    } else if (isMap(node)) {
      // Reversed onto the stack, so the values are read in the document's order.
      stack.push(...node.items.map((pair) => pair.value).reverse());
    } else if (isSeq(node)) {
      stack.push(...[...node.items].reverse());
    }
  }
  return found;
}

/**
 * Variables the runner and the system set for everyone, whose values are paths and names that
 * appear in outputs for other reasons (`/home/runner`, `octo/repo`): not secrets unless their
 * names say so (`GITHUB_TOKEN`). GitHub refuses secrets whose names start with `GITHUB_`.
 */
const PUBLIC_VARIABLE = /^(GITHUB_|RUNNER_)|^(CI|HOME|PATH|PWD|USER|SHELL|TMPDIR|LANG)$/;

/**
 * The values the GitHub Action treats as secrets because the config reads them (see
 * {@link envValuesRead}), whatever the variables' names: each one masked in the log and scrubbed
 * from everything the Action writes and posts. Values shorter than {@link MIN_SECRET_LENGTH}
 * (`4`, `true`, `ollama`) and those of the runner's public variables are left alone: masked,
 * they would turn every such word of the log and the reports into `***` or `[redacted]`.
 */
export function actionSecrets(read: ReadonlyMap<string, string>): string[] {
  const values = new Set<string>();
  for (const [name, value] of read) {
    if (value.length < MIN_SECRET_LENGTH) continue;
    if (PUBLIC_VARIABLE.test(name) && !isSecretName(name)) continue;
    values.add(value);
  }
  return [...values];
}
