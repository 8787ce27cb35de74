/**
 * `${VAR}` substitution: the string rules (defaults, escapes, malformed references) and what
 * the loader does with them (positions, types, no cascades).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { substituteEnv } from '../src/config/env.ts';
import { issueLines, loaded, parse, yaml } from './fixtures/config/check.ts';

const env = { MODEL: 'gpt-4o', EMPTY: '', PORT: '8080' };

describe('substituteEnv', () => {
  const cases: [text: string, value: string][] = [
    ['plain text', 'plain text'],
    ['${MODEL}', 'gpt-4o'],
    ['model ${MODEL} on port ${PORT}', 'model gpt-4o on port 8080'],
    ['${UNSET:-small}', 'small'],
    ['${MODEL:-small}', 'gpt-4o'],
    // As in a shell, `:-` also replaces a variable that is set but empty.
    ['${EMPTY:-fallback}', 'fallback'],
    ['${EMPTY}', ''],
    ['${UNSET:-}', ''],
    ['${UNSET:-http://localhost:3000/v1}', 'http://localhost:3000/v1'],
    ['${UNSET:-two words}', 'two words'],
    ['$${MODEL}', '${MODEL}'],
    ['cost: $${MODEL} is ${MODEL}', 'cost: ${MODEL} is gpt-4o'],
    ['$MODEL and $5', '$MODEL and $5'],
    ['{{case.${UNSET:-capital}}}', '{{case.capital}}'],
  ];
  for (const [text, value] of cases) {
    it(`${text} → ${JSON.stringify(value)}`, () => {
      assert.deepEqual(substituteEnv(text, env), { value, problems: [] });
    });
  }

  const problems: [text: string, code: string, message: string][] = [
    [
      '${OPENAI_MODEL}',
      'env.missing',
      'environment variable OPENAI_MODEL is not set (write ${OPENAI_MODEL:-default} to give a default)',
    ],
    [
      '${1ABC}',
      'env.malformed',
      'malformed environment reference ${1ABC}: write ${NAME} or ${NAME:-default}, or $${ for a literal ${',
    ],
    [
      '${A B}',
      'env.malformed',
      'malformed environment reference ${A B}: write ${NAME} or ${NAME:-default}, or $${ for a literal ${',
    ],
    [
      '${UNSET-default}',
      'env.malformed',
      'malformed environment reference ${UNSET-default}: write ${NAME} or ${NAME:-default}, or $${ for a literal ${',
    ],
    [
      'a ${MODEL',
      'env.malformed',
      'unclosed environment reference in "a ${MODEL": write ${NAME} or ${NAME:-default}, or $${ for a literal ${',
    ],
  ];
  for (const [text, code, message] of problems) {
    it(`${text} → ${code}`, () => {
      assert.deepEqual(substituteEnv(text, env).problems, [{ code, message }]);
    });
  }

  it('reports every missing variable of one string', () => {
    const result = substituteEnv('${A}/${B}', {});
    assert.deepEqual(
      result.problems.map((p) => p.message),
      [
        'environment variable A is not set (write ${A:-default} to give a default)',
        'environment variable B is not set (write ${B:-default} to give a default)',
      ],
    );
  });
});

describe('environment in the config', () => {
  const text = yaml`
    version: 1
    defaults:
      concurrency: \${CONCURRENCY:-4}
      timeout: \${TIMEOUT:-45s}
    suites:
      - id: \${SUITE:-capitals}
        testset:
          cases:
            - { question: "Capital of \${COUNTRY:-France}?", price: "$\${PRICE}" }
        function: ./app/answer.ts#answer
        grid:
          model:
            - \${MODEL}
            - "\${MODEL}-mini"
        evaluators:
          - id: exact
            use: is-equals
            with: { expected: "{{case.\${FIELD:-capital}}}", actual: "{{ output }}" }
  `;

  it('substitutes every string value, whole or partial, including inline cases and options', () => {
    const config = loaded(text, { MODEL: 'gpt-4o', COUNTRY: 'Spain' });
    const suite = config.suites[0];
    assert.equal(suite?.id, 'capitals');
    assert.deepEqual(suite?.grid, { model: ['gpt-4o', 'gpt-4o-mini'] });
    assert.deepEqual(suite?.testset.kind === 'inline' && suite.testset.records[0]?.value, {
      question: 'Capital of Spain?',
      price: '${PRICE}',
    });
    assert.deepEqual(suite?.evaluators[0]?.with, {
      expected: '{{case.capital}}',
      actual: '{{ output }}',
    });
    assert.equal(config.defaults.timeoutMs, 45_000);
  });

  it('turns an unquoted value that reads as a number into one; a quoted one stays a string', () => {
    assert.equal(loaded(text, { MODEL: 'm' }).defaults.concurrency, 4);
    assert.equal(loaded(text, { MODEL: 'm', CONCURRENCY: '16' }).defaults.concurrency, 16);
    const quoted = yaml`
      version: 1
      defaults: { concurrency: "\${CONCURRENCY:-4}" }
      suites: [{ id: a, testset: { path: a.csv } }]
    `;
    assert.deepEqual(issueLines(quoted), [
      // Says why it is a string, since the YAML hint for [ ] and { } asks for the quotes.
      'evals.yaml:2:26  defaults.concurrency: expected integer, found "4" (from the default of ${CONCURRENCY}; a quoted value stays a string: give a number or a boolean from the environment unquoted, in block style on a line of its own (`concurrency: ${CONC}`))',
    ]);
    // A quoted value that would not be a number or boolean anyway gets no such advice.
    const word = yaml`
      version: 1
      defaults: { concurrency: "\${CONCURRENCY:-four}" }
      suites: [{ id: a, testset: { path: a.csv } }]
    `;
    assert.deepEqual(issueLines(word), [
      'evals.yaml:2:26  defaults.concurrency: expected integer, found "four" (from the default of ${CONCURRENCY})',
    ]);
  });

  it('reports a missing variable at its value, once, without the schema repeating it', () => {
    const missing = yaml`
      version: 1
      defaults:
        timeout: \${TIMEOUT}
      suites:
        - id: a
          testset: { path: "data/\${DATASET}.csv" }
          grid:
            model:
              - \${MODEL}
    `;
    assert.deepEqual(issueLines(missing), [
      'evals.yaml:3:12  defaults.timeout: environment variable TIMEOUT is not set (write ${TIMEOUT:-default} to give a default)',
      'evals.yaml:6:22  suites[0].testset.path: environment variable DATASET is not set (write ${DATASET:-default} to give a default)',
      'evals.yaml:9:11  suites[0].grid.model[0]: environment variable MODEL is not set (write ${MODEL:-default} to give a default)',
    ]);
    const result = parse(missing);
    assert.ok(!result.ok);
    assert.deepEqual(
      result.issues.map((issue) => issue.code),
      ['env.missing', 'env.missing', 'env.missing'],
    );
  });

  it('leaves keys and comments alone', () => {
    const config = loaded(
      yaml`
        version: 1
        # \${NOT_A_VALUE}
        suites:
          - id: a
            testset: { cases: [{ "\${KEY}": 1 }] }
      `,
    );
    const testset = config.suites[0]?.testset;
    assert.deepEqual(testset?.kind === 'inline' && testset.records[0]?.value, { '${KEY}': 1 });
  });

  it('explains that a reference inside [ ] or { } needs quotes', () => {
    assert.deepEqual(
      issueLines(yaml`
        version: 1
        suites:
          - id: a
            testset: { path: a.csv }
            grid: { model: [\${MODEL}] }
      `),
      [
        'evals.yaml:5:22  malformed YAML: Missing , or : between flow sequence items (inside [ ] or { }, quote a value that holds ${VAR}: "${VAR}"; a quoted value stays a string, so give a number or a boolean from the environment in block style, on a line of its own)',
      ],
    );
  });

  it('reports a malformed reference', () => {
    assert.deepEqual(
      issueLines(yaml`
        version: 1
        suites:
          - id: a
            testset: { path: "\${data dir}/a.csv" }
      `),
      [
        'evals.yaml:4:22  suites[0].testset.path: malformed environment reference ${data dir}: write ${NAME} or ${NAME:-default}, or $${ for a literal ${',
      ],
    );
  });
});
