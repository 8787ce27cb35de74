/**
 * Accounting of model calls: one call's usage from a client result, and sums over evaluations,
 * evaluators and runs. Pure.
 */
import type { Usage } from '../types/index.ts';
import type { ChatResult, EmbedResult } from './types.ts';

/** US dollars per million tokens, by model name (`defaults.judge.prices`). */
export type PriceTable = Readonly<Record<string, { prompt: number; completion?: number }>>;

/** Usage of nothing: the identity of `addUsage`. */
export function emptyUsage(): Usage {
  return { calls: 0, cacheHits: 0, promptTokens: 0, completionTokens: 0, cost: 0, latencyMs: 0 };
}

/**
 * The sum of two usages. A `null` cost (an unpriced model, an answer without token counts) makes
 * the sum's cost `null`. `retries` is kept only when one of them has it.
 */
export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    calls: a.calls + b.calls,
    cacheHits: a.cacheHits + b.cacheHits,
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    cost: a.cost === null || b.cost === null ? null : a.cost + b.cost,
    latencyMs: a.latencyMs + b.latencyMs,
  };
  if (a.retries !== undefined || b.retries !== undefined) {
    sum.retries = (a.retries ?? 0) + (b.retries ?? 0);
  }
  return sum;
}

/** What `tokens` cost at `model`'s price; `null` when the model has no price. */
function priced(
  tokens: { promptTokens: number; completionTokens: number },
  model: string,
  prices: PriceTable | undefined,
): number | null {
  const price = prices?.[model];
  if (price === undefined) return null;
  const { promptTokens, completionTokens } = tokens;
  const cost =
    (promptTokens * price.prompt + completionTokens * (price.completion ?? price.prompt)) / 1e6;
  // Absurd counts from a misbehaving server would make it Infinity, which no usage may hold
  // (the whole call's usage would be dropped with it): the cost is then unknown.
  return Number.isFinite(cost) ? cost : null;
}

/** `{ retries }` for a call of `attempts` requests, when it took more than one. */
function retriesOf(attempts: number | undefined): Pick<Usage, 'retries'> {
  return attempts !== undefined && attempts > 1 ? { retries: attempts - 1 } : {};
}

/**
 * The usage of one finished client call; a call is one however many attempts it took, and the
 * attempts after the first are its `retries`. A cache hit counts as a hit with no tokens,
 * latency or cost. A failed call counts as a call with the time it took (every attempt and
 * wait); so does a call its signal stopped (a time limit, an interrupt) once a request went
 * out: it reached the server. Its tokens are those the server reported with its unusable or
 * error answers, else none (a timeout or a dropped socket reports none), and its cost is priced
 * from them. A successful call whose answer did not report its token counts (`unreported`)
 * counts 0 tokens and an unknown (`null`) cost: the provider billed it. A call never sent (its server given up on by the breaker, a bad URL, a request fetch
 * refused before sending it, stopped while it waited for the host cap) is no call at all: empty
 * usage. `prices` absent: cost `null`, as
 * it is for a model missing from the table.
 */
export function callUsage(
  result: ChatResult | EmbedResult,
  model: string,
  prices: PriceTable | undefined,
): Usage {
  if (!result.ok) {
    const { attempts, latencyMs, usage } = result.error;
    if (attempts === 0) return emptyUsage();
    return {
      calls: 1,
      cacheHits: 0,
      promptTokens: usage?.promptTokens ?? 0,
      completionTokens: usage?.completionTokens ?? 0,
      // Providers bill the tokens they report: a failed call that reported none cost nothing
      // (an unpriced model stays unknown). Unknown here would blank the whole run's cost.
      cost: priced(usage ?? { promptTokens: 0, completionTokens: 0 }, model, prices),
      latencyMs: latencyMs ?? 0,
      ...retriesOf(attempts),
    };
  }
  if (result.cached) return { ...emptyUsage(), cacheHits: 1 };
  const promptTokens = result.usage.promptTokens;
  const completionTokens = 'completionTokens' in result.usage ? result.usage.completionTokens : 0;
  return {
    calls: 1,
    cacheHits: 0,
    promptTokens,
    completionTokens,
    // An answer that did not report its tokens was billed for some all the same: unknown.
    cost:
      result.usage.unreported === true
        ? null
        : priced({ promptTokens, completionTokens }, model, prices),
    latencyMs: result.latencyMs,
    ...retriesOf(result.attempts),
  };
}

/** True when `usage` records any call or cache hit (an evaluation without either reports none). */
export function hasUsage(usage: Usage | undefined): usage is Usage {
  return usage !== undefined && usage.calls + usage.cacheHits > 0;
}
