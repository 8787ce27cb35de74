/**
 * The secrets a loaded config holds: the API keys and header values of judges and targets, the
 * credentials in their URLs (user part and query), as written or read from the environment,
 * and the values a command target sets under secret-looking names (`env: { OPENAI_API_KEY: … }`),
 * which the program may print. The run scrubs them, with the environment's own secrets, from
 * everything it writes (see shared/secrets.ts).
 */
import { isRecord } from '../shared/is-record.ts';
import { isSecretName, secretsInHeaders, secretsInUrl, sentText } from '../shared/secrets.ts';
import { hasTemplates } from '../shared/templates.ts';
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
