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
    [
      '{{case.capitol}}',
      'template {{ case.capitol }}: case.capitol is not defined (case is an object whose keys are "capital", "keywords", "n", "nested")',
    ],
    [
      '{{case.nested.a.b.c}}',
      'template {{ case.nested.a.b.c }}: case.nested.a.b.c is not defined (case.nested.a.b is null)',
    ],
    [
      'x {{output.items[3].name}} y',
      'template {{ output.items[3].name }}: output.items[3] is not defined (output.items is a list of 1 item)',
    ],
    [
      ['ok', '{{params.missing}}'],
      'template {{ params.missing }}: params.missing is not defined (params is an object whose keys are "model", "temperature")',
    ],
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
        error: `template {{ case.${name} }}: case.${name} is not defined (case is an object whose keys are "question", "items")`,
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
    assert.deepEqual(resolveTemplates('{{case.secret}}', { ...scope, case: withGetter }), {
      ok: false,
      // Not named as a key either: it is not one a template can read.
      error: 'template {{ case.secret }}: case.secret is not defined (case is an empty object)',
    });
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
      error: `template {{ case["Expected Output"] }}: case["Expected Output"] is not defined (case is an object whose keys are "Expected Router Output", "a.b", "it's", "quote \\"x\\"", "items")`,
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

/**
 * A path that found nothing said only `… is not defined`: a typo in a key read as a missing
 * field, and `{{ output.text }}` on a text output as a field the output lacked. The error now
 * says what is there instead.
 */
describe('a missing path says what is there instead', () => {
  const at = (template: string, output: unknown): string => {
    const result = resolveTemplates(template, { case: {}, output, params: {} });
    assert.equal(result.ok, false);
    return result.ok ? '' : result.error;
  };

  it('a text output read as an object', () => {
    assert.equal(
      at('{{output.text}}', 'Paris'),
      'template {{ output.text }}: output.text is not defined (output is a string, which has no fields)',
    );
  });

  it('a number, and a list read by a name', () => {
    assert.match(at('{{output.n.x}}', { n: 3 }), /\(output\.n is a number\)$/);
    assert.match(
      at('{{output.items.name}}', { items: [1, 2] }),
      /\(output\.items is a list of 2 items\)$/,
    );
  });

  it('names at most 8 keys, and a long key not at all (counted, never cut)', () => {
    const many = Object.fromEntries(
      ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].map((k) => [k, 1]),
    );
    assert.match(
      at('{{output.z}}', many),
      /\(output is an object whose keys are "a", "b", "c", "d", "e", "f", "g", "h" and 2 more\)$/,
    );
    const long = 'k'.repeat(41);
    assert.match(
      at('{{output.z}}', { [long]: 1, short: 2 }),
      /\(output is an object whose keys are "short" and 1 more\)$/,
    );
    assert.match(at('{{output.z}}', { [long]: 1 }), /\(output is an object of 1 key\)$/);
    assert.doesNotMatch(at('{{output.z}}', { [long]: 1 }), /kkk/);
  });
});
