/**
 * For the tests of how a target's text output is read (its line ends, its trailing line
 * breaks): a loopback server's chat completion, a model target on that server, and the one
 * case of a run.
 */
import type { ServerResponse } from 'node:http';
import { artifactCases, runInProcess } from './in-process.ts';

/** Answers a chat completion request with a reply whose text is `content`. */
export function chatReply(res: ServerResponse, content: string): void {
  const message = { role: 'assistant', content };
  const choices = [{ index: 0, message, finish_reason: 'stop' }];
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices }));
}

/** The config lines of a model target on the OpenAI-compatible API at `${base}/v1`. */
export function modelTarget(base: string): string[] {
  return [
    'target:',
    '  type: model',
    '  model: m',
    `  baseUrl: ${base}/v1`,
    '  apiKey: sk-test-key',
    '  prompt: hi',
  ];
}

/** Runs the project in `dir` (no cache): its exit code, and its one case's output and error. */
export async function onlyCase(
  dir: string,
): Promise<{ code: number; output: unknown; error: string }> {
  const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
  const c = artifactCases(dir)[0]!.cases[0]!;
  return { code: result.code, output: c.output, error: c.error ?? '' };
}
