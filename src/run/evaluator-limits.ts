/**
 * The limiters of evaluators whose `maxConcurrency` belongs to an object of the user's
 * (`EngineEvaluator.limitOwner`): one per object, shared by every suite, run and engine that
 * uses it. Two `runTestSuite` calls running at once are two engines; were the limit theirs, an
 * evaluator instance both share (an LLM judge held to a provider's rate limit) would have twice
 * its calls in flight.
 */
import pLimit, { type LimitFunction } from 'p-limit';

/** Weak: an evaluator object dropped by the user takes its limiter with it. */
const limits = new WeakMap<object, LimitFunction>();

/**
 * The limiter of `owner`, allowing `concurrency` calls in flight (checked by the caller). An
 * owner whose `maxConcurrency` changed since its limiter was made gets the new value: the one
 * its object says now.
 */
export function ownerLimit(owner: object, concurrency: number): LimitFunction {
  let limit = limits.get(owner);
  if (limit === undefined) {
    limit = pLimit(concurrency);
    limits.set(owner, limit);
  } else if (limit.concurrency !== concurrency) {
    limit.concurrency = concurrency;
  }
  return limit;
}
