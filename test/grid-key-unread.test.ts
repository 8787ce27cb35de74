/**
 * A grid key that nothing of a model or http suite reads (`grid: { temperature: [0, 0.7] }`
 * beside a model target, whose temperature is no template) ran each value with the very same
 * requests: two runs in the matrix that differed in a label only. It is refused before anything
 * runs, at the key (exit 2). A key read in a template, a prompt file's path or its text is taken,
 * and so is any key of a suite whose command, function, module evaluator or pass: module is given
 * the grid point itself.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const ROWS = [{ id: 'a', q: 'hello' }];
const MODEL = [
  'target:',
  '  type: model',
  '  baseUrl: http://127.0.0.1:8999/v1',
  '  apiKey: unused',
  '  model: m',
];
const EVALUATORS = ['evaluators:', '  - { use: contains, with: { values: [hello] } }'];

/** Asserts that `evals validate` takes a suite of ROWS with `suite` (its lines) and `files`. */
async function assertTaken(suite: string[], files: Record<string, string> = {}): Promise<void> {
  const r = await runInProcess(['validate'], jsonlProject(ROWS, suite, files));
  assert.equal(r.code, 0, r.stdout + r.stderr);
}

describe('a grid key nothing reads', () => {
  it('is refused beside a model target, at the key, by validate, run and run --dry-run', async () => {
    const dir = jsonlProject(ROWS, [
      'grid: { temperature: [0, 0.7], style: [a, b] }',
      ...MODEL,
      "  prompt: 'In style {{ params.style }}: {{ case.q }}'",
      ...EVALUATORS,
    ]);
    for (const args of [['validate'], ['run', '-o', 'out.json'], ['run', '--dry-run']]) {
      const r = await runInProcess(args, dir);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(
        r.stderr,
        /evals\.yaml:5:\d+ {2}suites\[0\]\.grid\.temperature: nothing reads this grid key: no \{\{ params\.temperature \}\} in the model target's model, prompt or messages \(or their files\) nor in an evaluator's with: \(a model target's temperature and other settings are not templates\), so each of its 2 values would send the same requests/,
      );
      assert.doesNotMatch(r.stderr, /grid\.style/);
    }
  });

  it('is refused beside an http target', async () => {
    const dir = jsonlProject(ROWS, [
      'grid: { version: [v1, v2] }',
      'target: { type: http, url: "http://127.0.0.1:8999/answer", body: { q: "{{ case.q }}" } }',
      ...EVALUATORS,
    ]);
    const r = await runInProcess(['validate'], dir);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /suites\[0\]\.grid\.version: nothing reads this grid key: no \{\{ params\.version \}\} in the http target's url, headers or body/,
    );
  });

  it("is taken when a prompt file's path or text reads it, or an evaluator does", async () => {
    await assertTaken(
      [
        'grid: { prompt: [a.md], tone: [x, y], want: [hello] }',
        ...MODEL,
        '  prompt: { file: "{{ params.prompt }}" }',
        'evaluators:',
        '  - { use: contains, with: { values: ["{{ params.want }}"] } }',
      ],
      { 'a.md': 'Answer in a {{ params.tone }} tone: {{ case.q }}\n' },
    );
  });

  it('is taken when only a prompt file that a --grid slice leaves out reads it', async () => {
    // A matrix job per prompt file: the job of a.md must not refuse a config the job of b.md
    // runs, whose file reads tone.
    const dir = jsonlProject(
      ROWS,
      [
        'grid: { prompt: [a.md, b.md], tone: [x, y] }',
        ...MODEL,
        '  prompt: { file: "{{ params.prompt }}" }',
        ...EVALUATORS,
      ],
      {
        'a.md': 'Answer: {{ case.q }}\n',
        'b.md': 'Answer in a {{ params.tone }} tone: {{ case.q }}\n',
      },
    );
    const r = await runInProcess(['run', '--dry-run', '--grid', 'prompt=a.md'], dir);
    assert.equal(r.code, 0, r.stdout + r.stderr);
  });

  it('is taken beside a command target, which gets the grid point on its stdin', async () => {
    await assertTaken([
      'grid: { mode: [a, b] }',
      'target: { type: command, run: [node, -e, "process.stdout.write(\'hello\')"] }',
      ...EVALUATORS,
    ]);
  });

  it('is taken when a module evaluator, which gets the grid point, is in the suite', async () => {
    await assertTaken(
      [
        'grid: { temperature: [0, 0.7] }',
        ...MODEL,
        "  prompt: '{{ case.q }}'",
        'evaluators:',
        '  - { use: ./ev.mjs#byParams }',
      ],
      { 'ev.mjs': 'export function byParams({ params }) { return { score: params ? 1 : 0 }; }\n' },
    );
  });
});
