/**
 * Reading an answer's body for a call: a success whole up to the output cap, an error answer
 * only as far as its quote needs.
 */
import { CappedBytes, MAX_OUTPUT_BYTES } from '../shared/output-cap.ts';

/** Of an error answer's body, what is read: more than its quote and its `usage` ever need. */
const ERROR_BODY_BYTES = 64 * 1024;

/**
 * The body of `response`, read as it comes; undefined once it passes {@link MAX_OUTPUT_BYTES}
 * (announced or streamed), the rest left unread.
 */
export async function cappedBytes(response: Response): Promise<Buffer | undefined> {
  const body = response.body;
  if (Number(response.headers.get('content-length')) > MAX_OUTPUT_BYTES) {
    await body?.cancel().catch(() => {});
    return undefined;
  }
  if (body === null) return Buffer.alloc(0);
  const kept = new CappedBytes();
  const reader: ReadableStreamDefaultReader<Uint8Array> = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return kept.bytes();
    if (!kept.add(value)) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
  }
}

/**
 * The first {@link ERROR_BODY_BYTES} of an error answer's body (all of a shorter one), the rest
 * left unread: only its start is quoted, so a huge one is no reason to lose its status.
 */
export async function errorBodyStart(response: Response): Promise<Buffer> {
  const limit = ERROR_BODY_BYTES;
  const body = response.body;
  if (body === null) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader: ReadableStreamDefaultReader<Uint8Array> = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    chunks.push(value);
    size += value.length;
    if (size >= limit) {
      await reader.cancel().catch(() => {});
      return Buffer.concat(chunks).subarray(0, limit);
    }
  }
}
