/**
 * A project compared with its baseline where one case is newly failing and its output holds an
 * integer past 2^53 (so its result carries a `warnings` note), another is fixed (failed in BASE,
 * passes now), and a passing case's output holds one too. A command target answers JSON; what it
 * answers depends on `mode.txt`, so the rows (and the case ids and contents) stay the same from
 * BASE to HEAD. {@link baseAndHeadRun} makes such a project with the big id elsewhere.
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
 * The command target's script: `{"ok": "yes"|"no", "id": …}`. Row 1 fails in BASE, row 0 in
 * HEAD; it answers the big id where `bigWhen` (a JavaScript condition of `mode`, `base` or
 * `head`, and `n`, the row as a string) holds, else 7.
 */
function script(bigWhen: string): string {
  return `const fs = require('node:fs');
const mode = fs.readFileSync(require('node:path').join(__dirname, 'mode.txt'), 'utf8').trim();
const n = process.argv[2];
const ok = mode === 'base' ? n !== '1' : n !== '0';
const id = ${bigWhen} ? '${BIG}' : '7';
process.stdout.write('{"ok": "' + (ok ? 'yes' : 'no') + '", "id": ' + id + '}');
`;
}

/**
 * A project of `rows` cases (`n` from 0) whose target answers by {@link script}: run as BASE
 * into base.json (asserted to pass), then as HEAD into head.json against it, with `headArgs`.
 * The project, HEAD's run result, and the ids of its cases in row order.
 */
export async function baseAndHeadRun(options: {
  rows: number;
  bigWhen: string;
  headArgs?: readonly string[];
}): Promise<{ dir: string; head: InProcessResult; ids: string[] }> {
  const dir = jsonlProject(
    Array.from({ length: options.rows }, (_, n) => ({ n })),
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
    { 'm.cjs': script(options.bigWhen), 'mode.txt': 'base\n' },
  );
  const base = await runInProcess(['run', '-o', 'base.json', '--no-cache'], dir);
  assert.equal(base.code, 0, base.stderr);
  writeFiles(dir, { 'mode.txt': 'head\n' });
  const head = await runInProcess(
    [
      'run',
      '-o',
      'head.json',
      '--no-cache',
      '--baseline',
      'base.json',
      ...(options.headArgs ?? []),
    ],
    dir,
  );
  const results = JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8')) as {
    runs: { cases: { id: string }[] }[];
  };
  return { dir, head, ids: results.runs[0]?.cases.map((c) => c.id) ?? [] };
}

/**
 * The project above of four rows: in HEAD rows 0 (newly failing) and 2 (passing) answer the big
 * id. Its base.json and head.json written; HEAD's run result (exit 1: row 0 fails).
 */
export function fixedWarnedProject(
  extra: readonly string[] = [],
): Promise<{ dir: string; head: InProcessResult; ids: string[] }> {
  return baseAndHeadRun({
    rows: 4,
    bigWhen: "mode === 'head' && (n === '0' || n === '2')",
    headArgs: extra,
  });
}
