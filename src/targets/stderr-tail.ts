/**
 * The end of a `command` target's stderr, kept while the process runs for the error of a failed
 * case. Only the end is kept, and a failure shows only its last lines: both are cuts, and a cut
 * within a secret keeps a part of it that no scrubbing recognises. So whole lines are kept, as
 * many bytes more than are shown as the longest secret takes, and what is shown is scrubbed
 * before it is cut: a secret that spans lines (a private key) is then removed whole, whichever
 * of its lines a cut would have fallen on.
 */
import type { Scrubber } from '../shared/secrets.ts';

/** Most stderr a failure shows (its last lines, of those a tail this long holds). */
export const STDERR_TAIL_BYTES = 64 * 1024;

export class StderrTail {
  #kept = Buffer.alloc(0);
  /** Lines were dropped from the start of what is kept. */
  #trimmed = false;
  /** Inside a line longer than all that is kept: skipped to its end. */
  #skipping = false;
  readonly #scrubber: Scrubber;
  readonly #limit: number;

  constructor(scrubber: Scrubber) {
    this.#scrubber = scrubber;
    this.#limit = STDERR_TAIL_BYTES + scrubber.longestBytes;
  }

  /** Adds what the process wrote, dropping whole lines from the start past the limit. */
  add(chunk: Buffer): void {
    let data = chunk;
    if (this.#skipping) {
      const newline = data.indexOf(10);
      if (newline < 0) return;
      this.#skipping = false;
      data = data.subarray(newline + 1);
    }
    this.#kept = Buffer.concat([this.#kept, data]);
    if (this.#kept.length <= this.#limit) return;
    const tail = this.#kept.subarray(this.#kept.length - this.#limit);
    const newline = tail.indexOf(10);
    this.#skipping = newline < 0;
    this.#kept = this.#skipping ? Buffer.alloc(0) : tail.subarray(newline + 1);
    this.#trimmed = true;
  }

  /** The end of stderr once the process has ended: scrubbed, then cut to whole lines. */
  text(): string {
    if (this.#skipping && this.#kept.length === 0) {
      return `(its last line passed ${STDERR_TAIL_BYTES / 1024} KiB and is not shown)`;
    }
    return this.#shown(this.#kept);
  }

  /**
   * The lines written in full so far (at a time-out): a line still being written could end
   * inside a secret, which scrubbing would then not recognise.
   */
  completeLines(): string {
    const end = this.#kept.lastIndexOf(10);
    return end < 0 ? '' : this.#shown(this.#kept.subarray(0, end));
  }

  #shown(bytes: Buffer): string {
    const written = bytes.toString('utf8');
    let text = this.#scrubber.text(written);
    if (this.#trimmed && this.#scrubber.longestBytes > 0) {
      // The first lines may end a secret whose start was dropped, which scrubbing cannot know.
      // That end is shorter than the longest secret, and it is before the first secret the scrub
      // replaced (the text up to there is as written): the lines up to the nearer go.
      const end = Math.min(this.#scrubber.longestBytes, sameUpTo(written, text));
      const newline = end === 0 ? -1 : text.indexOf('\n', end - 1);
      if (end > 0) text = newline < 0 ? '' : text.slice(newline + 1);
    }
    const scrubbed = Buffer.from(text, 'utf8');
    if (scrubbed.length <= STDERR_TAIL_BYTES) return text;
    const tail = scrubbed.subarray(scrubbed.length - STDERR_TAIL_BYTES);
    const newline = tail.indexOf(10);
    return newline < 0 ? '' : tail.subarray(newline + 1).toString('utf8');
  }
}

/** How many characters `a` and `b` begin with alike. */
function sameUpTo(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  // Bounded by the shorter text.
  for (let i = 0; i < length; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return i;
  return length;
}
