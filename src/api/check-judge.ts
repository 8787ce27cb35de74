/**
 * `runTestSuite`'s `judge` (the model access of the SDK's judge classes), `baselinesDir` and
 * `updateBaselines`,
 * checked with the other arguments as evals.yaml's judge settings are by its schema. Unchecked,
 * a misspelt key (`modle`) is ignored and every judge call goes to the default model, paid for
 * and judged by a model nobody chose; a value of the wrong kind (`model: 123`) is sent as it is.
 */
import { isRecord } from '../shared/is-record.ts';
import { closestMatch } from '../config/did-you-mean.ts';
import { describeValue } from '../shared/errors.ts';
import type { JudgeClientOptions } from '../judge/client.ts';

/** One problem: the place it names (its issue's path) and the whole message. */
export interface JudgeProblem {
  path: string;
  message: string;
}

/** Every key of `SuiteJudgeSettings`. */
const SETTINGS = ['model', 'embeddingModel', 'temperature', 'prices', 'cacheDir', 'client'];
/**
 * Judge settings of evals.yaml that `runTestSuite` takes as options of its own client, each with
 * the name `createJudgeClient` gives it (checked against its options by the compiler): a hint
 * naming evals.yaml's `timeout` would be followed by an option the client silently ignores.
 */
const CLIENT_OPTIONS: Readonly<
  Record<string, { option: keyof JudgeClientOptions; unit?: string }>
> = {
  baseUrl: { option: 'baseUrl' },
  apiKey: { option: 'apiKey' },
  headers: { option: 'headers' },
  timeout: { option: 'timeoutMs', unit: ', in milliseconds' },
  maxRetries: { option: 'maxRetries' },
  hostConcurrency: { option: 'maxConcurrentPerHost' },
};

const isName = (value: unknown): boolean => typeof value === 'string' && value !== '';

/**
 * Every problem with `judge`, `[]` when there is none; `scrub` removes the run's secrets from a
 * value a problem quotes, before it is cut.
 */
export function judgeProblems(judge: unknown, scrub: (text: string) => string): JudgeProblem[] {
  if (judge === undefined) return [];
  const problems: JudgeProblem[] = [];
  const add = (path: string, expected: string, found: unknown): void => {
    problems.push({
      path,
      message: `${path} must be ${expected}, got ${describeValue(found, scrub)}`,
    });
  };
  if (!isRecord(judge)) {
    add('judge', `an object of judge settings (${SETTINGS.join(', ')})`, judge);
    return problems;
  }
  for (const key of Object.keys(judge)) {
    if (SETTINGS.includes(key)) continue;
    const near = closestMatch(key, SETTINGS);
    const client = Object.hasOwn(CLIENT_OPTIONS, key) ? CLIENT_OPTIONS[key] : undefined;
    const hint =
      client !== undefined
        ? ` (${key} is an option of the client: pass client: createJudgeClient({ ${client.option}, … })${client.unit ?? ''})`
        : near !== undefined
          ? `: did you mean ${near}?`
          : ` (the settings are ${SETTINGS.join(', ')})`;
    problems.push({ path: `judge.${key}`, message: `judge: unknown setting ${key}${hint}` });
  }
  const { model, embeddingModel, temperature, prices, cacheDir, client } = judge;
  if (model !== undefined && !isName(model)) add('judge.model', 'the name of a chat model', model);
  if (embeddingModel !== undefined && !isName(embeddingModel)) {
    add('judge.embeddingModel', 'the name of an embeddings model', embeddingModel);
  }
  if (
    temperature !== undefined &&
    !(typeof temperature === 'number' && temperature >= 0 && temperature <= 2)
  ) {
    add('judge.temperature', 'a number from 0 to 2', temperature);
  }
  if (cacheDir !== undefined && !isName(cacheDir)) {
    add('judge.cacheDir', 'the path of a folder', cacheDir);
  } else if (cacheDir !== undefined && client !== undefined) {
    // The cache lives in the client createJudgeClient makes: a client of one's own never sees
    // this folder, and every call would go to the server while the user believes it cached.
    problems.push({
      path: 'judge.cacheDir',
      message: `judge.cacheDir is the cache of the default client and has no effect with judge.client: pass it to your client, client: createJudgeClient({ cacheDir: ${JSON.stringify(cacheDir)}, … }), or leave judge.client out`,
    });
  }
  if (client !== undefined && !(isRecord(client) && typeof client.chat === 'function')) {
    // Its value is not quoted: an options object given as the client holds the API key.
    const keys = isRecord(client) ? Object.keys(client) : [];
    const found =
      keys.length > 0
        ? `an object of ${keys.join(', ')} (the options of createJudgeClient, not a client?)`
        : isRecord(client)
          ? 'an object {}'
          : describeValue(client, scrub);
    problems.push({
      path: 'judge.client',
      message: `judge.client must be a judge client (createJudgeClient(…)), got ${found}`,
    });
  }
  if (prices !== undefined) problems.push(...priceProblems(prices, scrub));
  return problems;
}

/** `prices`: model name → `{ prompt, completion? }`, US dollars per million tokens. */
function priceProblems(prices: unknown, scrub: (text: string) => string): JudgeProblem[] {
  const expected = 'an object of model name → { prompt, completion? }';
  if (!isRecord(prices)) {
    return [
      {
        path: 'judge.prices',
        message: `judge.prices must be ${expected}, got ${describeValue(prices, scrub)}`,
      },
    ];
  }
  const isPrice = (value: unknown): boolean =>
    typeof value === 'number' && Number.isFinite(value) && value >= 0;
  return Object.entries(prices).flatMap(([model, price]) => {
    const fine =
      isRecord(price) &&
      isPrice(price.prompt) &&
      (price.completion === undefined || isPrice(price.completion)) &&
      Object.keys(price).every((key) => key === 'prompt' || key === 'completion');
    if (fine) return [];
    const path = `judge.prices.${model}`;
    return [
      {
        path,
        message: `${path} must be { prompt, completion? }, US dollars per million tokens (numbers of 0 or more), got ${describeValue(price, scrub)}`,
      },
    ];
  });
}

/**
 * `baselinesDir`, a folder resolved against the working directory, and `updateBaselines`, a
 * boolean: a truthy string (`process.env.UPDATE`) would record baselines when `'false'` is meant.
 * `scrub` as for `judgeProblems`.
 */
export function baselinesProblems(
  dir: unknown,
  update: unknown,
  scrub: (text: string) => string,
): JudgeProblem[] {
  const problems: JudgeProblem[] = [];
  if (dir !== undefined && !isName(dir)) {
    problems.push({
      path: 'baselinesDir',
      message: `baselinesDir must be the path of a folder, got ${describeValue(dir, scrub)}`,
    });
  }
  if (update !== undefined && typeof update !== 'boolean') {
    problems.push({
      path: 'updateBaselines',
      message: `updateBaselines must be true or false, got ${describeValue(update, scrub)}`,
    });
  }
  return problems;
}
