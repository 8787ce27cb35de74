/**
 * The note on fields a reader ignored names the evalgate version the file says wrote it, cut to
 * 40 characters, and was scrubbed only after that cut: a `tool.version` holding a secret at the
 * cut kept its first characters. It is now scrubbed before. Every offset around the cut is tried.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratch } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';
import { leaksIn } from './helpers/secret-fuzz.ts';

const SECRET = 'Rv7Lq2Xm9Ws4Jd8Hb3Nz6Kc1';

describe('the note on ignored fields', () => {
  it('shows no piece of a secret in the version the file names', async () => {
    const dir = scratch('compared-2026-11-25');
    const base = JSON.parse(readFileSync(join(dir, 'base.json'), 'utf8')) as {
      tool: { version: string };
    } & Record<string, unknown>;
    const notes: [string, string][] = [];
    for (let pad = 16; pad < 42; pad++) {
      const file = `v${pad}.json`;
      base.tool.version = `${'9'.repeat(pad)}${SECRET}`;
      base.addedLater = true;
      writeFileSync(join(dir, file), JSON.stringify(base, null, 2));
      const r = await runInProcess(['show', file], dir, { EDGE7_NOTE_TOKEN: SECRET });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stderr, /1 field it does not know was ignored \(\/addedLater\)/);
      notes.push([`pad ${pad}`, r.stderr]);
    }
    assert.deepEqual(leaksIn(notes, [SECRET]), []);
  });
});
