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
 * Reads a {@link CaseStream} as its cases are asked for, holding one batch. The stream is opened
 * by the first request, so a grid point's cases are only read once the previous grid point's
 * last case started. Workers take positions in order and ask for each at once, so a position
 * past the batch means every case of the batch has started: the next batch replaces it. Workers
 * asking while a batch is being read share that read. With the last batch, the stream is read
 * to its end.
 */
class StreamCursor implements CaseCursor {
  readonly #stream: CaseStream;
  #iterator: AsyncIterator<readonly PreparedCase[], unknown> | null = null;
  #batch: readonly PreparedCase[] = [];
  /** Position of `#batch[0]`. */
  #base = 0;
  #reading: Promise<void> | null = null;

  constructor(stream: CaseStream) {
    this.#stream = stream;
  }

  at(index: number): PreparedCase | Promise<PreparedCase> {
    return this.#batch[index - this.#base] ?? this.#load(index);
  }

  async #load(index: number): Promise<PreparedCase> {
    if (index < this.#base) throw new RangeError(`case ${index} was asked for after its batch`);
    while (index >= this.#base + this.#batch.length) {
      this.#reading ??= this.#readBatch().finally(() => {
        this.#reading = null;
      });
      await this.#reading;
    }
    return this.#batch[index - this.#base]!;
  }

  async #readBatch(): Promise<void> {
    this.#iterator ??= this.#stream.read();
    const next = await this.#iterator.next();
    if (next.done === true) {
      throw new Error(
        `the testset gave ${this.#base + this.#batch.length} cases where ${this.#stream.length} were planned`,
      );
    }
    this.#base += this.#batch.length;
    this.#batch = next.value;
    if (this.#base + this.#batch.length < this.#stream.length) return;
    // The last batch: the stream is read to its end now, before these cases run, so the checks
    // it makes there (the file is as it was) can still stop the run.
    const end = await this.#iterator.next();
    if (end.done !== true) {
      throw new Error(`the testset gave more cases than the ${this.#stream.length} planned`);
    }
  }

  async close(): Promise<void> {
    const iterator = this.#iterator;
    this.#iterator = null;
    this.#batch = [];
    await iterator?.return?.();
  }
}
