/**
 * One fake OpenAI-compatible server per judge test file (see openai-server.ts), held in a live
 * binding so that tests, hooks and shared fixtures all read the same instance, and the
 * temporary directories to remove once the file's tests are done.
 */
import { rm } from 'node:fs/promises';
import { useOpenAiServer, type OpenAiServer } from './openai-server.ts';

/**
 * The fake server of the running test file, set once {@link useJudgeServer}'s `before` hook has
 * started it (a live binding: read it inside tests and hooks, not at import time).
 */
export let server: OpenAiServer;

/** Directories a test made; {@link useJudgeServer}'s `after` hook removes them all. */
export const tempDirs: string[] = [];

/**
 * Registers the hooks that start {@link server} before the file's tests (then call `onStart`
 * with it), reset it before each test, and close it and remove {@link tempDirs} after them.
 * Call once, at the top level of a test file.
 */
export function useJudgeServer(onStart?: (started: OpenAiServer) => void): void {
  useOpenAiServer(
    (started) => {
      server = started;
      onStart?.(started);
    },
    () => Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true }))),
  );
}
