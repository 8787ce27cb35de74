/**
 * `applyPins` as golden edits (config before → config after) that keep the file's layout:
 * comments, line endings, indentation, anchors, inline cases, quoting and unusual YAML spellings.
 * Every golden output is also re-parsed: it must hold the new pins and read exactly like the
 * input otherwise.
 */
import { describe } from 'node:test';
import { yaml } from './fixtures/config/check.ts';
import { DIGITS, goldenTests, REV, REV2, type Golden } from './helpers/config-pin-goldens.ts';

/** A full 64-digit revision whose 12-digit pin YAML would read as a float. */
const FLOATY = '1e5123456789'.padEnd(64, 'b');

const goldens: Golden[] = [
  {
    name: 'comments everywhere, schema line, document start, blank lines',
    before: yaml`
      # yaml-language-server: $schema=./node_modules/evalgate/schemas/evals.schema.json
      ---
      # The evals of the answer service.
      version: 1

      suites:
        # Capitals: the smoke suite.
        - id: capitals   # keep this id stable
          # rows live next to the config
          testset:
            # a CSV file
            path: testsets/capitals.csv # trailing
            # only the smoke rows
            tags: [smoke]

        # Second suite, between suites.
        - id: other
          testset:
            path: other.csv
      # the end
    `,
    updates: [
      { suiteIndex: 0, revision: REV },
      { suiteIndex: 1, revision: REV2 },
    ],
    after: yaml`
      # yaml-language-server: $schema=./node_modules/evalgate/schemas/evals.schema.json
      ---
      # The evals of the answer service.
      version: 1

      suites:
        # Capitals: the smoke suite.
        - id: capitals   # keep this id stable
          # rows live next to the config
          testset:
            # a CSV file
            path: testsets/capitals.csv # trailing
            revision: 3f9a1c2b7d4e
            # only the smoke rows
            tags: [smoke]

        # Second suite, between suites.
        - id: other
          testset:
            path: other.csv
            revision: abcdef012345
      # the end
    `,
  },
  {
    name: 'CRLF line endings',
    before:
      'version: 1\r\nsuites:\r\n  - id: a   # first\r\n    testset:\r\n      path: a.csv\r\n' +
      '  - id: b\r\n    testset: { path: b.csv, revision: 000000aaaaaa }\r\n',
    updates: [
      { suiteIndex: 0, revision: REV },
      { suiteIndex: 1, revision: REV2 },
    ],
    after:
      'version: 1\r\nsuites:\r\n  - id: a   # first\r\n    testset:\r\n      path: a.csv\r\n' +
      '      revision: 3f9a1c2b7d4e\r\n' +
      '  - id: b\r\n    testset: { path: b.csv, revision: abcdef012345 }\r\n',
  },
  {
    name: 'no line break at the end of the file',
    before: 'version: 1\nsuites:\n  - id: a\n    testset:\n      path: a.csv  # last',
    updates: [{ suiteIndex: 0, revision: REV }],
    after:
      'version: 1\nsuites:\n  - id: a\n    testset:\n      path: a.csv  # last\n      revision: 3f9a1c2b7d4e',
  },
  {
    name: 'defaults, several suites, only some updated, anchors and aliases elsewhere',
    before: yaml`
      version: 1
      defaults:
        concurrency: 8        # cases in flight per suite
        timeout: 30s
      suites:
        - id: one
          testset:
            path: one.csv
          evaluators:
            - id: exact
              use: is-equals
              with: &exact { expected: "{{case.answer}}",   actual: "{{output}}" }
        - id: two
          testset:
            path: two.csv
            revision: 000000aaaaaa
          evaluators:
            - use: is-equals
              with: *exact
        - id: three
          testset: { path: three.csv }
    `,
    updates: [
      { suiteIndex: 2, revision: REV2 },
      { suiteIndex: 0, revision: REV },
    ],
    after: yaml`
      version: 1
      defaults:
        concurrency: 8        # cases in flight per suite
        timeout: 30s
      suites:
        - id: one
          testset:
            path: one.csv
            revision: 3f9a1c2b7d4e
          evaluators:
            - id: exact
              use: is-equals
              with: &exact { expected: "{{case.answer}}",   actual: "{{output}}" }
        - id: two
          testset:
            path: two.csv
            revision: 000000aaaaaa
          evaluators:
            - use: is-equals
              with: *exact
        - id: three
          testset: { path: three.csv, revision: abcdef012345 }
    `,
  },
  {
    name: 'inline cases: block list, flow list, flow mapping',
    before: yaml`
      version: 1
      suites:
        - id: block
          testset:
            cases:
              - { question: "2+2?", answer: "4" }
              - question: Capital of France?   # a block item
                answer: Paris

            tags: [smoke]
        - id: flow
          testset:
            cases: [{ q: a }, { q: b }]
        - id: inline
          testset: { cases: [{ q: a }] }
    `,
    updates: [
      { suiteIndex: 0, revision: REV },
      { suiteIndex: 1, revision: REV2 },
      { suiteIndex: 2, revision: REV },
    ],
    after: yaml`
      version: 1
      suites:
        - id: block
          testset:
            cases:
              - { question: "2+2?", answer: "4" }
              - question: Capital of France?   # a block item
                answer: Paris
            revision: 3f9a1c2b7d4e

            tags: [smoke]
        - id: flow
          testset:
            cases: [{ q: a }, { q: b }]
            revision: abcdef012345
        - id: inline
          testset: { cases: [{ q: a }], revision: 3f9a1c2b7d4e }
    `,
  },
  {
    name: '4-space indentation',
    before: yaml`
      version: 1
      suites:
          -   id: a
              testset:
                  path: a.csv
          -   id: b
              testset:
                  path: b.csv
    `,
    updates: [{ suiteIndex: 1, revision: REV }],
    after: yaml`
      version: 1
      suites:
          -   id: a
              testset:
                  path: a.csv
          -   id: b
              testset:
                  path: b.csv
                  revision: 3f9a1c2b7d4e
    `,
  },
  {
    name: 'numeric-looking revisions are quoted; a quoted pin that no longer needs it keeps its quotes',
    before: yaml`
      version: 1
      suites:
        - id: int
          testset: { path: a.csv }
        - id: float
          testset:
            path: b.csv
            revision: 000000aaaaaa
        - id: quoted
          testset: { path: c.csv, revision: '123456123456' }
    `,
    updates: [
      { suiteIndex: 0, revision: DIGITS },
      { suiteIndex: 1, revision: FLOATY },
      { suiteIndex: 2, revision: REV },
    ],
    after: yaml`
      version: 1
      suites:
        - id: int
          testset: { path: a.csv, revision: "123456789012" }
        - id: float
          testset:
            path: b.csv
            revision: "1e5123456789"
        - id: quoted
          testset: { path: c.csv, revision: '3f9a1c2b7d4e' }
    `,
  },
  {
    name: '${VAR} strings untouched',
    before: yaml`
      version: 1
      suites:
        - id: a
          testset:
            path: \${TESTSETS:-testsets}/a.csv
          function: "\${APP_DIR}/answer.ts#answer"
          evaluators:
            - use: contains
              with: { value: "\${EXPECTED}" }
    `,
    updates: [{ suiteIndex: 0, revision: REV }],
    after: yaml`
      version: 1
      suites:
        - id: a
          testset:
            path: \${TESTSETS:-testsets}/a.csv
            revision: 3f9a1c2b7d4e
          function: "\${APP_DIR}/answer.ts#answer"
          evaluators:
            - use: contains
              with: { value: "\${EXPECTED}" }
    `,
  },
  {
    name: 'odd but valid spellings: block scalar pin, explicit key, document end',
    before: yaml`
      version: 1
      suites:
        - id: a
          testset:
            path: a.csv
            revision: |
              000000aaaaaa
            tags: [x]
        - id: b
          testset:
            ? path
            : b.csv
      ...
    `,
    updates: [
      { suiteIndex: 0, revision: REV },
      { suiteIndex: 1, revision: REV2 },
    ],
    after: yaml`
      version: 1
      suites:
        - id: a
          testset:
            path: a.csv
            revision: 3f9a1c2b7d4e
            tags: [x]
        - id: b
          testset:
            ? path
            : b.csv
            revision: abcdef012345
      ...
    `,
  },
  {
    name: 'nothing to update: the text as it was',
    before: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
    `,
    updates: [],
    after: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
    `,
  },
];

describe('applyPins', () => {
  goldenTests(goldens);
});
