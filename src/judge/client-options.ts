/**
 * The option names of `createJudgeClient`, checked when a client is made: an option it does not
 * have was ignored without a word, so `baseURL` (the OpenAI SDK's spelling) sent every call, and
 * the key meant for another server, to `OPENAI_BASE_URL` or OpenAI; `timeout` (evals.yaml's
 * name) left the default. The compiler catches these only in an object literal typed as the
 * options, not from JavaScript or an object built elsewhere.
 */
import { UsageError, describeValue } from '../shared/errors.ts';
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

/**
 * What a numeric option must be, and whether `value` is that: a value of another kind was used
 * as it was (`timeoutMs: '60s'` timed every attempt out at once, "after 60s ms").
 */
const NUMBERS: Readonly<Record<string, [expected: string, fits: (value: number) => boolean]>> = {
  // setTimeout fires at once for a delay past 2^31 − 1 ms (about 24 days), or Infinity.
  timeoutMs: [
    'a number of milliseconds above 0 and at most 2147483647',
    (n) => n > 0 && n <= 2_147_483_647,
  ],
  maxRetries: ['a whole number of 0 or more', (n) => Number.isInteger(n) && n >= 0],
  maxConcurrentPerHost: [
    'a whole number of at least 1 (or Infinity: no limit)',
    (n) => n === Infinity || (Number.isInteger(n) && n >= 1),
  ],
};

/** The problems of the values of `options` that have a kind a client can check. */
function valueProblems(options: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [name, [expected, fits]] of Object.entries(NUMBERS)) {
    const value = options[name];
    if (value === undefined || (typeof value === 'number' && fits(value))) continue;
    problems.push(`${name} must be ${expected}, got ${describeValue(value)}`);
  }
  for (const name of ['baseUrl', 'cacheDir']) {
    const value = options[name];
    if (value === undefined || typeof value === 'string' || (name === 'cacheDir' && value === null))
      continue;
    problems.push(`${name} must be a string, got ${describeValue(value)}`);
  }
  // Never quoted: it is the key.
  if (options.apiKey !== undefined && typeof options.apiKey !== 'string') {
    problems.push(`apiKey must be a string, got a ${typeof options.apiKey}`);
  }
  return problems;
}

/**
 * Throws a UsageError naming each key of `options` that is no option of the client, and each
 * option whose value is not of its kind.
 */
export function checkClientOptions(options: object): void {
  const unknown = Object.keys(options)
    .filter((key) => !OPTIONS.includes(key))
    .map((key) => {
      const meant = Object.hasOwn(MEANT, key)
        ? MEANT[key]
        : OPTIONS.find((option) => option.toLowerCase() === key.toLowerCase());
      return meant !== undefined
        ? `unknown option ${key}: did you mean ${meant}?`
        : `unknown option ${key} (the options are ${OPTIONS.join(', ')})`;
    });
  const problems = [...unknown, ...valueProblems(options as Record<string, unknown>)];
  if (problems.length === 0) return;
  const message = `createJudgeClient: ${problems.join('; ')}`;
  throw new UsageError(
    [{ code: 'judge.option', file: '', line: 0, col: 0, path: 'options', message }],
    message,
  );
}
