/**
 * The secrets a loaded config holds: the API keys and header values of judges and targets, and
 * credentials in their URLs' queries (as written or read from the environment). The run scrubs
 * them, with the environment's own secrets, from everything it writes (see shared/secrets.ts).
 */
import { secretsInHeaders, secretsInUrl } from '../shared/secrets.ts';
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
  }
  return found;
}
