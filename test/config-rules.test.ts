/**
 * The loader's building blocks, table by table: did-you-mean, impossible thresholds, config
 * paths, default evaluator ids, template checks, and the reduction of ajv's errors.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { formatConfigPath, parseDottedPath, pointerToPath } from '../src/config/config-path.ts';
import { closestMatch } from '../src/config/did-you-mean.ts';
import { defaultEvaluatorId } from '../src/config/rules.ts';
import { templateProblems } from '../src/config/template-check.ts';
import { schemaProblems } from '../src/config/schema-errors.ts';
import { impossibleThreshold } from '../src/config/threshold.ts';
import type { ConfigPath } from '../src/config/types.ts';
import type { Threshold } from '../src/types/index.ts';

describe('closestMatch', () => {
  const keys = ['id', 'use', 'with', 'threshold', 'concurrency', 'timeout'];
  const cases: [name: string, candidates: string[], match: string | undefined][] = [
    ['treshold', keys, 'threshold'],
    ['tiemout', keys, 'timeout'],
    ['Use', keys, 'use'],
    ['concurency', keys, 'concurrency'],
    ['evaluater', keys, undefined],
    ['is-equal', ['is-equals', 'regex'], 'is-equals'],
    ['equals', ['is-equals', 'regex'], 'is-equals'],
    ['regx', ['is-equals', 'regex'], 'regex'],
    ['judge', ['is-equals', 'regex'], undefined],
    ['x', ['w', 'id'], undefined],
    ['x', [], undefined],
  ];
  for (const [name, candidates, match] of cases) {
    it(`${name} → ${String(match)}`, () => assert.equal(closestMatch(name, candidates), match));
  }

  it('counts a swap of adjacent letters as one edit', () => {
    // 7 letters allow 2 edits: two swaps are a typo (4 edits without swaps), three are not.
    assert.equal(closestMatch('itmeuot', ['timeout']), 'timeout');
    assert.equal(closestMatch('itemuot', ['timeout']), undefined);
  });
});

describe('impossibleThreshold', () => {
  const cases: [Threshold, string | null][] = [
    [{ gte: 1 }, null],
    [{ gt: 0.5, lt: 0.8 }, null],
    [{ gte: 0.5, lte: 0.5 }, null],
    [{ lte: 0 }, null],
    [{ gt: 0.8, lt: 0.5 }, 'impossible threshold: no score in [0, 1] is > 0.8 and < 0.5'],
    [{ gte: 0.6, lte: 0.4 }, 'impossible threshold: no score in [0, 1] is >= 0.6 and <= 0.4'],
    [{ gt: 0.5, lt: 0.5 }, 'impossible threshold: no score in [0, 1] is > 0.5 and < 0.5'],
    [{ gte: 0.5, lt: 0.5 }, 'impossible threshold: no score in [0, 1] is >= 0.5 and < 0.5'],
    [{ gt: 1 }, 'impossible threshold: no score in [0, 1] is > 1'],
    [{ lt: 0 }, 'impossible threshold: no score in [0, 1] is < 0'],
    [
      { gte: 0.2, gt: 0.7, lte: 0.7 },
      'impossible threshold: no score in [0, 1] is > 0.7 and >= 0.2 and <= 0.7',
    ],
    // Out of range is the schema's message, not this one.
    [{ gte: 2 }, null],
  ];
  for (const [threshold, message] of cases) {
    it(JSON.stringify(threshold), () => assert.equal(impossibleThreshold(threshold), message));
  }
});

describe('config paths', () => {
  const formatted: [ConfigPath, string][] = [
    [[], ''],
    [['suites', 0, 'evaluators', 1, 'threshold', 'gte'], 'suites[0].evaluators[1].threshold.gte'],
    [['suites', 0, 'gate', 'evaluators', 'is-equals'], 'suites[0].gate.evaluators.is-equals'],
    [['suites', 0, 'grid', 'my key'], 'suites[0].grid["my key"]'],
    [['suites', 0, 'grid', ''], 'suites[0].grid[""]'],
  ];
  for (const [path, text] of formatted) {
    it(`formats ${JSON.stringify(path)}`, () => assert.equal(formatConfigPath(path), text));
  }

  it('reads a JSON pointer, numbering only array indexes', () => {
    const data = { suites: [{ grid: { '0': [1], 'a/b': [2] } }] };
    assert.deepEqual(pointerToPath('/suites/0/grid/0', data), ['suites', 0, 'grid', '0']);
    assert.deepEqual(pointerToPath('/suites/0/grid/a~1b/0', data), ['suites', 0, 'grid', 'a/b', 0]);
    assert.deepEqual(pointerToPath('', data), []);
  });

  it("reads a built-in's dotted option path", () => {
    assert.deepEqual(parseDottedPath('pattern'), ['pattern']);
    assert.deepEqual(parseDottedPath('rubric.criteria[2].weight'), [
      'rubric',
      'criteria',
      2,
      'weight',
    ]);
    assert.deepEqual(parseDottedPath(''), []);
  });
});

describe('defaultEvaluatorId', () => {
  const cases: [string, string][] = [
    ['is-equals', 'is-equals'],
    ['./evaluators/tone.ts#Tone', 'Tone'],
    ['./evaluators/tone.ts', 'tone'],
    ['../shared/length.mjs#default', 'length'],
    ['#helper', 'helper'],
  ];
  for (const [use, id] of cases)
    it(`${use} → ${id}`, () => assert.equal(defaultEvaluatorId(use), id));
});

describe('templateProblems', () => {
  const cases: [string, string[]][] = [
    ['plain', []],
    ['{{case.capital}}', []],
    ['{{ output.answer }} in {{params.model}}', []],
    ['{{case.items[0].name}}', []],
    [
      '{{ row.x }}',
      ['template {{ row.x }} starts with "row": expected one of case, output, params'],
    ],
    [
      '{{}}',
      [
        'malformed template {{  }}: expected a path such as case.question, output.items[0] or case["Expected Output"]',
      ],
    ],
    [
      '{{case.x',
      [
        'unclosed template in "{{case.x": write {{ case.field }}, {{ output.field }} or {{ params.name }}',
      ],
    ],
  ];
  for (const [text, problems] of cases)
    it(text, () => assert.deepEqual(templateProblems(text), problems));
});

describe('schemaProblems', () => {
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: false });
  const problems = (schema: object, data: unknown, templatesAllowed = false): string[] => {
    const validate = ajv.compile(schema);
    validate(data);
    return schemaProblems(validate.errors ?? [], data, { templatesAllowed }).map((p) => {
      const where = formatConfigPath(p.path) + (p.key === undefined ? '' : ` (key ${p.key})`);
      return where ? `${where}: ${p.message}` : p.message;
    });
  };

  it('reports a wrong type once, not the keywords that assumed the right one', () => {
    const schema = {
      type: 'object',
      properties: { n: { type: 'integer', minimum: 1, multipleOf: 2 } },
    };
    assert.deepEqual(problems(schema, { n: 'x' }), ['n: expected integer, found "x"']);
  });

  it('reduces nested alternatives to the branch the value resembles', () => {
    const schema = {
      type: 'object',
      properties: {
        v: {
          anyOf: [
            { type: 'string' },
            {
              type: 'object',
              properties: {
                w: { oneOf: [{ type: 'number' }, { type: 'array', items: { type: 'number' } }] },
              },
              additionalProperties: false,
            },
          ],
        },
      },
    };
    assert.deepEqual(problems(schema, { v: { w: [1, 'two'] } }), [
      'v.w[1]: expected number, found "two"',
    ]);
    assert.deepEqual(problems(schema, { v: { w: true } }), [
      'v.w: expected number or array, found true',
    ]);
    assert.deepEqual(problems(schema, { v: { x: 1 } }), [
      'v (key x): unknown key "x" (expected one of: w)',
    ]);
    assert.deepEqual(problems(schema, { v: 3 }), ['v: expected string or object, found 3']);
  });

  it('names const and enum alternatives', () => {
    const schema = { anyOf: [{ const: 'all' }, { enum: ['any', 'none'] }, { type: 'number' }] };
    assert.deepEqual(problems(schema, 'some'), [
      'expected "all", "any", "none" or number, found "some"',
    ]);
  });

  it('accepts template strings anywhere when asked to', () => {
    const schema = {
      type: 'object',
      properties: {
        list: { type: 'array', items: { type: 'number' } },
        choice: { oneOf: [{ type: 'number' }, { type: 'boolean' }] },
        mode: { enum: ['a', 'b'] },
      },
    };
    const data = { list: ['{{case.n}}', 2], choice: '{{params.c}}', mode: 'x {{case.m}}' };
    assert.deepEqual(problems(schema, data, true), []);
    assert.deepEqual(problems(schema, data, false), [
      'list[0]: expected number, found "{{case.n}}"',
      'mode: expected "a" or "b", found "x {{case.m}}"',
      'choice: expected number or boolean, found "{{params.c}}"',
    ]);
  });
});
