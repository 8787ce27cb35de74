/**
 * A project compared with its baseline where one case is newly failing and its output holds an
 * integer past 2^53 (so its result carries a `warnings` note), another is fixed (failed in BASE,
 * passes now), and a passing case's output holds one too. A command target answers JSON; what it answers depends on `mode.txt`, so
 * the rows (and the case ids and contents) stay the same from BASE to HEAD.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFiles } from './cli.ts';
import { jsonlProject, runInProcess, type InProcessResult } from './in-process.ts';

/** The integer the newly failing case's output holds, and what JSON reads it as. */
export const BIG = '12345678901234567891';
export const READ_AS = '12345678901234567000';

/**
 * `{"ok": "yes"|"no", "id": …}`: row 0 fails in HEAD, row 1 fails in BASE; in HEAD rows 0 (failing)
 * and 2 (passing) answer the big id.
 */
const SCRIPT = `const fs = require('node:fs');
const mode = fs.readFileSync(require('node:path').join(__dirname, 'mode.txt'), 'utf8').trim();
const n = process.argv[2];
const ok = mode === 'base' ? n !== '1' : n !== '0';
const id = mode === 'head' && (n === '0' || n === '2') ? '${BIG}' : '7';
process.stdout.write('{"ok": "' + (ok ? 'yes' : 'no') + '", "id": ' + id + '}');
`;

/** The project, its base.json and head.json written; HEAD's run result (exit 1: row 0 fails). */
export async function fixedWarnedProject(
  extra: readonly string[] = [],
): Promise<{ dir: string; head: InProcessResult; ids: string[] }> {
  const dir = jsonlProject(
    [{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }],
    [
      'hash: [n]',
      'target:',
      '  type: command',
      "  run: [node, m.cjs, '{{ case.n }}']",
      '  output: json',
      'evaluators:',
      "  - { id: ok, use: is-equals, with: { expected: 'yes', actual: '{{ output.ok }}' } }",
      'gate: { minPassRate: 0 }',
    ],
    { 'm.cjs': SCRIPT, 'mode.txt': 'base\n' },
  );
  const base = await runInProcess(['run', '-o', 'base.json', '--no-cache'], dir);
  assert.equal(base.code, 0, base.stderr);
  writeFiles(dir, { 'mode.txt': 'head\n' });
  const head = await runInProcess(
    ['run', '-o', 'head.json', '--no-cache', '--baseline', 'base.json', ...extra],
    dir,
  );
  const results = JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8')) as {
    runs: { cases: { id: string }[] }[];
  };
  return { dir, head, ids: results.runs[0]?.cases.map((c) => c.id) ?? [] };
}
