/**
 * The `{{ case.x }}` templates inside prompt and message files are checked like an inline
 * prompt's: a field no row has is refused (exit 2) by validate, run and run --dry-run, at its
 * line and column inside the prompt file, for every file the grid can name.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

/** A model target over a grid of prompt files; nothing is ever called (port 9 discards). */
function project(files: Record<string, string>, target: string[]): string {
  return jsonlProject(
    [{ q: 'what?' }, { q: 'why?' }],
    [
      'grid: { prompt: [prompts/a.md, prompts/b.md] }',
      'target:',
      '  type: model',
      '  model: small',
      '  baseUrl: http://127.0.0.1:8/v1',
      '  apiKey: sk-never-used-123456',
      ...target.map((line) => `  ${line}`),
    ],
    files,
  );
}

const FILES = {
  'prompts/a.md': 'Answer briefly: {{case.q}}\n',
  'prompts/b.md': 'Be kind.\nAnswer warmly: {{case.q}} ({{case.missing}}) {{ case.qq }}\n',
};

describe('templates inside prompt files', () => {
  for (const command of [['validate'], ['run', '-o', 'out.json'], ['run', '--dry-run']]) {
    it(`evals ${command.join(' ')} refuses a field no row has, at its place in the file`, async () => {
      const dir = project(FILES, ['prompt: { file: "{{params.prompt}}" }']);
      const result = await runInProcess(command, dir);
      assert.equal(result.code, 2, result.stdout + result.stderr);
      assert.match(
        result.stderr,
        /prompts\/b\.md:2:28 .*template \{\{ case\.missing \}\}: no row of the testset has the field "missing"/,
      );
      assert.match(result.stderr, /prompts\/b\.md:2:46 .*did you mean \{\{ case\.q \}\}\?/);
      assert.match(result.stderr, /named by suites\[0\]\.target\.prompt\.file/);
      assert.doesNotMatch(result.stderr, /prompts\/a\.md/);
    });
  }

  it('checks message files too, and a malformed template in one', async () => {
    const dir = project({ ...FILES, 'prompts/sys.md': 'You are {{ persona.name }}.' }, [
      'messages:',
      '  - { role: system, content: { file: prompts/sys.md } }',
      '  - { role: user, content: { file: "{{params.prompt}}" } }',
    ]);
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /prompts\/sys\.md:1:9 .*persona/);
    assert.match(result.stderr, /prompts\/b\.md:2:28 .*case\.missing/);
  });

  it('passes prompt files whose fields every row has', async () => {
    const dir = project(
      { 'prompts/a.md': 'A {{case.q}}', 'prompts/b.md': 'B {{ case.q }} {{ params.prompt }}' },
      ['prompt: { file: "{{params.prompt}}" }'],
    );
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 0, result.stderr);
  });
});
