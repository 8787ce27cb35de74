/**
 * `\{{` writes a literal `{{`: it resolves to `{{` (the backslash dropped), is no template for
 * any reader (the checks, the target checks, the targets, the evaluators) and is never
 * "unclosed"; `\\{{ case.x }}` is one backslash then the value. Strings without a backslash
 * right before a `{{` read as they always did. Every test here fails where `\{{` is not an escape.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileTemplateProblems, templateProblems } from '../src/config/template-check.ts';
import { optionResolver } from '../src/evaluators/options.ts';
import {
  hasTemplates,
  literalValue,
  resolveTemplates,
  templateExpressions,
  templateSpans,
  unclosedTemplateIndex,
  type TemplateScope,
} from '../src/shared/templates.ts';
import { textInput } from '../src/targets/inputs.ts';
import { shellQuote } from '../src/shared/shell-word.ts';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((s) => (server = s));

const scope: TemplateScope = {
  case: { q: 'Paris', n: 3 },
  output: 'out',
  params: { model: 'small' },
};

// Strings are written as the program sees them: '\\{{' is one backslash, then `{{`.
describe('resolving', () => {
  const cases: [name: string, text: string, expected: unknown][] = [
    [
      'an escaped {{ is text, its backslash dropped',
      'Use \\{{ name }} here',
      'Use {{ name }} here',
    ],
    ['a doubled backslash is one backslash, then the value', '\\\\{{ case.q }}', '\\Paris'],
    ['three backslashes: one backslash, then a literal {{', '\\\\\\{{ x }}', '\\{{ x }}'],
    [
      'escapes mixed with templates',
      'Show \\{{ name }} for {{ case.q }} ({{params.model}}) \\{{x}}',
      'Show {{ name }} for Paris (small) {{x}}',
    ],
    ['a whole-string escaped template keeps a string', '\\{{ case.n }}', '{{ case.n }}'],
    ['an escaped {{ with no }} is text too', 'a \\{{ b', 'a {{ b'],
    ['an escape takes the first two braces', '\\{{{ case.q }}', '{{{ case.q }}'],
    [
      'other backslashes are left alone',
      'C:\\path \\d+ {{ case.q }} \\}} \\{{y}}',
      'C:\\path \\d+ Paris \\}} {{y}}',
    ],
  ];
  for (const [name, text, expected] of cases) {
    it(name, () => assert.deepEqual(resolveTemplates(text, scope), { ok: true, value: expected }));
  }

  it('resolves escapes deeply, and keeps the type of a real whole-value template beside them', () => {
    assert.deepEqual(
      resolveTemplates({ a: ['\\{{ n }}', '{{ case.n }}'], b: '{{case.n}}' }, scope),
      { ok: true, value: { a: ['{{ n }}', 3], b: 3 } },
    );
  });
});

describe('every reader agrees on what is a template', () => {
  const cases: [text: string, expressions: string[], unclosed: number, templated: boolean][] = [
    ['\\{{ name }}', [], -1, false],
    ['\\{{ oops', [], -1, false],
    ['\\{{ name }} {{ case.q }}', ['case.q'], -1, true],
    ['\\\\{{ case.q }} \\{{ x }}', ['case.q'], -1, true],
    ['\\\\{{ oops \\{{ x }}', [], 2, true],
    ['\\{{{ case.q }}', [], -1, false],
    ['\\{{{{ case.q }}', ['case.q'], -1, true],
    ['\\{{ a }} {{ b', [], 9, true],
  ];
  for (const [text, expressions, unclosed, templated] of cases) {
    it(JSON.stringify(text), () => {
      assert.deepEqual(templateExpressions(text), expressions);
      assert.equal(unclosedTemplateIndex(text), unclosed);
      assert.equal(hasTemplates(text), templated);
    });
  }

  it('places a template after an escaped one at its own {{ in the text as written', () => {
    assert.deepEqual(templateSpans('\\{{ a }} {{case.q}}'), [{ expression: 'case.q', index: 9 }]);
    // Without a backslash before them, braces read as before.
    assert.deepEqual(templateExpressions('{{ a }} {{case.q}}'), ['a', 'case.q']);
    assert.deepEqual(templateExpressions('{{{ case.q }}'), ['case.q']);
    assert.equal(unclosedTemplateIndex('{{ a }} {{ b'), 8);
  });

  it('literalValue reads escapes deeply and hands back the same object when there are none', () => {
    const plain = { pattern: '\\d+', list: ['{{ case.q }}'] };
    assert.equal(literalValue(plain), plain);
    assert.deepEqual(literalValue({ a: ['\\{{ x }}', 1], b: 'C:\\p' }), {
      a: ['{{ x }}', 1],
      b: 'C:\\p',
    });
  });

  it('an evaluator option with only escapes is a constant, read once without its backslash', () => {
    const raw = { expected: 'say \\{{ hi }}', n: 1 };
    const resolve = optionResolver(raw);
    const args = { testCase: scope.case, output: 'o', params: {} } as Parameters<typeof resolve>[0];
    const first = resolve(args);
    assert.deepEqual(first, { expected: 'say {{ hi }}', n: 1 });
    assert.equal(resolve(args), first);
    const plain = { expected: 'no braces' };
    assert.equal(optionResolver(plain)(args), plain);
  });

  it('a target text input puts escaped braces in place as text', () => {
    const args = { testCase: { q: 'a b' }, params: {} };
    assert.deepEqual(textInput('/x?t=\\{{ t }}&q={{ case.q }}', encodeURIComponent).render(args), {
      ok: true,
      value: '/x?t={{ t }}&q=a%20b',
    });
    assert.deepEqual(textInput('echo \\{{x}} \\\\{{case.q}}', shellQuote).render(args), {
      ok: true,
      value: "echo {{x}} \\'a b'",
    });
  });
});

describe('load-time checks', () => {
  it('an escaped {{ is neither unclosed nor a malformed or unknown template', () => {
    assert.deepEqual(templateProblems('Show \\{{ name }}, \\{{ x.y + 1 }} and \\{{ open'), []);
    assert.deepEqual(templateProblems('\\{{ name }} {{ row.q }}').length, 1);
  });

  it('reports a bad template after an escaped one at its own line and column', () => {
    const text = 'Show \\{{ name }} here.\nA \\{{ x }} then {{ row.q }} and {{ case.nope }}\n';
    assert.deepEqual(
      fileTemplateProblems(text, new Set(['q'])).map(({ line, col }) => `${line}:${col}`),
      ['2:17', '2:33'],
    );
  });
});

/** A model target over one row, against the loopback server, `extra` lines under target:. */
function modelProject(extra: string[], evaluators: string[] = [], files = {}): string {
  return jsonlProject(
    [{ q: 'Paris' }],
    [
      'target:',
      '  type: model',
      '  model: small',
      `  baseUrl: ${server.url}`,
      '  apiKey: sk-escape-test-123456',
      ...extra.map((line) => `  ${line}`),
      ...evaluators,
    ],
    files,
  );
}

