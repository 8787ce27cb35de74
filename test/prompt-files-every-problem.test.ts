/**
 * A model target whose prompt or message file the grid names is read at every grid point before
 * anything runs. It stopped at the first file it could not use, so a grid with one file missing
 * and another not UTF-8 showed one problem a run: the user fixed it, ran again and only then saw
 * the next. Every grid point's problem is now reported in the one run, each naming its point.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runInProcess } from './helpers/in-process.ts';
import { suiteProject } from './helpers/suite-project.ts';

describe("a model target's prompt files the grid names", () => {
  it('are refused together, every grid point that has a problem named, nothing run', async () => {
    const dir = suiteProject([
      'testset: { cases: [ { a: x } ] }',
      'grid: { lang: [en, fr, de] }',
      'target:',
      '  type: model',
      '  model: m',
      '  baseUrl: http://127.0.0.1:8/v1',
      '  apiKey: sk-test-key-1',
      '  messages:',
      '    - { role: system, content: { file: "prompts/sys-{{ params.lang }}.md" } }',
      '    - { role: user, content: { file: "prompts/{{ params.lang }}.md" } }',
      'evaluators: [ { use: contains, with: { values: [x] } } ]',
    ]);
    mkdirSync(join(dir, 'prompts'));
    writeFileSync(join(dir, 'prompts', 'en.md'), 'Answer {{ case.a }}\n');
    writeFileSync(
      join(dir, 'prompts', 'fr.md'),
      Buffer.from('R\u00e9ponds {{ case.a }}\n', 'latin1'),
    );
    writeFileSync(join(dir, 'prompts', 'sys-en.md'), 'Be brief.\n');
    writeFileSync(join(dir, 'prompts', 'sys-fr.md'), 'Sois bref.\n');
    for (const argv of [['validate'], ['run', '-o', 'results.json']]) {
      const r = await runInProcess(argv, dir);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      const system = 'suites\\[0\\]\\.target\\.messages\\[0\\]\\.content\\.file: prompt file';
      const user = 'suites\\[0\\]\\.target\\.messages\\[1\\]\\.content\\.file: prompt file';
      const lines = r.stderr.trimEnd().split('\n');
      const expected = [
        new RegExp(
          `^error: evals\\.yaml:\\d+:\\d+ {2}${system} prompts/sys-de\\.md \\(from prompts/sys-\\{\\{ params\\.lang \\}\\}\\.md at \\{"lang":"de"\\}\\) does not exist$`,
        ),
        new RegExp(
          `^error: evals\\.yaml:\\d+:\\d+ {2}${user} prompts/fr\\.md \\(from prompts/\\{\\{ params\\.lang \\}\\}\\.md at \\{"lang":"fr"\\}\\) is not valid UTF-8 at line 1, column 2: save it as UTF-8$`,
        ),
        new RegExp(
          `^error: evals\\.yaml:\\d+:\\d+ {2}${user} prompts/de\\.md \\(from prompts/\\{\\{ params\\.lang \\}\\}\\.md at \\{"lang":"de"\\}\\) does not exist$`,
        ),
      ];
      for (const pattern of expected) {
        assert.equal(
          lines.filter((line) => pattern.test(line)).length,
          1,
          `${pattern}\n${r.stderr}`,
        );
      }
      assert.equal(lines.filter((line) => line.startsWith('error: ')).length, 3, r.stderr);
      assert.equal(existsSync(join(dir, 'results.json')), false, 'nothing ran');
    }
  });

  it('are refused together with a bad OPENAI_BASE_URL, which the target without baseUrl: calls', async () => {
    const dir = suiteProject([
      'testset: { cases: [ { a: x } ] }',
      'target:',
      '  type: model',
      '  model: m',
      '  apiKey: sk-test-key-1',
      '  prompt: { file: prompts/missing.md }',
      'evaluators: [ { use: contains, with: { values: [x] } } ]',
    ]);
    const r = await runInProcess(['validate'], dir, {
      OPENAI_BASE_URL: 'http://127.0.0.1:99999/v1',
    });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /so it calls the URL in OPENAI_BASE_URL, whose port 99999 is out of range/,
    );
    assert.match(r.stderr, /prompt file prompts\/missing\.md does not exist/);
  });
});
