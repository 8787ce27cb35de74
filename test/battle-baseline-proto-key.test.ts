/**
 * A recorded output with a `__proto__` key (JSON an app returns, kept as its own key by
 * JSON.parse) lost that key in the baselines file of `automatic-battle`: the file's keys were
 * sorted by assigning them to a fresh object, and assigning `__proto__` sets the prototype
 * instead. Every later battle then compared against a baseline that was not the recorded one.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  parseBaselineFile,
  serializeBaselineFile,
  type BaselineFile,
} from '../src/evaluators/judges/battle-baselines.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const OUTPUT = '{"answer":"yes","__proto__":{"admin":true},"nested":{"__proto__":1}}';

describe('the baselines file of automatic-battle', () => {
  it('keeps a __proto__ key of a recorded output, at every depth', async () => {
    const dir = jsonlProject(
      [{ q: 'x' }],
      [
        'function: ./f.mjs#f',
        'evaluators:',
        '  - use: automatic-battle',
        '    judge: { model: j, baseUrl: "http://127.0.0.1:8080/v1" }',
      ],
      { 'f.mjs': `export const f = () => JSON.parse(${JSON.stringify(OUTPUT)});\n` },
    );
    const result = await runInProcess(['run', '-o', 'r.json'], dir);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const text = readFileSync(join(dir, 'battles', 's', 'automatic-battle.json'), 'utf8');
    const file = JSON.parse(text) as BaselineFile;
    const [entry] = Object.values(file.baselines);
    // Keys sorted at every depth: `_` comes before the letters.
    assert.equal(
      JSON.stringify(entry?.output),
      '{"__proto__":{"admin":true},"answer":"yes","nested":{"__proto__":1}}',
    );
  });

  it('reads back what it wrote', () => {
    const output: unknown = JSON.parse(OUTPUT);
    const file: BaselineFile = {
      version: 1,
      suite: 's',
      evaluator: 'b',
      baselines: { k: { output, recordedAt: '2026-01-01T00:00:00.000Z' } },
    };
    const parsed = parseBaselineFile(serializeBaselineFile(file), { suite: 's', evaluator: 'b' });
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.file.baselines.k?.output, output);
    assert.equal(Object.getPrototypeOf(parsed.file.baselines.k?.output), Object.prototype);
  });
});