/** The text of the last message of each request the server received. */
function sentPrompts(): string[] {
  return server.requests.map((request) => {
    const { messages } = request.body as { messages: { content: string }[] };
    return messages.at(-1)?.content ?? '';
  });
}

describe('end to end, in process', () => {
  const PROMPT =
    'Write a Vue template showing \\{{ name }} for {{ case.q }}.\nKeep \\\\{{ case.q }} too.\n';

  it('a prompt file with an escaped {{ is sent without its backslash, and scored', async () => {
    const dir = modelProject(
      ['prompt: { file: prompts/vue.md }'],
      [
        'evaluators:',
        "  - { id: braces, use: regex, with: { pattern: '\\{{ name }} for Paris' } }",
        '  - use: is-equals',
        '    with:',
        // The reply's final line break is not scored (a text output's trailing ones are not).
        '      expected: "echo: Write a Vue template showing \\\\{{ name }} for {{ case.q }}.\\nKeep \\\\\\\\{{ case.q }} too."',
      ],
      { 'prompts/vue.md': PROMPT },
    );
    const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.deepEqual(sentPrompts(), [
      'Write a Vue template showing {{ name }} for Paris.\nKeep \\Paris too.\n',
    ]);
    const [c] = artifactCases(dir)[0]!.cases;
    assert.deepEqual(
      c?.evaluations.map((e) => [e.evaluator, e.passed]),
      [
        ['braces', true],
        ['is-equals', true],
      ],
    );
  });

  it('validate places a bad template after an escaped one in a prompt file', async () => {
    const dir = modelProject(['prompt: { file: prompts/p.md }'], [], {
      'prompts/p.md': 'Intro \\{{ name }}.\nShow \\{{ x }} {{ case.nope }}\n',
    });
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2, result.stdout + result.stderr);
    assert.match(result.stderr, /prompts\/p\.md:2:15 .*case\.nope/);
    assert.doesNotMatch(result.stderr, /p\.md:1:|\{\{ name \}\}|\{\{ x \}\}|unclosed/);
    assert.equal(server.requests.length, 0);
  });

  it('an inline prompt escapes a template that names the output, and a regex pattern is checked as the regex sees it', async () => {
    const ok = modelProject(['prompt: "Echo \\\\{{ output }} for {{ case.q }}"']);
    const valid = await runInProcess(['validate'], ok);
    assert.equal(valid.code, 0, valid.stderr);
    // The pattern is a constant `{{ name }}`: the `u` flag refuses its lone braces at load time,
    // while `\{\{` (no `{{` in it) reads as it always did.
    const bad = modelProject(
      ['prompt: hi'],
      [
        'evaluators:',
        "  - { id: escaped, use: regex, with: { pattern: '\\{{ name }}', flags: u } }",
        "  - { id: regex, use: regex, with: { pattern: '\\{\\{ name \\}\\}', flags: u } }",
      ],
    );
    const refused = await runInProcess(['validate'], bad);
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /evaluators\[0\]\.with\.pattern: .*Lone quantifier brackets/);
    assert.doesNotMatch(refused.stderr, /evaluators\[1\]|template/);
  });
});
