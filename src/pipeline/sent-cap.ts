/**
 * What a case's target sent (`CaseResult.sent`), kept to a size in the artifact: a model
 * target's rendered messages repeat the system prompt in every case, and a RAG prompt can hold
 * its contexts, so kept whole they could make the artifact (uploaded, downloaded as the next
 * run's baseline, read whole by `evals compare`) many times the size of its inputs and outputs.
 * Cut after the run's scrubber has removed its secrets (`execute.ts`), never before: a secret
 * cut in two is not recognised by any later scrub.
 */
import type { CaseResult } from '../types/index.ts';

/** Characters of `sent` kept: its start and its end, each half of this. */
export const SENT_MAX_CHARS = 8000;

/**
 * `result` with its `sent` (and each trial's) cut to {@link SENT_MAX_CHARS}: the start (the
 * model and system prompt, the request line) and the end (the case's own message, the body's
 * tail), with how much was left out between them. The same object when nothing is that long.
 */
export function capSent(result: CaseResult): CaseResult {
  if (!long(result.sent) && !(result.trials?.some((trial) => long(trial.sent)) ?? false)) {
    return result;
  }
  return {
    ...result,
    ...(result.sent !== undefined && { sent: cutMiddle(result.sent) }),
    ...(result.trials !== undefined && {
      trials: result.trials.map((trial) =>
        trial.sent === undefined ? trial : { ...trial, sent: cutMiddle(trial.sent) },
      ),
    }),
  };
}

function long(text: string | undefined): boolean {
  return text !== undefined && text.length > SENT_MAX_CHARS;
}

function cutMiddle(text: string): string {
  if (text.length <= SENT_MAX_CHARS) return text;
  const half = SENT_MAX_CHARS / 2;
  // Not between the two halves of a surrogate pair: a lone half is no character.
  const headEnd = isLowSurrogate(text.charCodeAt(half)) ? half - 1 : half;
  const tailStart = isLowSurrogate(text.charCodeAt(text.length - half))
    ? text.length - half + 1
    : text.length - half;
  const left = tailStart - headEnd;
  return `${text.slice(0, headEnd)}\n[... ${left} characters left out ...]\n${text.slice(tailStart)}`;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
