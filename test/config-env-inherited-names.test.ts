/**
 * `${NAME}` reads only variables that are set: a name every object inherits (`constructor`,
 * `__proto__`, `toString`) is not set unless the environment has it. Reading it from a plain
 * object substituted `function Object() { [native code] }` or `[object Object]`, so a case's
 * expected value became that text and the run scored against it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { hashWritten, captureWritten } from '../src/config/config-hash.ts';
import { envValue, substituteEnv } from '../src/config/env.ts';
import { envValuesRead } from '../src/config/secrets.ts';
import { parseDocument } from 'yaml';
import type { ResultsArtifact } from '../src/types/index.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

const INHERITED = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

describe('environment names every object inherits', () => {
  it('are not set in a plain object or in process.env', () => {
    for (const name of INHERITED) {
      assert.equal(envValue({ MODEL: 'x' }, name), undefined, name);
      assert.equal(envValue(process.env, name), undefined, name);
      assert.deepEqual(substituteEnv(`\${${name}:-fallback}`, { MODEL: 'x' }).value, 'fallback');
      const { problems } = substituteEnv(`\${${name}}`, { MODEL: 'x' });
      assert.deepEqual(
        problems.map((p) => p.code),
        ['env.missing'],
        name,
      );
    }
  });

  it('are read when the environment does set them', () => {
    const env = Object.fromEntries([['constructor', 'set-by-user']]);
    assert.equal(substituteEnv('${constructor}', env).value, 'set-by-user');
  });

  it('are not secrets found in the config, and leave the hash and its parts plain objects', () => {
    const text = 'version: 1\nnote: "${__proto__:-a} ${constructor:-b}"\n';
    assert.deepEqual([...envValuesRead(text, { MODEL: 'x' })], []);
    const { hash, dataParts } = hashWritten(
      captureWritten(parseDocument(text)),
      { MODEL: 'x' },
      () => false,
    );
    assert.match(hash, /^[0-9a-f]{64}$/);
    assert.deepEqual(Object.keys(dataParts.env ?? {}).sort(), ['__proto__', 'constructor']);
    assert.equal(Object.getPrototypeOf(dataParts.env), Object.prototype);
  });

  it('evals run refuses ${constructor} as an unset variable (exit 2), and uses a default', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'cases.csv': 'id,output\na,function Object() { [native code] }\n',
      'evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: s',
        '    testset: { path: cases.csv }',
        '    evaluators:',
        '      - { id: eq, use: is-equals, with: { expected: "${constructor}" } }',
        '',
      ].join('\n'),
    });
    const refused = await runInProcess(['run', '-o', 'out.json'], dir);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /environment variable constructor is not set/);

    writeFiles(dir, {
      'evals.yaml': readFileSync(join(dir, 'evals.yaml'), 'utf8').replace(
        '${constructor}',
        '${constructor:-plain}',
      ),
    });
    const ran = await runInProcess(['run', '-o', 'out.json'], dir);
    assert.equal(ran.code, 1, ran.stderr);
    const artifact = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as ResultsArtifact;
    const evaluation = artifact.runs[0]?.cases[0]?.evaluations[0];
    assert.equal(evaluation?.passed, false);
    assert.deepEqual((evaluation?.metadata as { expected?: unknown } | null)?.expected, 'plain');
  });
});
