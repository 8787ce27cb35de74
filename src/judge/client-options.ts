/**
 * The option names of `createJudgeClient`, checked when a client is made: an option it does not
 * have was ignored without a word, so `baseURL` (the OpenAI SDK's spelling) sent every call, and
 * the key meant for another server, to `OPENAI_BASE_URL` or OpenAI; `timeout` (evals.yaml's
 * name) left the default. The compiler catches these only in an object literal typed as the
 * options, not from JavaScript or an object built elsewhere.
 */
import { UsageError } from '../shared/errors.ts';
import type { JudgeClientOptions } from './client.ts';

/** Every option, in the order the options type declares them (the compiler keeps it complete). */
const OPTIONS = Object.keys({
  baseUrl: true,
  apiKey: true,
  headers: true,
  timeoutMs: true,
  maxRetries: true,
  cacheDir: true,
  onCacheUnwritable: true,
  secrets: true,
  breaker: true,
  maxConcurrentPerHost: true,
  hostLimiter: true,
  fetch: true,
  sleep: true,
  now: true,
  random: true,
  env: true,
} satisfies Record<keyof JudgeClientOptions, true>);

/** Names other APIs give an option, and the option meant. */
const MEANT: Readonly<Record<string, string>> = {
  // The OpenAI SDK's.
  baseURL: 'baseUrl',
  timeout: 'timeoutMs (in milliseconds)',
  // evals.yaml's judge settings.
  hostConcurrency: 'maxConcurrentPerHost',
};

/** Throws a UsageError naming each key of `options` that is no option of the client. */
export function checkClientOptions(options: object): void {
  const problems = Object.keys(options)
    .filter((key) => !OPTIONS.includes(key))
    .map((key) => {
      const meant = Object.hasOwn(MEANT, key)
        ? MEANT[key]
        : OPTIONS.find((option) => option.toLowerCase() === key.toLowerCase());
      return meant !== undefined
        ? `unknown option ${key}: did you mean ${meant}?`
        : `unknown option ${key} (the options are ${OPTIONS.join(', ')})`;
    });
  if (problems.length === 0) return;
  const message = `createJudgeClient: ${problems.join('; ')}`;
  throw new UsageError(
    [{ code: 'judge.option', file: '', line: 0, col: 0, path: 'options', message }],
    message,
  );
}
