import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkTemplateExpression,
  formatTemplatePath,
  hasTemplates,
  parseTemplatePath,
  resolveTemplates,
  templateExpressions,
  type TemplateScope,
} from '../src/shared/templates.ts';

const scope: TemplateScope = {
  case: { capital: 'Paris', keywords: ['Paris', 'France'], n: 3, nested: { a: { b: null } } },
  output: { answer: 'Paris', items: [{ name: 'first' }] },
  params: { model: 'large', temperature: 0 },
};

describe('resolveTemplates', () => {
  const ok: [name: string, value: unknown, expected: unknown][] = [
    ['a whole-value template keeps an array', '{{case.keywords}}', ['Paris', 'France']],
    ['a whole-value template keeps a number', '{{ case.n }}', 3],
    ['a whole-value template keeps null', '{{case.nested.a.b}}', null],
    ['a whole-value template keeps an object', '{{output}}', scope.output],
    ['array indexes', '{{output.items[0].name}}', 'first'],
    [
      'text interpolation',
      'Capital: {{case.capital}} ({{params.model}})',
      'Capital: Paris (large)',
    ],
    ['objects interpolate as JSON', 'kw={{case.keywords}}', 'kw=["Paris","France"]'],
    ['numbers interpolate as text', 't={{params.temperature}}', 't=0'],
    ['no template: unchanged', 'plain text', 'plain text'],
    ['non-strings unchanged', 42, 42],
    [
      'templates inside arrays and objects',
      { list: ['{{case.capital}}', 'x'], deep: { n: '{{case.n}}' } },
      { list: ['Paris', 'x'], deep: { n: 3 } },
    ],
  ];
  for (const [name, value, expected] of ok) {
    it(name, () => assert.deepEqual(resolveTemplates(value, scope), { ok: true, value: expected }));
  }

  const errors: [value: unknown, error: string][] = [
    ['{{case.capitol}}', 'template {{ case.capitol }}: case.capitol is not defined'],
    ['{{case.nested.a.b.c}}', 'template {{ case.nested.a.b.c }}: case.nested.a.b.c is not defined'],
    [
      'x {{output.items[3].name}} y',
      'template {{ output.items[3].name }}: output.items[3] is not defined',
    ],
    [['ok', '{{params.missing}}'], 'template {{ params.missing }}: params.missing is not defined'],
    [
      '{{row.capital}}',
      'template {{ row.capital }} starts with "row": expected one of case, output, params',
    ],
  ];
  for (const [value, error] of errors) {
    it(`an unknown path is an error, never an empty string: ${JSON.stringify(value)}`, () => {
      assert.deepEqual(resolveTemplates(value, scope), { ok: false, error });
    });
  }

  it('gives the same answer when an expression is resolved again (parsed paths are cached)', () => {
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(resolveTemplates('{{case.capital}}', scope), { ok: true, value: 'Paris' });
      assert.equal(resolveTemplates('{{case.nope}}', scope).ok, false);
    }
  });
});

describe('template checks at load time', () => {
  it('accepts well-formed paths on the three roots', () => {
    for (const expr of [
      'case.x',
      'output',
      'params.model',
      'output.items[0].name',
      'case.my-field',
    ]) {
      assert.equal(checkTemplateExpression(expr), null, expr);
    }
  });

  it('rejects malformed paths and unknown roots with a message', () => {
    assert.match(checkTemplateExpression('case..x') ?? '', /malformed template/);
    assert.match(checkTemplateExpression('case.x + 1') ?? '', /malformed template/);
    assert.match(checkTemplateExpression('input.x') ?? '', /starts with "input"/);
  });

  it('finds templates and their expressions', () => {
    assert.deepEqual(templateExpressions('a {{ case.x }} b {{output}}'), ['case.x', 'output']);
    assert.equal(hasTemplates({ a: [1, { b: 'x {{case.y}}' }] }), true);
    assert.equal(hasTemplates({ a: [1, { b: 'plain' }] }), false);
  });
});

describe('only own data properties resolve', () => {
  const row = { question: 'q', items: ['a', 'b'] };
  const inherited = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
  for (const name of inherited) {
    it(`{{case.${name}}} is not defined (inherited from Object.prototype)`, () => {
      assert.deepEqual(resolveTemplates(`{{case.${name}}}`, { ...scope, case: row }), {
        ok: false,
        error: `template {{ case.${name} }}: case.${name} is not defined`,
      });
    });
  }

  it('an array method is not an element: {{case.items.map}} is not defined', () => {
    const result = resolveTemplates('{{case.items.map}}', { ...scope, case: row });
    assert.equal(result.ok, false);
  });

  it('a getter is not run: {{case.secret}} is not defined', () => {
    let ran = false;
    const withGetter = Object.defineProperty({}, 'secret', {
      enumerable: true,
      get: () => {
        ran = true;
        return 'x';
      },
    });
    assert.equal(resolveTemplates('{{case.secret}}', { ...scope, case: withGetter }).ok, false);
    assert.equal(ran, false);
  });

  it('a row field literally named __proto__ (an own data key) resolves', () => {
    const own = Object.defineProperty({}, '__proto__', { value: 'own', enumerable: true });
    assert.deepEqual(resolveTemplates('{{case["__proto__"]}}', { ...scope, case: own }), {
      ok: true,
      value: 'own',
    });
  });
});

describe('bracket paths', () => {
  const row = {
    'Expected Router Output': 'billing',
    'a.b': 1,
    "it's": 2,
    'quote "x"': 3,
    items: [{ name: 'first' }, 'second'],
  };
  const cases: [template: string, expected: unknown][] = [
    ['{{case["Expected Router Output"]}}', 'billing'],
    ["{{case['Expected Router Output']}}", 'billing'],
    ['{{ case[ "Expected Router Output" ] }}', 'billing'],
    ['{{case["a.b"]}}', 1],
    ['{{case["it\'s"]}}', 2],
    ['{{case["quote \\"x\\""]}}', 3],
    ['{{case.items[0]}}', { name: 'first' }],
    ['{{case.items[0].name}}', 'first'],
    ['{{case.items[1]}}', 'second'],
    ['{{case["items"][0]["name"]}}', 'first'],
    ['route={{case["Expected Router Output"]}}', 'route=billing'],
  ];
  for (const [template, expected] of cases) {
    it(`${template} resolves`, () => {
      assert.deepEqual(resolveTemplates(template, { ...scope, case: row }), {
        ok: true,
        value: expected,
      });
    });
  }

  it('a missing bracket key names the path as written', () => {
    assert.deepEqual(resolveTemplates('{{case["Expected Output"]}}', { ...scope, case: row }), {
      ok: false,
      error: 'template {{ case["Expected Output"] }}: case["Expected Output"] is not defined',
    });
  });

  it('parses roots and keys, and refuses what is not a path', () => {
    assert.deepEqual(parseTemplatePath('case["A b"].c[2]'), {
      root: 'case',
      keys: ['A b', 'c', '2'],
    });
    for (const bad of ['case[', 'case["x"', 'case[x]', 'case.', 'case["x"]y', '1case', '']) {
      assert.ok('error' in parseTemplatePath(bad), bad);
      assert.match(checkTemplateExpression(bad) ?? '', /malformed template/, bad);
    }
  });

  it('formats a path back the way it can be written', () => {
    assert.equal(formatTemplatePath('case', ['items', '0', 'A b']), 'case.items[0]["A b"]');
  });
});
