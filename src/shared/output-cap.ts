/**
 * The one limit on how much output a target call may produce (a command's stdout, an HTTP
 * answer's body, a model's response): past it the call is stopped and its case errored, so a
 * runaway answer costs neither memory nor a huge results file.
 */

/** Most bytes kept from one call's output. */
export const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

/** `stdout passed 16 MiB`: the start of the error of a call stopped at the limit. */
export function passedCap(what: string): string {
  return `${what} passed ${MAX_OUTPUT_BYTES / 1024 / 1024} MiB`;
}

/**
 * Chunks of output collected up to {@link MAX_OUTPUT_BYTES}. Once a chunk would take it past
 * the limit, nothing more is kept (what was is dropped too) and `passed` is true.
 */
export class CappedBytes {
  #chunks: Uint8Array[] = [];
  #bytes = 0;
  #passed = false;

  /** Adds `chunk`; false when the output has passed the limit (then and after). */
  add(chunk: Uint8Array): boolean {
    if (this.#passed) return false;
    this.#bytes += chunk.length;
    if (this.#bytes > MAX_OUTPUT_BYTES) {
      this.#passed = true;
      this.#chunks = [];
      return false;
    }
    this.#chunks.push(chunk);
    return true;
  }

  /** Whether the output passed the limit. */
  get passed(): boolean {
    return this.#passed;
  }

  /** What was kept, as it came. */
  bytes(): Buffer {
    return Buffer.concat(this.#chunks);
  }
}
