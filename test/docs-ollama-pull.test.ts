/**
 * `ollama pull` takes one model (newer Ollama refuses more, older ones pull the first and ignore
 * the rest), so every `ollama pull` the README, docs, examples and `evals init` show names one.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from './helpers/cli.ts';

/** Every file under `dir` (relative to the repo), recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(join(repoRoot, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    return statSync(join(repoRoot, path)).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('ollama pull in the docs', () => {
  it('names one model each time', () => {
    const files = [
      'README.md',
      ...filesUnder('docs'),
      ...filesUnder('examples'),
      'src/cli/init-templates.ts',
    ];
    const wrong: string[] = [];
    for (const file of files.filter((f) => /\.(md|ya?ml|ts)$/.test(f))) {
      const text = readFileSync(join(repoRoot, file), 'utf8');
      for (const match of text.matchAll(/ollama pull((?: +[A-Za-z0-9][\w.:/-]*)+)/g)) {
        const models = (match[1] ?? '').trim().split(/ +/);
        if (models.length > 1) wrong.push(`${file}: ${match[0]}`);
      }
    }
    assert.deepEqual(wrong, []);
  });
});
