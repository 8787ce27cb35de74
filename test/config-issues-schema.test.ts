/**
 * Invalid configs next to the exact lines a user sees (`file:line:col  path: message`):
 * malformed YAML and schema violations, one rule per case.
 */
import { yaml } from './fixtures/config/check.ts';
import { table, type Case } from './helpers/config-issue-table.ts';

const yamlErrors: Case[] = [
  {
    name: 'malformed YAML stops with its own position',
    text: yaml`
      version: 1
      suites: [
        - id: x
    `,
    issues: [
      'evals.yaml:3:3  malformed YAML: Block collections are not allowed within flow collections',
      'evals.yaml:4:1  malformed YAML: Flow sequence in block collection must be sufficiently indented and end with a ]',
    ],
  },
  {
    name: 'a duplicate key is an error at the second occurrence',
    text: yaml`
      version: 1
      suites:
        - id: a
          id: b
          testset: { path: a.csv }
    `,
    issues: ['evals.yaml:4:5  duplicate key "id": each key may appear once in a mapping'],
  },
  {
    name: 'an empty file',
    text: '# nothing yet\n',
    issues: ['evals.yaml:1:1  the config is empty: expected version: 1 and suites:'],
  },
];

const schemaErrors: Case[] = [
  {
    name: 'top level: version and suites are required',
    text: yaml`
      defaults: { concurrency: 2 }
    `,
    issues: [
      'evals.yaml:1:1  missing required key "version"',
      'evals.yaml:1:1  missing required key "suites"',
    ],
  },
  {
    name: 'a version other than 1',
    text: yaml`
      version: 2
      suites: [{ id: a, testset: { path: a.csv } }]
    `,
    issues: ['evals.yaml:1:10  version: expected 1, found 2'],
  },
  {
    name: 'the top level must be a mapping',
    text: '- version: 1\n',
    issues: ['evals.yaml:1:1  expected object, found an array [{"version":1}]'],
  },
  {
    name: 'suites must not be empty',
    text: yaml`
      version: 1
      suites: []
    `,
    issues: ['evals.yaml:2:9  suites: expected at least 1 item, found an array []'],
  },
  {
    name: 'unknown top-level key close to a known one',
    text: yaml`
      version: 1
      suite: []
      suites: [{ id: a, testset: { path: a.csv } }]
    `,
    issues: ['evals.yaml:2:1  unknown key "suite" (did you mean "suites"?)'],
  },
  {
    name: 'unknown evaluator key lists the known ones',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          evaluators:
            - use: is-equals
              with: { expected: 1 }
              evaluater: x
    `,
    issues: [
      'evals.yaml:8:9  suites[0].evaluators[0]: unknown key "evaluater" (expected one of: id, use, with, threshold, concurrency, timeout, judge, when, not, agreement)',
    ],
  },
  {
    name: 'misspelt evaluator key gets a suggestion',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          evaluators:
            - use: is-equals
              with: { expected: 1 }
              treshold: { gte: 1 }
    `,
    issues: [
      'evals.yaml:8:9  suites[0].evaluators[0]: unknown key "treshold" (did you mean "threshold"?)',
    ],
  },
  {
    name: 'wrong type in a threshold, at the value',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          evaluators:
            - use: is-equals
              with: { expected: 1 }
            - use: has-all-substrings
              with: { substrings: [a] }
              threshold: { gte: high }
    `,
    issues: [
      'evals.yaml:10:27  suites[0].evaluators[1].threshold.gte: expected number, found "high"',
    ],
  },
  {
    name: 'threshold bounds lie in [0, 1]',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          evaluators:
            - use: is-equals
              with: { expected: 1 }
              threshold: { gte: 1.5, lt: -1 }
    `,
    issues: [
      'evals.yaml:8:27  suites[0].evaluators[0].threshold.gte: expected a number from 0 to 1, found 1.5',
      'evals.yaml:8:36  suites[0].evaluators[0].threshold.lt: expected a number from 0 to 1, found -1',
    ],
  },
  {
    name: 'a threshold written as a percentage says what to write',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          evaluators:
            - use: is-equals
              with: { expected: 1 }
              threshold: { gte: 80 }
    `,
    issues: [
      'evals.yaml:8:27  suites[0].evaluators[0].threshold.gte: expected a number from 0 to 1, found 80 (not a percentage: write 0.8 for 80%)',
    ],
  },
  {
    name: 'a threshold needs at least one bound',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          evaluators:
            - use: is-equals
              with: { expected: 1 }
              threshold: {}
    `,
    issues: [
      'evals.yaml:8:20  suites[0].evaluators[0].threshold: expected at least one of: lt, lte, gt, gte, found an object {}',
    ],
  },
  {
    name: 'an empty value points at its key',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          evaluators:
            - use: is-equals
              with: { expected: 1 }
              threshold:
    `,
    issues: ['evals.yaml:8:9  suites[0].evaluators[0].threshold: expected object, found null'],
  },
  {
    name: 'a bare number as a duration shows the accepted forms',
    text: yaml`
      version: 1
      defaults: { timeout: 30 }
      suites:
        - id: a
          testset: { path: a.csv }
          timeout: 2 minutes
          evaluators:
            - use: is-equals
              with: { expected: 1 }
              timeout: none
    `,
    issues: [
      'evals.yaml:2:22  defaults.timeout: expected a duration such as 500ms, 1.5s, 30s, 2m or 1h, or none, found 30 (a number needs a unit, e.g. "30s")',
      'evals.yaml:6:14  suites[0].timeout: expected a duration such as 500ms, 1.5s, 30s, 2m or 1h, or none, found "2 minutes"',
      'evals.yaml:10:18  suites[0].evaluators[0].timeout: expected a duration such as 500ms, 1.5s, 30s, 2m or 1h, found "none"',
    ],
  },
  {
    name: 'a number where a revision or an id is wanted is told to be quoted, not given a unit',
    text: yaml`
      version: 1
      suites:
        - id: 12
          testset: { path: a.csv, revision: 123456 }
          evaluators:
            - use: is-equals
              with: { expected: 1 }
    `,
    issues: [
      'evals.yaml:3:9  suites[0].id: expected an id of letters, digits, _, . and - that starts with a letter or digit, found 12 (YAML reads it as a number: write it in quotes)',
      'evals.yaml:4:39  suites[0].testset.revision: expected a revision id of 6 to 64 lowercase hex digits in quotes, found 123456 written bare, which YAML reads as the number 123456: write it in quotes ("123456"), or run `evals testset pin` to write the current revision quoted',
    ],
  },
  {
    name: 'concurrency is an integer of at least 1',
    text: yaml`
      version: 1
      defaults: { concurrency: 0 }
      suites:
        - id: a
          testset: { path: a.csv }
          concurrency: 2.5
    `,
    issues: [
      'evals.yaml:2:26  defaults.concurrency: expected an integer >= 1, found 0',
      'evals.yaml:6:18  suites[0].concurrency: expected integer, found 2.5',
    ],
  },
  {
    name: 'trials is an integer of at least 1',
    text: yaml`
      version: 1
      defaults: { trials: 0 }
      suites:
        - id: a
          testset: { path: a.csv }
          trials: "x"
        - id: b
          testset: { path: a.csv }
          trials: 1.5
    `,
    issues: [
      'evals.yaml:2:21  defaults.trials: expected an integer >= 1, found 0',
      'evals.yaml:6:13  suites[0].trials: expected integer, found "x"',
      'evals.yaml:9:13  suites[1].trials: expected integer, found 1.5',
    ],
  },
  {
    name: 'suite id pattern',
    text: yaml`
      version: 1
      suites:
        - id: -bad id
          testset: { path: a.csv }
    `,
    issues: [
      'evals.yaml:3:9  suites[0].id: expected an id of letters, digits, _, . and - that starts with a letter or digit, found "-bad id"',
    ],
  },
  {
    name: 'testset needs path or cases',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { tags: [smoke] }
    `,
    issues: ['evals.yaml:4:14  suites[0].testset: missing required key "path" or "cases"'],
  },
  {
    name: 'testset takes path or cases, not both',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset:
            path: a.csv
            cases: [{ q: 1 }]
    `,
    issues: [
      'evals.yaml:5:7  suites[0].testset: expected only one of "path" or "cases", found more than one',
    ],
  },
  {
    name: 'a testset that is not a mapping reports the type only',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: testsets/a.csv
    `,
    issues: ['evals.yaml:4:14  suites[0].testset: expected object, found "testsets/a.csv"'],
  },
  {
    name: 'revision pins are hex',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv, revision: main }
    `,
    issues: [
      'evals.yaml:4:39  suites[0].testset.revision: expected a revision id of 6 to 64 lowercase hex digits (print it with `evals testset revision FILE`), found "main"',
    ],
  },
  {
    name: 'inline cases are objects',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset:
            cases:
              - { q: 1 }
              - just text
    `,
    issues: ['evals.yaml:7:11  suites[0].testset.cases[1]: expected object, found "just text"'],
  },
  {
    name: 'hash fields are unique non-empty strings',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          hash: [country, "", country, 3]
    `,
    issues: [
      'evals.yaml:5:11  suites[0].hash: expected unique items, found "country" twice (items 0 and 2)',
      'evals.yaml:5:21  suites[0].hash[1]: expected a non-empty string, found ""',
      'evals.yaml:5:34  suites[0].hash[3]: expected string, found 3 (YAML reads it as a number: write it in quotes)',
    ],
  },
  {
    name: 'a sha that YAML reads as a number (here Infinity) is named as such, with the fix',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv, ref: 8e71234567 }
    `,
    issues: [
      'evals.yaml:4:34  suites[0].testset.ref: expected string, found Infinity (YAML reads it as a number: write it in quotes)',
    ],
  },
  {
    name: 'grid values are non-empty lists',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          grid:
            model: small
            temperature: []
    `,
    issues: [
      'evals.yaml:6:14  suites[0].grid.model: expected array, found "small"',
      'evals.yaml:7:20  suites[0].grid.temperature: expected at least 1 item, found an array []',
    ],
  },
  {
    name: 'gate minPassRate in [0, 1] and unknown gate keys',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          gate: { minPassRate: 95, minPassrate: 0.9 }
    `,
    issues: [
      'evals.yaml:5:26  suites[0].gate.minPassRate: expected a number from 0 to 1, found 95 (not a percentage: write 0.95 for 95%)',
      'evals.yaml:5:30  suites[0].gate: unknown key "minPassrate" (did you mean "minPassRate"?)',
    ],
  },
  {
    name: 'a minPassRate written with a per cent sign says what to write',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          gate: { minPassRate: 90% }
    `,
    issues: [
      'evals.yaml:5:26  suites[0].gate.minPassRate: expected number, found "90%" (not a percentage: write 0.9 for 90%)',
    ],
  },
];

table('YAML problems', yamlErrors);
table('schema problems', schemaErrors);
