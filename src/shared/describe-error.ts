/** How anything user code threw reads in a message, for every stage that records one. */

/**
 * The message recorded for anything user code threw or rejected with: an Error's message
 * (`Error: boom` → `boom`), a string as is, other values as JSON (`{"code":1}`, `42`). Never
 * throws: an error whose `message` getter or `toJSON` throws is described as such, since the
 * engine records this text and must not crash on reading it.
 */
export function describeError(error: unknown): string {
  try {
    return messageOf(error);
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

function messageOf(error: unknown): string {
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
