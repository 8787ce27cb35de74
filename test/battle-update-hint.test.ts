/**
 * A case with no recorded baseline in an existing baselines file tells the user the command that
 * records it. It said `evals run --update-baselines` whatever config the run read, which on a
 * config of another name or folder ran another config (or none): the hint is the run's own
 * command line, the config as given, quoted for a shell where it needs to be.
 */
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

describe('automatic-battle: the hint for a case without a baseline', () => {
  it("names the run's config, quoted", async () => {
    const dir = scratch();
    writeFiles(dir, {
      'sub/my evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: s',
        '    testset: { path: rows.jsonl }',
        '    function: ./f.mjs#f',
        '    evaluators:',
        '      - use: automatic-battle',
        '        judge: { model: j, baseUrl: "http://127.0.0.1:9999/v1" }',
        '',
      ].join('\n'),
      'sub/rows.jsonl': '{"q":"x"}\n',
      'sub/f.mjs': 'export const f = ({ testCase }) => `answer ${testCase.q}`;\n',
    });
    // The first run records the baselines file; the second meets a case it does not hold.
    const first = await runInProcess(['run', 'sub/my evals.yaml', '-o', 'r.json'], dir);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    appendFileSync(join(dir, 'sub', 'rows.jsonl'), '{"q":"y"}\n');
    const second = await runInProcess(['run', 'sub/my evals.yaml', '-o', 'r.json'], dir);
    assert.equal(second.code, 1, second.stdout + second.stderr);
    const artifact = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as ResultsArtifact;
    const y = artifact.runs[0]!.cases.find((c) => (c.data as { q: string }).q === 'y');
    assert.match(
      y?.evaluations[0]?.error ?? '',
      /^no baseline is recorded for this case in battles\/s\/automatic-battle\.json: run `evals run 'sub\/my evals\.yaml' --update-baselines` to record it/,
    );
  });
});
