/** How anything user code threw reads in a message, for every stage that records one. */

/**
 * The message recorded for anything user code threw or rejected with: an Error's message
 * (`Error: boom` → `boom`), a string as is, other values as JSON (`{"code":1}`, `42`). Never
 * throws: an error whose `message` getter or `toJSON` throws is described as such, since the
 * engine records this text and must not crash on reading it.
 */
export function describeError(error: unknown): string {
  try {
    return messageOf(error) + causesOf(error);
  } catch (reading) {
    let why = '';
    try {
      why = `: ${messageOf(reading)}`;
    } catch {
      // Unreadable twice over: the sentence alone says enough.
    }
    return `it threw a value whose message cannot be read${why}`;
  }
}

/** Links of a `cause` chain quoted after the message; deeper ones are left out. */
const CAUSES_SHOWN = 4;

/**
 * ` (cause: fetch failed; cause: connect ECONNREFUSED 127.0.0.1:9)`: the messages of the errors
 * `error.cause` chains to, since a wrapper's own (`fetch failed`, an SDK's `Connection error.`)
 * rarely says what to fix. A cause already quoted in the text (a wrapper that repeats it, a
 * cycle) is left out; a cause that cannot be read ends the chain.
 */
function causesOf(error: unknown): string {
  const seen = new Set<unknown>([error]);
  let text = messageOf(error);
  const quoted: string[] = [];
  let current = error;
  while (quoted.length < CAUSES_SHOWN) {
    let cause: unknown;
    try {
      if (typeof current !== 'object' || current === null || !('cause' in current)) break;
      cause = (current as { cause?: unknown }).cause;
      if (cause === undefined || cause === null || seen.has(cause)) break;
      seen.add(cause);
      const message = messageOf(cause);
      if (!text.includes(message)) {
        quoted.push(message);
        text += `\n${message}`;
      }
    } catch {
      break;
    }
    current = cause;
  }
  return quoted.length === 0 ? '' : ` (cause: ${quoted.join('; cause: ')})`;
}

/** Inner errors of an AggregateError quoted in its message; the rest are counted. */
const INNER_ERRORS_SHOWN = 5;

/**
 * `error`'s message; an AggregateError's (what `Promise.any` rejects with) followed by those of
 * its inner errors, which say what failed where its own says only "All promises were rejected".
 * Those are described one level deep: an AggregateError among them (or the error itself) is
 * quoted by its message alone. Not cut: the text is scrubbed of secrets after this, and a
 * secret cut in two would be scrubbed by neither half.
 */
function messageOf(error: unknown): string {
  const own = ownMessageOf(error);
  if (!isAggregateError(error) || !Array.isArray(error.errors) || error.errors.length === 0) {
    return own;
  }
  const errors: unknown[] = error.errors;
  const shown = errors.slice(0, INNER_ERRORS_SHOWN).map((inner) => {
    try {
      return ownMessageOf(inner);
    } catch {
      return 'an error whose message cannot be read';
    }
  });
  const more = errors.length - shown.length;
  const count = `${errors.length} ${errors.length === 1 ? 'error' : 'errors'}`;
  return `${own} (${count}: ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''})`;
}

/** By name as well: an AggregateError from another realm (a `vm` context) is not ours. */
function isAggregateError(error: unknown): error is { errors: unknown } {
  if (error instanceof AggregateError) return true;
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: unknown }).name === 'AggregateError' &&
    'errors' in error
  );
}

function ownMessageOf(error: unknown): string {
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string' && message !== '') return message;
    if (error instanceof Error) return error.name;
  }
  const json = jsonOf(error);
  return json ?? String(error);
}

function jsonOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    // Cyclic or BigInt-holding values: the caller falls back on their string form.
    return undefined;
  }
}
