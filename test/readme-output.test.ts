/**
 * README.md shows the end of what its first command prints (`npx evals run
 * examples/quickstart/evals.yaml` on a fresh clone): the block after "The end of its output:"
 * must be exactly how that run's output ends, so the README cannot drift from the program.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot, runCli, scratch } from './helpers/cli.ts';

/** The ```text block that follows `marker` in `markdown`. */
function blockAfter(markdown: string, marker: string): string {
  const at = markdown.indexOf(marker);
  assert.ok(at >= 0, `README.md has no "${marker}"`);
  const block = /```text\n([\s\S]*?)```/.exec(markdown.slice(at));
  assert.ok(block?.[1], `README.md has no text block after "${marker}"`);
  return block[1];
}

describe('README.md', () => {
  it('shows the end of the quickstart output as the quickstart prints it', async () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const command = 'npx evals run examples/quickstart/evals.yaml';
    assert.ok(readme.includes(command), `README.md runs ${command}`);
    const shown = blockAfter(readme, 'The end of its output:');
    // The README's command writes evals-results.json where it runs; here that is a scratch
    // folder, so the repository is left as it is.
    const r = await runCli(['run', join(repoRoot, 'examples/quickstart/evals.yaml')], {
      cwd: scratch(),
    });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(
      r.stdout.endsWith(shown),
      `the output does not end with README.md's block:\n--- output ---\n${r.stdout}\n--- README ---\n${shown}`,
    );
  });
});
