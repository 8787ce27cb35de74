/**
 * Reading a config from disk with `loadConfigFile`, and the issue codes that invalid configs
 * are reported with.
 */
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadConfigFile } from '../src/config/load.ts';
import { formatIssue } from '../src/shared/errors.ts';
import { fakeBuiltins } from './fixtures/config/fake-builtins.ts';
import { parse } from './fixtures/config/check.ts';
import { tempFolder } from './helpers/cli.ts';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'config');

describe('loadConfigFile', () => {
  const options = { env: {}, builtins: fakeBuiltins };

  it('reads the file and reports paths as the user gave them', async () => {
    const result = await loadConfigFile('basic/evals.yaml', { ...options, cwd: fixtures });
    assert.ok(result.ok, result.ok ? '' : result.issues.map(formatIssue).join('\n'));
    assert.equal(result.config.file, 'basic/evals.yaml');
    assert.equal(result.config.absPath, join(fixtures, 'basic', 'evals.yaml'));
    assert.equal(result.config.dir, join(fixtures, 'basic'));
    assert.equal(result.config.suites[0]?.evaluators[0]?.id, 'is-equals');
  });

  it('puts the given path in every issue', async () => {
    const result = await loadConfigFile(join(fixtures, 'basic', 'evals.yaml'), {
      ...options,
      cwd: '/',
      builtins: {},
    });
    assert.ok(!result.ok);
    assert.deepEqual(result.issues.map(formatIssue), [
      `${join(fixtures, 'basic', 'evals.yaml')}:7:14  suites[0].evaluators[0].use: unknown evaluator "is-equals": expected a built-in () or a module spec such as ./evaluators/tone.ts#Tone`,
    ]);
  });

  it('reports a missing file as one config.not-found issue', async () => {
    const cwd = tempFolder('evalgate-config-');
    const result = await loadConfigFile('evals.yaml', { ...options, cwd });
    assert.deepEqual(result, {
      ok: false,
      issues: [
        {
          code: 'config.not-found',
          file: 'evals.yaml',
          line: 0,
          col: 0,
          path: '',
          message: `config file not found (looked for ${join(cwd, 'evals.yaml')})`,
        },
      ],
    });
  });

  it('reports a folder given as the config', async () => {
    const result = await loadConfigFile('basic', { ...options, cwd: fixtures });
    assert.ok(!result.ok);
    assert.deepEqual(result.issues.map(formatIssue), [
      'basic  expected a config file, found a directory',
    ]);
    assert.equal(result.issues[0]?.code, 'config.unreadable');
  });
});

describe('issue codes', () => {
  const cases: [text: string, codes: string[]][] = [
    ['version: 1\nsuites: [\n', ['yaml.syntax']],
    ['version: 1\nversion: 1\n', ['yaml.duplicate-key']],
    ['', ['config.empty']],
    ['version: 1\nsuites: 3\nextra: 1\n', ['schema.type', 'schema.unknown-key']],
    ['version: 1\nsuites: [{ id: a, testset: {} }]\n', ['schema.required']],
    [
      'version: 1\nsuites: [{ id: a, testset: { path: "${X}" }, evaluators: [{ use: nope }] }]\n',
      ['env.missing', 'evaluator.unknown'],
    ],
    [
      'version: 1\nsuites: [{ id: a, testset: { path: a }, evaluators: [{ use: is-equals, with: { expected: "{{x}}", other: 1 } }] }]\n',
      ['template.invalid', 'options.unknown-key'],
    ],
  ];
  for (const [text, codes] of cases) {
    it(JSON.stringify(text), () => {
      const result = parse(text);
      assert.ok(!result.ok);
      assert.deepEqual(
        result.issues.map((issue) => issue.code),
        codes,
      );
    });
  }
});
