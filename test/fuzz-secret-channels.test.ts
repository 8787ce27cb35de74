/**
 * A short seeded fuzz of where a secret can come in and where it must never come out
 * (docs/config.md#secrets). test/fuzz-responses.test.ts plants one secret-named key in what
 * servers and programs answer; this one plants two secrets in every other way in (the project of
 * `helpers/secret-fuzz.ts`). The run, and every command that reads its results, runs as the built
 * CLI; no piece of either secret (any 6 characters of it, as written or URL-encoded, or 8 of its
 * base64) may be in stdout, stderr, the artifact, the JUnit file, the HTML reports, the cache, the
 * markdown comparison, `evals show` or `evals testset show`. Its sibling
 * fuzz-secret-channels-action.test.ts runs the same project as the GitHub Action.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';
import { startOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';
import {
  answerWith,
  filesUnder,
  fuzzEnv,
  leaksIn,
  projectFiles,
  SEED,
  secretsOf,
} from './helpers/secret-fuzz.ts';

describe('fuzzed secrets in every channel', () => {
  let server: OpenAiServer;
  before(async () => {
    server = await startOpenAiServer();
    answerWith(server);
  });
  after(() => server.close());

  // One project of many rows: each command is a process, and those take most of the time.
  for (const index of [0]) {
    it(`project ${index} (seed ${SEED}): no piece of a secret in any output`, async () => {
      const secrets = secretsOf(index);
      const dir = scratch();
      writeFiles(dir, projectFiles(index, secrets, server.url));
      const env = { ...fuzzEnv(secrets), COLUMNS: '100' };
      const outputs: [string, string][] = [];
      const commands = [
        ['run', '-o', 'out.json', '--junit', 'junit.xml', '--report', 'run.html'],
        ['report', 'out.json', '-o', 'report.html'],
        ['show', 'out.json', '--limit', '100'],
        ['compare', 'out.json', 'out.json', '--format', 'md'],
        ['testset', 'show', 'rows.jsonl'],
      ];
      for (const argv of commands) {
        const r = await runCli(argv, { cwd: dir, env });
        const what = `evals ${argv[0]} ${argv[1]}`;
        assert.ok(r.code === 0 || r.code === 1, `${what}: exit ${r.code}\n${r.stderr}`);
        outputs.push([`${what} stdout`, r.stdout], [`${what} stderr`, r.stderr]);
      }
      for (const file of ['out.json', 'junit.xml', 'run.html', 'report.html'])
        outputs.push([file, readFileSync(join(dir, file), 'utf8')]);
      const cached = filesUnder(join(dir, '.evalgate'));
      assert.ok(cached.length > 0, 'the model and judge answers were cached');
      for (const path of cached)
        outputs.push([path.slice(dir.length + 1), readFileSync(path, 'latin1')]);

      // The secrets did reach the run: the cases say [redacted] where they were.
      assert.match(readFileSync(join(dir, 'out.json'), 'utf8'), /\[redacted\]/);
      assert.deepEqual(leaksIn(outputs, secrets), [], `secrets ${secrets.join(', ')}`);
    });
  }
});
