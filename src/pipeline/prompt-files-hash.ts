/**
 * The configHash of a config whose model targets read prompt or message files: the files are
 * part of what the config means. An interrupted run resumed after `prompts/answer.md` was
 * edited, or two shards run with different versions of it, would otherwise make one artifact
 * out of two prompts' answers, and `--resume` and `evals merge` could not tell.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { hash } from 'node:crypto';
import { promptFileRefs } from '../config/template-check.ts';
import type { LoadedConfig } from '../config/types.ts';
import { expandGrid } from '../plan/grid.ts';
import { canonicalJson } from '../shared/canonical-json.ts';
import { promptFileText } from '../shared/prompt-text.ts';

/**
 * `config` with its hash covering the text of every prompt and message file its suites' grid
 * points name (as sent: BOM and line ends do not count); the same config when it names none. A
 * file that cannot be read counts as absent (binding the target reports it).
 */
export function withPromptFiles(config: LoadedConfig): LoadedConfig {
  const files: Record<string, string | null> = {};
  for (const suite of config.suites) {
    for (const ref of promptFileRefs(suite.target, expandGrid(suite.grid))) {
      if (ref.file in files) continue;
      files[ref.file] = fileHash(resolve(config.dir, ref.file));
    }
  }
  if (Object.keys(files).length === 0) return config;
  const promptFiles = canonicalJson({ config: config.hash, promptFiles: files });
  return { ...config, hash: hash('sha256', promptFiles, 'hex') };
}

function fileHash(path: string): string | null {
  try {
    return hash('sha256', promptFileText(readFileSync(path, 'utf8')), 'hex');
  } catch {
    return null;
  }
}
