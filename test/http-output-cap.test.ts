/**
 * An answer too large to keep: a loopback server streams 64 MiB in chunks. The http target and
 * the model target stop reading past 16 MiB, abort the request and error the case, so neither
 * the artifact nor the process's memory grows with the answer.
 */
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

const MIB = 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'a');
/**
 * What the server sends: 64 MiB, or 1 MiB on a path ending `/small`. Far past the 16 MiB limit:
 * loopback socket buffers can hold several MiB that the server has written and the client never
 * read, so with only a few MiB to spare the server could finish before the client's abort
 * reached it, and "it was stopped" could not be told from "it read everything".
 */
const BIG = 64 * MIB;
let total = BIG;

/** Bytes the server managed to send on its last answer before it ended or was cut off. */
let sent = 0;
let finished = false;

/** Writes `total` bytes chunk by chunk, waiting for `drain`, stopping when the client leaves. */
function stream(res: ServerResponse, head: string, contentType: string): void {
  res.writeHead(200, { 'content-type': contentType });
  let closed = false;
  res.on('close', () => (closed = true));
  res.write(head);
  const more = (): void => {
    while (!closed && sent < total) {
      sent += CHUNK.length;
      if (!res.write(CHUNK)) return void res.once('drain', more);
    }
    if (!closed) {
      finished = true;
      res.end(contentType.includes('json') ? '"}}]}' : '');
    }
  };
  more();
}

const served = useLoopbackServer((req, res) => {
  req.resume().on('end', () => {
    total = req.url?.endsWith('/small') ? MIB : BIG;
    if (req.url?.endsWith('/chat/completions')) {
      stream(res, '{"choices":[{"message":{"role":"assistant","content":"', 'application/json');
    } else {
      stream(res, '', 'text/plain');
    }
  });
});

beforeEach(() => {
  sent = 0;
  finished = false;
});

/** Runs the project, watching this process's memory while it does. */
async function runWatched(dir: string): Promise<{ code: number; out: string; peakGrowth: number }> {
  global.gc?.();
  const start = process.memoryUsage().rss;
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  try {
    const run = await runInProcess(['run', '-o', 'results.json'], dir, {
      COLUMNS: '200',
      OPENAI_API_KEY: 'sk-test',
    });
    peak = Math.max(peak, process.memoryUsage().rss);
    return { code: run.code, out: run.stdout + run.stderr, peakGrowth: peak - start };
  } finally {
    clearInterval(timer);
  }
}

function assertCapped(
  dir: string,
  result: { code: number; out: string; peakGrowth: number },
): void {
  assert.equal(result.code, 1, result.out);
  const error = artifactCases(dir)[0]!.cases[0]!.error ?? '';
  assert.match(error, /^the answer passed 16 MiB; /, error);
  assert.match(result.out, /the answer passed 16 MiB/);
  // The request was aborted: the server did not get to send everything.
  assert.equal(finished, false, `the server sent all ${sent} bytes`);
  assert.ok(statSync(join(dir, 'results.json')).size < 64 * 1024, 'the artifact stayed small');
  assert.ok(result.peakGrowth < 150 * MIB, `memory grew by ${result.peakGrowth / MIB} MiB`);
}

describe('answers past 16 MiB', () => {
  it('the http target stops reading, aborts the request and errors the case', async () => {
    const dir = jsonlProject(
      [{ q: 'x' }],
      ['target:', '  type: http', `  url: ${served.base}/big`],
    );
    assertCapped(dir, await runWatched(dir));
  });

  it('the model target does the same with the response body', async () => {
    const dir = jsonlProject(
      [{ q: 'x' }],
      [
        'target:',
        '  type: model',
        '  model: m',
        '  prompt: "{{ case.q }}"',
        `  baseUrl: ${served.base}/v1`,
      ],
    );
    assertCapped(dir, await runWatched(dir));
  });

  it('an answer under the limit is kept whole, under the same limit as a command', async () => {
    const dir = jsonlProject(
      [{ q: 'x' }],
      ['target:', '  type: http', `  url: ${served.base}/small`],
    );
    const run = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal((artifactCases(dir)[0]!.cases[0]!.output as string).length, MIB);
    const { MAX_OUTPUT_BYTES } = await import('../src/shared/output-cap.ts');
    const { MAX_STDOUT_BYTES } = await import('../src/targets/command.ts');
    assert.equal(MAX_OUTPUT_BYTES, 16 * MIB);
    assert.equal(MAX_STDOUT_BYTES, MAX_OUTPUT_BYTES);
  });
});
