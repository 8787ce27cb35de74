import type { PreparedCase } from '../types.ts';
import { CaseStream, type SuiteCases } from './types.ts';

/**
 * One run's way to its suite's cases, by position. Positions are asked for in increasing order
 * (a position again for each trial of its case), each as soon as a worker takes it.
 */
export interface CaseCursor {
  /** The case at `index`: at once when it is in memory, else once its batch was read. */
  at(index: number): PreparedCase | Promise<PreparedCase>;
  /** Stops reading (the run ended, or was interrupted): the file is closed. */
  close(): Promise<void>;
}

/** A cursor over `cases`; held cases are simply indexed. */
export function caseCursor(cases: SuiteCases): CaseCursor {
  if (cases instanceof CaseStream) return new StreamCursor(cases);
  return { at: (index) => cases[index]!, close: () => Promise.resolve() };
}

/**
 * Reads a {@link CaseStream} as its cases are asked for, holding the batch being taken and the
 * next one. The stream is opened by the first request, so a grid point's cases are only read
 * once the previous grid point's last case started. Workers take positions in order and ask for
 * each at once, so a position past the batch means every case of the batch has started: the
 * next batch replaces it. Once half of a batch was asked for, the next one is read ahead, so
 * workers seldom wait for it (every worker behind the first one past a batch would, up to a
 * suite's concurrency); workers that do wait share one read. With the last batch, the stream is
 * read to its end before the batch is handed out.
 */
class StreamCursor implements CaseCursor {
  readonly #stream: CaseStream;
  #iterator: AsyncIterator<readonly PreparedCase[], unknown> | null = null;
  #batch: readonly PreparedCase[] = [];
  /** Position of `#batch[0]`. */
  #base = 0;
  /** The batch after `#batch`, once read. */
  #next: readonly PreparedCase[] | null = null;
  /** Cases read so far, `#batch` and `#next` included. */
  #read = 0;
  /** The read of the next batch under way (it never rejects: a failure goes to `#error`). */
  #reading: Promise<void> | null = null;
  #error: { error: unknown } | null = null;

  constructor(stream: CaseStream) {
    this.#stream = stream;
  }

  at(index: number): PreparedCase | Promise<PreparedCase> {
    let found = this.#batch[index - this.#base];
    // Past the batch, with the next one read ahead: on to it at once.
    if (found === undefined && index >= this.#base + this.#batch.length && this.#advance()) {
      found = this.#batch[index - this.#base];
    }
    if (found === undefined) return this.#load(index);
    if (
      this.#next === null &&
      this.#reading === null &&
      this.#read < this.#stream.length &&
      (index - this.#base) * 2 >= this.#batch.length
    ) {
      this.#reading = this.#readAhead();
    }
    return found;
  }

  async #load(index: number): Promise<PreparedCase> {
    if (index < this.#base) throw new RangeError(`case ${index} was asked for after its batch`);
    while (index >= this.#base + this.#batch.length) {
      if (this.#advance()) continue;
      if (this.#error !== null) throw this.#error.error;
      // Workers waiting on one read all loop again: the first moves on to the batch it read.
      this.#reading ??= this.#readAhead();
      await this.#reading;
    }
    return this.#batch[index - this.#base]!;
  }

  /** Moves on to the batch read ahead, if there is one. */
  #advance(): boolean {
    if (this.#next === null) return false;
    this.#base += this.#batch.length;
    this.#batch = this.#next;
    this.#next = null;
    return true;
  }

  async #readAhead(): Promise<void> {
    try {
      this.#iterator ??= this.#stream.read();
      const next = await this.#iterator.next();
      if (next.done === true) {
        throw new Error(
          `the testset gave ${this.#read} cases where ${this.#stream.length} were planned`,
        );
      }
      const read = this.#read + next.value.length;
      if (read >= this.#stream.length) {
        // The last batch: the stream is read to its end before its cases are handed out, so
        // the checks it makes there (the file is as it was) can still stop the run.
        const end = await this.#iterator.next();
        if (end.done !== true) {
          throw new Error(`the testset gave more cases than the ${this.#stream.length} planned`);
        }
      }
      this.#next = next.value;
      this.#read = read;
    } catch (error) {
      this.#error ??= { error };
    } finally {
      this.#reading = null;
    }
  }

  async close(): Promise<void> {
    // A read ahead under way finishes first: an iterator takes no `return` while it runs.
    await this.#reading;
    const iterator = this.#iterator;
    this.#iterator = null;
    this.#batch = [];
    this.#next = null;
    await iterator?.return?.();
  }
}
