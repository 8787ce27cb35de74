/**
 * A project whose function target makes a judge client as a user's does: `createJudgeClient`
 * imported from the package (node_modules/evalgate, a link to this repo, so lib/index.js), while
 * `evals run` is the CLI's own bundle: two copies of evalgate in one process.
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, scratch, writeFiles } from './cli.ts';

/**
 * A scratch project of `evals.yaml`, one row, and `fn.mjs#fn`, which asks the judge server at
 * `serverUrl` once (caching in `cache/`) and returns `returned`, an expression of its `answer`.
 */
export function packageClientProject(
  serverUrl: string,
  evalsYaml: string,
  returned: string,
): string {
  return linkedProject({
    'evals.yaml': evalsYaml,
    'rows.csv': 'q\na\n',
    // Made as a user would, knowing its server and cache only; it passes no trial of its own.
    'fn.mjs': [
      "import { createJudgeClient } from 'evalgate';",
      `const client = createJudgeClient({ baseUrl: ${JSON.stringify(serverUrl)}, cacheDir: 'cache', maxRetries: 0, env: {} });`,
      'export async function fn() {',
      "  const answer = await client.chat({ model: 'm', messages: [{ role: 'user', content: 'q' }] });",
      `  return ${returned};`,
      '}',
      '',
    ].join('\n'),
  });
}

/** A scratch project of `files` in which `import 'evalgate'` is this repo (a link in node_modules). */
export function linkedProject(files: Record<string, string>): string {
  const dir = scratch();
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(repoRoot, join(dir, 'node_modules', 'evalgate'), 'dir');
  writeFiles(dir, files);
  return dir;
}
