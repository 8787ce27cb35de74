/**
 * The secrets a loaded config holds: the API keys and header values of judges and targets, the
 * credentials in their URLs (user part and query), as written or read from the environment,
 * and the values a command target sets under secret-looking names (`env: { OPENAI_API_KEY: … }`),
 * which the program may print. The run scrubs them, with the environment's own secrets, from
 * everything it writes (see shared/secrets.ts).
 */
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
