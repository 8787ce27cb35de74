/**
 * Invalid configs next to the exact lines a user sees (`file:line:col  path: message`):
 * rules beyond the schema, one per case; the last case shows that every problem is reported at once.
 */
import { yaml } from './fixtures/config/check.ts';
import { table, type Case } from './helpers/config-issue-table.ts';

const ruleErrors: Case[] = [
  {
    name: 'suite ids are unique',
    text: yaml`
      version: 1
      suites:
        - id: capitals
          testset: { path: a.csv }
        - id: capitals
          testset: { path: b.csv }
    `,
    issues: [
      'evals.yaml:5:9  suites[1].id: duplicate suite id "capitals" (suites[0] at line 3 has the same id)',
    ],
  },
  {
    name: 'evaluator ids are unique in a suite, explicit or taken from use',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          evaluators:
            - use: is-equals
              with: { expected: 1 }
            - use: is-equals
              with: { expected: 2 }
            - id: is-equals
              use: regex
              with: { pattern: x }
    `,
    issues: [
      'evals.yaml:8:14  suites[0].evaluators[1].use: evaluator id "is-equals" (taken from use:) is already used by suites[0].evaluators[0] at line 6: give one of them an id:',
      'evals.yaml:10:13  suites[0].evaluators[2].id: duplicate evaluator id "is-equals" (suites[0].evaluators[0] at line 6 has the same id)',
    ],
  },
  {
    name: 'the evaluator id "pass" is reserved for the pass condition',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          evaluators:
            - id: pass
              use: is-equals
              with: { expected: 2 }
    `,
    issues: [
      'evals.yaml:6:13  suites[0].evaluators[0].id: evaluator id "pass" is reserved for the pass condition\'s own errors: choose another id:',
    ],
  },
  {
    name: 'the same evaluator id in two suites is fine',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          evaluators: [{ id: exact, use: is-equals, with: { expected: 1 } }]
        - id: b
          testset: { path: b.csv }
          evaluators: [{ id: exact, use: is-equals, with: { expected: 1 } }]
    `,
    issues: [],
  },
  {
    name: 'unknown built-in with a near name',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          evaluators:
            - use: is-equal
              with: { expected: 1 }
    `,
    issues: [
      'evals.yaml:6:14  suites[0].evaluators[0].use: unknown evaluator "is-equal" (did you mean "is-equals"?)',
    ],
  },
  {
    name: 'unknown built-in with nothing close lists the built-ins',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          evaluators:
            - use: semantic-similarity
    `,
    issues: [
      'evals.yaml:6:14  suites[0].evaluators[0].use: unknown evaluator "semantic-similarity": expected a built-in (is-equals, has-all-substrings, regex, score-range) or a module spec such as ./evaluators/tone.ts#Tone',
    ],
  },
  {
    name: 'built-in options: missing, unknown and mistyped',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          evaluators:
            - use: is-equals
            - use: has-all-substrings
              with: { substrings: [a, 2], casesensitive: true }
    `,
    issues: [
      'evals.yaml:6:9  suites[0].evaluators[0].with: missing required key "expected"',
      'evals.yaml:8:33  suites[0].evaluators[1].with.substrings[1]: expected string, found 2 (YAML reads it as a number: write it in quotes)',
      'evals.yaml:8:37  suites[0].evaluators[1].with: unknown key "casesensitive" (did you mean "caseSensitive"?)',
    ],
  },
  {
    name: 'a whole-value template is accepted where the option wants another type',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          grid: { strict: [true, false], range: [[0, 1]] }
          evaluators:
            - use: has-all-substrings
              with: { substrings: "{{case.keywords}}", caseSensitive: "{{ params.strict }}" }
            - use: score-range
              with: { value: "{{output.score}}", range: "{{params.range}}" }
    `,
    issues: [],
  },
  {
    name: 'templates inside lists and alternatives are accepted too',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          grid: { low: [0] }
          evaluators:
            - use: score-range
              with: { value: 1, range: ["{{params.low}}", 1] }
    `,
    issues: [],
  },
  {
    name: 'option alternatives: one message for the branch the user meant',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          evaluators:
            - id: list
              use: score-range
              with: { value: 1, range: [0, high] }
            - id: object
              use: score-range
              with: { value: 1, range: { min: 0 } }
            - id: neither
              use: score-range
              with: { value: 1, range: 10 }
    `,
    issues: [
      'evals.yaml:8:38  suites[0].evaluators[0].with.range[1]: expected number, found "high"',
      'evals.yaml:11:34  suites[0].evaluators[1].with.range: missing required key "max"',
      'evals.yaml:14:34  suites[0].evaluators[2].with.range: expected array or object, found 10',
    ],
  },
  {
    name: "a built-in's validate() is located inside with",
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          evaluators:
            - use: regex
              with:
                pattern: "(unclosed"
    `,
    issues: [
      'evals.yaml:8:20  suites[0].evaluators[0].with.pattern: Invalid regular expression: /(unclosed/: Unterminated group',
    ],
  },
  {
    name: 'malformed and unknown-root templates',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          evaluators:
            - use: is-equals
              with:
                expected: "{{ case.capital }} and {{ row.capital }}"
                actual: "{{output..answer}}"
            - id: open
              use: is-equals
              with: { expected: "{{case.capital" }
    `,
    issues: [
      'evals.yaml:8:21  suites[0].evaluators[0].with.expected: template {{ row.capital }} starts with "row": expected one of case, output, params',
      'evals.yaml:9:19  suites[0].evaluators[0].with.actual: malformed template {{ output..answer }}: expected a path such as case.question, output.items[0] or case["Expected Output"]',
      'evals.yaml:12:27  suites[0].evaluators[1].with.expected: unclosed template in "{{case.capital": write {{ case.field }}, {{ output.field }} or {{ params.name }}',
    ],
  },
  {
    name: 'a custom evaluator takes no templates',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          evaluators:
            - use: ./evaluators/tone.ts#Tone
              with: { strict: true, target: "{{case.tone}}" }
    `,
    issues: [
      'evals.yaml:7:39  suites[0].evaluators[0].with.target: templates are resolved per case only for built-in evaluators; a custom evaluator receives with: once, as written (read case fields in evaluateTestCase instead)',
    ],
  },
  {
    name: 'impossible thresholds',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          evaluators:
            - { id: e1, use: is-equals, with: { expected: 1 }, threshold: { gt: 0.8, lt: 0.5 } }
            - { id: e2, use: is-equals, with: { expected: 1 }, threshold: { gte: 0.6, lte: 0.4 } }
            - { id: e3, use: is-equals, with: { expected: 1 }, threshold: { gt: 0.5, lt: 0.5 } }
            - { id: e4, use: is-equals, with: { expected: 1 }, threshold: { gt: 1 } }
            - { id: e5, use: is-equals, with: { expected: 1 }, threshold: { gte: 0.5, lte: 0.5 } }
    `,
    issues: [
      'evals.yaml:6:69  suites[0].evaluators[0].threshold: impossible threshold: no score in [0, 1] is > 0.8 and < 0.5',
      'evals.yaml:7:69  suites[0].evaluators[1].threshold: impossible threshold: no score in [0, 1] is >= 0.6 and <= 0.4',
      'evals.yaml:8:69  suites[0].evaluators[2].threshold: impossible threshold: no score in [0, 1] is > 0.5 and < 0.5',
      'evals.yaml:9:69  suites[0].evaluators[3].threshold: impossible threshold: no score in [0, 1] is > 1',
    ],
  },
  {
    name: 'gate: unknown evaluators, impossible bounds, passRate without a threshold',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          evaluators:
            - { id: exact, use: is-equals, with: { expected: 1 } }
            - { id: range, use: score-range, with: { value: 1 } }
          gate:
            evaluators:
              exakt: { mean: { gte: 0.5 } }
              tone: { mean: { gte: 0.5 } }
              exact: { mean: { gt: 0.9, lte: 0.2 } }
              range: { passRate: { gte: 0.5 }, mean: { gte: 0.5 } }
    `,
    issues: [
      'evals.yaml:10:9  suites[0].gate.evaluators: no evaluator "exakt" in this suite (did you mean "exact"?)',
      'evals.yaml:11:9  suites[0].gate.evaluators: no evaluator "tone" in this suite (the suite\'s evaluators are exact or range)',
      'evals.yaml:12:24  suites[0].gate.evaluators.exact.mean: impossible threshold: no score in [0, 1] is > 0.9 and <= 0.2',
      'evals.yaml:13:28  suites[0].gate.evaluators.range.passRate: evaluator "range" has no threshold, so its evaluations never pass or fail: give it a threshold: or gate on mean',
    ],
  },
  {
    name: 'gate bounds need mean or passRate',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          evaluators: [{ id: exact, use: is-equals, with: { expected: 1 } }]
          gate: { evaluators: { exact: {} } }
    `,
    issues: [
      'evals.yaml:6:34  suites[0].gate.evaluators.exact: expected at least one of: mean, passRate, agreement, found an object {}',
    ],
  },
  {
    name: 'pass and function are module specs',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          function: answer
          pass: most
    `,
    issues: [
      'evals.yaml:5:15  suites[0].function: expected a module spec such as ./app/answer.ts#answer, found "answer"',
      'evals.yaml:6:11  suites[0].pass: expected all, any or a module spec such as ./pass.ts#passes, found "most"',
    ],
  },
  {
    name: 'grid keys are non-empty',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          grid: { "": [1], " ": [2], model: [a] }
    `,
    issues: [
      'evals.yaml:5:13  suites[0].grid: expected a parameter name, found an empty key',
      'evals.yaml:5:22  suites[0].grid: expected a parameter name, found an empty key',
    ],
  },
  {
    name: 'grid values read differently',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          grid: { temp: [0, 0.5, "0"], model: [a, b, a] }
    `,
    issues: [
      'evals.yaml:5:28  suites[0].grid.temp[2]: expected each value once, found "0", which reads as 0 like 0 before it: their runs would have one name in every report and in --grid; keep one',
      'evals.yaml:5:48  suites[0].grid.model[2]: expected each value once, found "a" again: their runs would have one name in every report and in --grid; keep one',
    ],
  },
  {
    name: 'ref needs a testset file',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { cases: [{ q: 1 }], ref: main }
    `,
    issues: [
      'evals.yaml:4:40  suites[0].testset.ref: ref reads a testset file as of a git revision: it needs path:, not inline cases:',
    ],
  },
  {
    name: 'a zero duration',
    text: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
          timeout: 0s
    `,
    issues: ['evals.yaml:5:14  suites[0].timeout: expected a duration of at least 1ms, found "0s"'],
  },
  {
    name: "a model target's baseUrl, apiKey and headers, and a command's cwd, are not templates",
    text: yaml`
      version: 1
      suites:
        - id: chat
          testset: { path: a.csv }
          grid: { port: ["8080"] }
          target:
            type: model
            model: "{{ params.port }}"
            baseUrl: "http://127.0.0.1:{{ params.port }}/v1"
            apiKey: "{{ case.key }}"
            headers: { x-route: "r-{{ params.port }}", x-fixed: '\\{{ literal }}' }
            prompt: "{{ case.q }}"
        - id: agent
          testset: { path: a.csv }
          grid: { dir: [a, b] }
          target: { type: command, run: [pwd], cwd: "{{ params.dir }}" }
    `,
    issues: [
      "evals.yaml:9:16  suites[0].target.baseUrl: a model target's baseUrl is not a template: the connection is set up once for the suite, so {{ … }} here would be sent as written; templates are read in model, prompt and messages only. To call two servers or with two keys, write a suite for each",
      "evals.yaml:10:15  suites[0].target.apiKey: a model target's apiKey is not a template: the connection is set up once for the suite, so {{ … }} here would be sent as written; templates are read in model, prompt and messages only. To call two servers or with two keys, write a suite for each",
      "evals.yaml:11:27  suites[0].target.headers.x-route: a model target's header x-route is not a template: the connection is set up once for the suite, so {{ … }} here would be sent as written; templates are read in model, prompt and messages only. To call two servers or with two keys, write a suite for each",
      'evals.yaml:16:47  suites[1].target.cwd: cwd: is not a template: the working folder is set once for the suite, so {{ … }} here would be read as part of a folder name; to run in a folder per grid point, change to it in a shell line (shell: true, run: \'cd "{{ params.dir }}" && ./agent.sh\')',
    ],
  },
  {
    name: "a command's environment variable names hold no = and are not empty",
    text: yaml`
      version: 1
      suites:
        - id: agent
          testset: { path: a.csv }
          target:
            type: command
            run: [env]
            env: { "PYTHONPATH=src": x, "": y, OK_NAME: z }
    `,
    issues: [
      'evals.yaml:8:14  suites[0].target.env: environment variable "PYTHONPATH=src" cannot be set: a name cannot hold "=" (the system reads a name up to its first "=", so the program would see "PYTHONPATH" instead)',
      'evals.yaml:8:35  suites[0].target.env: environment variable "" cannot be set: its name is empty',
    ],
  },
  {
    name: 'a setting that is not a template is said once, not also as a grid key the suite lacks',
    text: yaml`
      version: 1
      suites:
        - id: chat
          testset: { path: a.csv }
          target:
            type: model
            model: m
            baseUrl: "http://127.0.0.1:{{ params.port }}/v1"
            prompt: "{{ case.q }}"
        - id: agent
          testset: { path: a.csv }
          target: { type: command, run: [pwd], cwd: "{{ params.dir }}" }
    `,
    issues: [
      "evals.yaml:8:16  suites[0].target.baseUrl: a model target's baseUrl is not a template: the connection is set up once for the suite, so {{ … }} here would be sent as written; templates are read in model, prompt and messages only. To call two servers or with two keys, write a suite for each",
      'evals.yaml:12:47  suites[1].target.cwd: cwd: is not a template: the working folder is set once for the suite, so {{ … }} here would be read as part of a folder name; to run in a folder per grid point, change to it in a shell line (shell: true, run: \'cd "{{ params.dir }}" && ./agent.sh\')',
    ],
  },
  {
    // The new id of a renamed suite where its old id belongs would accept nothing.
    name: 'removedSuites lists no suite the config still has',
    text: yaml`
      version: 1
      removedSuites: [qa, capitals]
      suites:
        - id: capitals
          testset: { path: a.csv }
    `,
    issues: [
      'evals.yaml:2:21  removedSuites[1]: expected the id of a suite this config no longer has, found "capitals", a suite of this config (suites[0].id at line 4): list the id the suite had in the baseline (a renamed suite\'s old id), or drop the entry',
    ],
  },
  {
    // An evaluator the suite still has, listed as removed, accepts nothing: most likely the new
    // id of a renamed evaluator where its old id belongs.
    name: 'gate.removedEvaluators lists no evaluator the suite still has',
    text: yaml`
      version: 1
      suites:
        - id: qa
          testset: { path: a.csv }
          evaluators:
            - { use: is-equals, with: { expected: x } }
            - { id: tone2, use: regex, with: { pattern: x } }
          gate: { regressions: block, removedEvaluators: [tone, tone2, is-equals] }
    `,
    issues: [
      'evals.yaml:8:59  suites[0].gate.removedEvaluators[1]: expected the id of an evaluator this suite no longer has, found "tone2", an evaluator of this suite (suites[0].evaluators[1].id at line 7): list the id the evaluator had in the baseline (a renamed evaluator\'s old id), or drop the entry',
      'evals.yaml:8:66  suites[0].gate.removedEvaluators[2]: expected the id of an evaluator this suite no longer has, found "is-equals", an evaluator of this suite (suites[0].evaluators[0].use at line 6): list the id the evaluator had in the baseline (a renamed evaluator\'s old id), or drop the entry',
    ],
  },
  {
    // A value the grid still has accepts nothing gone (and would accept the wrong points).
    name: 'gate.removedGridValues lists no value the grid still has',
    text: yaml`
      version: 1
      suites:
        - id: qa
          testset: { path: a.csv }
          grid:
            model: [small, large2]
            temperature: [0]
          gate:
            regressions: block
            removedGridValues: { model: [large, large2], temperature: ["0", 1], seed: [1] }
    `,
    issues: [
      'evals.yaml:10:43  suites[0].gate.removedGridValues.model[1]: expected a value of model this suite\'s grid no longer has, found "large2", a value of its grid (suites[0].grid.model[1] at line 6): list the value model had in the baseline (a renamed value\'s old spelling), or drop the entry',
      'evals.yaml:10:66  suites[0].gate.removedGridValues.temperature[0]: expected a value of temperature this suite\'s grid no longer has, found "0", a value of its grid (suites[0].grid.temperature[0] at line 7): list the value temperature had in the baseline (a renamed value\'s old spelling), or drop the entry',
    ],
  },
];

