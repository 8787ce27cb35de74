/**
 * The config and a model target's prompt files must be UTF-8, as testsets must: bytes that are
 * not were read as U+FFFD, so `validate` said the config was valid and the run compared against
 * (or sent to the model) damaged text. They are refused (exit 2) at the first bad byte's line and
 * column, or as a whole file in another encoding.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratch } from './helpers/cli.ts';
import { suiteProject } from './helpers/suite-project.ts';
import { runInProcess } from './helpers/in-process.ts';

const CONFIG = [
  'version: 1',
  'suites:',
  '  - id: s',
  '    testset: { cases: [ { a: x, output: x } ] }',
  '    evaluators:',
  '      - { use: contains, with: { values: ["caf\u00e9"] } }',
  '',
].join('\n');

/** `text` as UTF-8 with its `é` written as the one Latin-1 byte 0xE9. */
function latin1(text: string): Buffer {
  return Buffer.from(text, 'latin1');
}

describe('files that must be UTF-8', () => {
  it('a config with a byte that is not UTF-8 is refused at its line and column', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'evals.yaml'), latin1(CONFIG));
    for (const command of ['validate', 'run']) {
      const r = await runInProcess([command], dir);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.equal(
        r.stderr,
        'error: evals.yaml:6:47  not valid UTF-8 at line 6, column 47: save it as UTF-8\n',
      );
    }
  });

  it('a config saved as UTF-16 is refused as a whole', async () => {
    const dir = scratch();
    writeFileSync(
      join(dir, 'evals.yaml'),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(CONFIG, 'utf16le')]),
    );
    const r = await runInProcess(['validate'], dir);
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /^error: evals\.yaml is UTF-16 \(it starts with the UTF-16 byte order mark\): save it as UTF-8\n$/,
    );
  });

  it('a config in UTF-8, with a byte order mark, is read as before', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'evals.yaml'), `\ufeff${CONFIG}`);
    const r = await runInProcess(['validate'], dir);
    assert.equal(r.code, 0, r.stderr);
  });

  it("a model target's prompt file with a byte that is not UTF-8 is refused, naming the file and where", async () => {
    const dir = suiteProject([
      'testset: { cases: [ { a: x } ] }',
      'target:',
      '  type: model',
      '  model: m',
      '  baseUrl: http://127.0.0.1:8/v1',
      '  apiKey: sk-test-key-1',
      '  prompt: { file: prompts/p.md }',
      'evaluators: [ { use: contains, with: { values: [x] } } ]',
    ]);
    mkdirSync(join(dir, 'prompts'));
    writeFileSync(join(dir, 'prompts', 'p.md'), latin1('Answer {{ case.a }}\nin fran\u00e7ais\n'));
    const r = await runInProcess(['validate'], dir);
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /^error: evals\.yaml:10:\d+ {2}.*prompt file prompts\/p\.md is not valid UTF-8 at line 2, column 8: save it as UTF-8$/m,
    );
  });

  it('a prompt file a grid point names says which point named it', async () => {
    const dir = suiteProject([
      'testset: { cases: [ { a: x } ] }',
      'grid: { lang: [en, fr] }',
      'target:',
      '  type: model',
      '  model: m',
      '  baseUrl: http://127.0.0.1:8/v1',
      '  apiKey: sk-test-key-1',
      '  prompt: { file: "prompts/{{ params.lang }}.md" }',
      'evaluators: [ { use: contains, with: { values: [x] } } ]',
    ]);
    mkdirSync(join(dir, 'prompts'));
    writeFileSync(join(dir, 'prompts', 'en.md'), 'Answer {{ case.a }}\n');
    writeFileSync(join(dir, 'prompts', 'fr.md'), latin1('R\u00e9ponds {{ case.a }}\n'));
    const r = await runInProcess(['validate'], dir);
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /prompt file prompts\/fr\.md \(from prompts\/\{\{ params\.lang \}\}\.md at \{"lang":"fr"\}\) is not valid UTF-8 at line 1, column 2: save it as UTF-8$/m,
    );
  });
});
