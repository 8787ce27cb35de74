/**
 * `evals init` appends what a run writes to an existing `.gitignore` in the file's own line
 * endings: a CRLF file (written on Windows) gets CRLF lines, not LF lines after CRLF ones.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratch } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

async function initWith(gitignore: string): Promise<string> {
  const dir = scratch();
  writeFileSync(join(dir, '.gitignore'), gitignore);
  const init = await runInProcess(['init', '--template', 'http'], dir);
  assert.equal(init.code, 0, init.stderr);
  return readFileSync(join(dir, '.gitignore'), 'utf8');
}

describe('evals init keeps the .gitignore line endings', () => {
  it('CRLF lines after CRLF lines', async () => {
    const text = await initWith('node_modules/\r\ndist/\r\n');
    assert.ok(text.startsWith('node_modules/\r\ndist/\r\n'), JSON.stringify(text));
    assert.equal(text.replace(/\r\n/g, '').includes('\n'), false, JSON.stringify(text));
    assert.match(text, /\r\nevals-report\.html\r\n/);
  });

  it('a CRLF file without a final line break gets one before the added lines', async () => {
    const text = await initWith('node_modules/\r\ndist/');
    assert.equal(text.replace(/\r\n/g, '').includes('\n'), false, JSON.stringify(text));
    assert.match(text, /^node_modules\/\r\ndist\/\r\n# evalgate outputs\r\n/);
  });

  it('LF lines after LF lines', async () => {
    const text = await initWith('node_modules/\n');
    assert.equal(text.includes('\r'), false, JSON.stringify(text));
    assert.match(text, /\nevals-report\.html\n/);
  });
});
