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

/** The sum of two usages. A `null` cost (an unpriced model) makes the sum's cost `null`. */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    calls: a.calls + b.calls,
    cacheHits: a.cacheHits + b.cacheHits,
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    cost: a.cost === null || b.cost === null ? null : a.cost + b.cost,
    latencyMs: a.latencyMs + b.latencyMs,
  };
}

/**
 * The usage of one finished client call. A cache hit counts as a hit with no tokens, latency or
 * cost; a failed call counts as a call (its tokens are unknown, so none, and it costs nothing we
 * can price). `prices` absent: cost `null`, as it is for a model missing from the table.
 */
export function callUsage(
  result: ChatResult | EmbedResult,
  model: string,
  prices: PriceTable | undefined,
): Usage {
  if (!result.ok) return { ...emptyUsage(), calls: 1, cost: 0 };
  if (result.cached) return { ...emptyUsage(), cacheHits: 1 };
  const promptTokens = result.usage.promptTokens;
  const completionTokens = 'completionTokens' in result.usage ? result.usage.completionTokens : 0;
  const price = prices?.[model];
  const cost =
    price === undefined
      ? null
      : (promptTokens * price.prompt + completionTokens * (price.completion ?? price.prompt)) /
        1_000_000;
  return {
    calls: 1,
    cacheHits: 0,
    promptTokens,
    completionTokens,
    cost,
    latencyMs: result.latencyMs,
  };
}

/** True when `usage` records any call or cache hit (an evaluation without either reports none). */
export function hasUsage(usage: Usage | undefined): usage is Usage {
  return usage !== undefined && usage.calls + usage.cacheHits > 0;
}
