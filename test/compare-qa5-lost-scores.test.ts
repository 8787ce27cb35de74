/**
 * QA round 5, D1: an evaluator that now errors on half the cases must not read as only
 * `improved`. The row says how many cases it paired and how many scores HEAD lost, a warning
 * names the evaluator, and the JSON form counts them (`lostInHead`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { jsonlProject, runInProcess } from './helpers/in-process.ts';

/** 30 rows: the first 15 score 0.2 in BASE and make the evaluator throw in HEAD; the rest 0.9 → 0.95. */
function survivor(): string {
  return jsonlProject(
    Array.from({ length: 30 }, (_, i) => ({ i, output: i < 15 ? 'low' : 'high' })),
    [
      'evaluators:',
      '  - id: sc',
      '    use: ./score.mjs',
      '    with: { side: "${SIDE}" }',
      '    threshold: { gte: 0.5 }',
      'gate: { minPassRate: 0 }',
    ],
    {
      'score.mjs': [
        'export default ({ output }, { side }) => {',
        "  const low = output === 'low';",
        "  if (side === 'base') return { score: low ? 0.2 : 0.9 };",
        "  if (low) throw new Error('judge broke');",
        '  return { score: 0.95 };',
        '};',
        '',
      ].join('\n'),
    },
  );
}

async function sides(dir: string): Promise<void> {
  for (const side of ['base', 'head']) {
    const result = await runInProcess(['run', '-o', `${side}.json`], dir, { SIDE: side });
    assert.ok(result.code === 0 || result.code === 1, result.stderr);
  }
}

describe('scores lost in HEAD (D1)', () => {
  it('the row states 15 of 30 paired and 15 lost, and a warning names the evaluator', async () => {
    const dir = survivor();
    await sides(dir);
    const text = await runInProcess(['compare', 'base.json', 'head.json'], dir);
    assert.ok(text.code === 0 || text.code === 1, text.stderr);
    const row = text.stdout.split('\n').find((line) => /^\s+sc\s/.test(line));
    assert.ok(row !== undefined, text.stdout);
    assert.match(row, /15 of 30 scored on both sides; 15 lost in HEAD: error or no score/);
    assert.match(
      text.stdout,
      /warning: HEAD lost scores .*15 scores BASE had are missing in HEAD: \S+ · sc: 15 of 30 cases/,
    );

    const md = await runInProcess(['compare', 'base.json', 'head.json', '--format', 'md'], dir);
    assert.match(md.stdout, /⚠️ \*\*HEAD lost scores\*\*/);
    assert.match(md.stdout, /15 of 30 scored on both sides; 15 lost in HEAD/);

    const json = await runInProcess(['compare', 'base.json', 'head.json', '--format', 'json'], dir);
    const parsed = JSON.parse(json.stdout) as {
      runs: { evaluators: { evaluator: string; paired: number; lostInHead?: number }[] }[];
    };
    const sc = parsed.runs[0]?.evaluators.find((e) => e.evaluator === 'sc');
    assert.equal(sc?.paired, 15);
    assert.equal(sc?.lostInHead, 15);
  });
});