const together: Case[] = [
  {
    name: 'schema, rule and env problems are all reported, in file order',
    text: yaml`
      version: 1
      defaults:
        concurrency: many
      suites:
        - id: capitals
          testset: { path: "\${DATA_DIR}/capitals.csv" }
          evaluators:
            - id: exact
              use: is-equal
            - id: exact
              use: regex
              with: { pattern: "[" }
              threshold: { gte: high }
        - id: capitals
          testset: { path: b.csv }
          gate: { evaluators: { tone: { mean: { gte: 0.5 } } } }
    `,
    issues: [
      'evals.yaml:3:16  defaults.concurrency: expected integer, found "many"',
      'evals.yaml:6:22  suites[0].testset.path: environment variable DATA_DIR is not set (write ${DATA_DIR:-default} to give a default)',
      'evals.yaml:9:14  suites[0].evaluators[0].use: unknown evaluator "is-equal" (did you mean "is-equals"?)',
      'evals.yaml:10:13  suites[0].evaluators[1].id: duplicate evaluator id "exact" (suites[0].evaluators[0] at line 8 has the same id)',
      'evals.yaml:12:26  suites[0].evaluators[1].with.pattern: Invalid regular expression: /[/: Unterminated character class',
      'evals.yaml:13:27  suites[0].evaluators[1].threshold.gte: expected number, found "high"',
      'evals.yaml:14:9  suites[1].id: duplicate suite id "capitals" (suites[0] at line 5 has the same id)',
      'evals.yaml:16:27  suites[1].gate.evaluators: no evaluator "tone" in this suite (the suite has no evaluators)',
    ],
  },
];

table('rules beyond the schema', ruleErrors);
table('several problems at once', together);
