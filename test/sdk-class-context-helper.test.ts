/**
 * A subclass of an out-of-box class may have members of its own with natural names: a RAG
 * suite's `context(testCase)` or `inContext(answer, passage)`, a judge's `scoreValues` table
 * beside its `scoreChoices`, a `preload()` that loads the suite's data. The classes' internal
 * members once had such names (`context`, `builtin`, `preload`, `inContext`, `judgeModel`,
 * `scoreValues`, `mappedText`, ...): the user's member replaced the class's, tsc refused the
 * subclass, and in JavaScript every case failed or scored wrong. They are `#private`, functions
 * of the module, or `sdk`-prefixed now. Each row below is a subclass written against the shipped
 * declarations (lib/, built by `npm run build`), type-checked by tsc under --strict and run
 * through that same lib's `runTestSuite`, the judges answering from a loopback server.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { before, describe, it } from 'node:test';
import { shippedConsumer, typeCheckShipped } from './helpers/consumer-typecheck.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

interface Row {
  /** The member of the user's own that once clashed with an internal one. */
  member: string;
  /** The class (named `Row_<member>`), extending one of the out-of-box classes. */
  source: string;
  /** The model the judge was asked with, for a judge class. */
  model?: string;
  /** What the instance's own state is after the run (the user's member was left alone). */
  state?: Record<string, unknown>;
}

// Every row scores the same two cases: the answer to 'height' is right (1), to 'age' wrong (0).
const ROWS: Row[] = [
  {
    member: 'context',
    source: `extends BaseIsEquals<Case, string> {
  id = 'context';
  context(testCase: Case): string { return testCase.passage; }
  testCaseMapper({ testCase }: { testCase: Case }): string { return this.context(testCase); }
  outputMapper({ output }: { output: string }): string { return output; }
}`,
  },
  {
    member: 'builtin',
    source: `extends BaseHasAllSubstrings<Case, string> {
  id = 'builtin';
  /** Words every answer must have, besides the case's own. */
  builtin: string[] = [];
  testCaseMapper({ testCase }: { testCase: Case }): string[] { return [...this.builtin, testCase.passage]; }
  outputMapper({ output }: { output: string }): string { return output; }
}`,
  },
  {
    member: 'preload',
    source: `extends BaseIsEquals<Case, string> {
  id = 'preload';
  loads = 0;
  /** Loads the expected answers (once per call here, to count them). */
  preload(): Record<string, string> {
    this.loads += 1;
    return { height: '300 meters', age: '135 years' };
  }
  testCaseMapper({ testCase }: { testCase: Case }): string { return this.preload()[testCase.question] ?? ''; }
  outputMapper({ output }: { output: string }): string { return output; }
}`,
    // Called by its own mapper, once per case, and never by the run.
    state: { loads: 2 },
  },
  {
    member: 'inContext',
    source: `extends BaseAssertions<Case, string> {
  id = 'inContext';
  inContext(answer: string, passage: string): boolean { return passage.includes(answer); }
  evaluateAssertions({ testCase, output }: { testCase: Case; output: string }): Assertion[] {
    return [{ criterion: 'grounded', passed: this.inContext(output, testCase.passage), required: true }];
  }
}`,
  },
  {
    member: 'preparedOnce',
    source: `extends BaseIsValidJSON<Case, string> {
  id = 'preparedOnce';
  preparedOnce = false;
  outputMapper({ output }: { output: string }): string {
    this.preparedOnce = true;
    return output === '300 meters' ? '{"meters": 300}' : 'old';
  }
}`,
    state: { preparedOnce: true },
  },
  {
    member: 'fixedOptions',
    source: `extends BaseIsEquals<Case, string> {
  id = 'fixedOptions';
  fixedOptions = { caseSensitive: false };
  #fold(text: string): string { return this.fixedOptions.caseSensitive ? text : text.toLowerCase(); }
  testCaseMapper({ testCase }: { testCase: Case }): string { return this.#fold(testCase.passage); }
  outputMapper({ output }: { output: string }): string { return this.#fold(output.toUpperCase()); }
}`,
  },
  {
    member: 'judgeModel',
    source: `extends BaseLLMJudge<Case, string> {
  id = 'judgeModel';
  judgeModel = 'small-judge';
  model = this.judgeModel;
  scoreChoices = [{ name: 'yes', value: 1 }, { name: 'no', value: 0 }];
  makePrompt({ testCase, output }: { testCase: Case; output: string }): string {
    return \`Does "\${output}" match "\${testCase.passage}"?\`;
  }
}`,
    model: 'small-judge',
  },
  {
    member: 'scoreValues',
    source: `extends BaseLLMJudge<Case, string> {
  id = 'scoreValues';
  scoreValues: Record<string, number> = { yes: 1, no: 0 };
  scoreChoices = Object.entries(this.scoreValues).map(([name, value]) => ({ name, value }));
  makePrompt({ testCase, output }: { testCase: Case; output: string }): string {
    return \`Does "\${output}" match "\${testCase.passage}"?\`;
  }
}`,
    model: 'gpt-4o',
  },
  {
    member: 'mappedText',
    source: `extends BaseIsEquals<Case, string> {
  id = 'mappedText';
  mappedText(text: string): string { return text.trim().toLowerCase(); }
  testCaseMapper({ testCase }: { testCase: Case }): string { return this.mappedText(testCase.passage); }
  outputMapper({ output }: { output: string }): string { return this.mappedText(\` \${output} \`); }
}`,
  },
  {
    member: 'mappedTexts',
    source: `extends BaseHasAllSubstrings<Case, string> {
  id = 'mappedTexts';
  mappedTexts(text: string): string[] { return text.split(' '); }
  testCaseMapper({ testCase }: { testCase: Case }): string[] { return this.mappedTexts(testCase.passage); }
  outputMapper({ output }: { output: string }): string { return output; }
}`,
  },
  {
    member: 'mappedArray',
    source: `extends BaseAssertions<Case, string> {
  id = 'mappedArray';
  mappedArray(passage: string, output: string): Assertion[] {
    return passage.split(' ').map((word) => ({ criterion: word, passed: output.includes(word), required: true }));
  }
  evaluateAssertions({ testCase, output }: { testCase: Case; output: string }): Assertion[] {
    return this.mappedArray(testCase.passage, output);
  }
}`,
  },
];

/** The TypeScript of the scratch suite: every row's class, and how the test runs one. */
function suiteSource(): string {
  return `import {
  BaseAssertions, BaseHasAllSubstrings, BaseIsEquals, BaseIsValidJSON, BaseLLMJudge,
  runTestSuite, type Assertion, type TestEvaluator,
} from 'evalgate/testing';
import { createJudgeClient } from 'evalgate';

export interface Case { question: string; passage: string }

${ROWS.map((row) => `export class Row_${row.member} ${row.source}`).join('\n\n')}

/** The two cases' scores and errors, and the evaluator for a look at its own state. */
export async function runRow(evaluator: TestEvaluator<Case, string>, baseUrl: string) {
  const result = await runTestSuite<Case, string>({
    id: 'natural-names',
    testCases: [
      { question: 'height', passage: '300 meters' },
      { question: 'age', passage: '135 years' },
    ],
    testCaseHash: ['question'],
    fn: ({ testCase }) => (testCase.question === 'height' ? '300 meters' : 'old'),
    evaluators: [evaluator],
    judge: { client: createJudgeClient({ baseUrl, apiKey: 'sk-test', cacheDir: null, env: {} }) },
    quiet: true,
    setExitCode: false,
  });
  return (result.runs[0]?.cases ?? []).map((c) => [c.evaluations[0]?.score, c.evaluations[0]?.error]);
}
`;
}

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

describe('an out-of-box class with a member of its own of a natural name', () => {
  let project = '';
  let suite: Record<string, unknown> = {};

  before(async () => {
    project = shippedConsumer();
    writeFileSync(join(project, 'suite.ts'), suiteSource());
    suite = (await import(pathToFileURL(join(project, 'suite.ts')).href)) as Record<
      string,
      unknown
    >;
  });

  it('type-checks against the shipped declarations', { timeout: 120_000 }, () => {
    // Throws with the compiler's messages when a row's class does not type-check.
    typeCheckShipped(project, ['suite.ts']);
  });

  for (const row of ROWS) {
    const name = row.member;
    it(`runs and scores with its own ${name}`, async () => {
      // The judge says yes when the answer is the passage.
      server.setResponder((request) => ({
        toolArguments: {
          reason: 'r',
          choice: request.text.includes('300 meters\\" match') ? 'yes' : 'no',
        },
      }));
      const Row = suite[`Row_${name}`] as new () => Record<string, unknown>;
      const evaluator = new Row();
      const runRow = suite.runRow as (e: unknown, url: string) => Promise<unknown[]>;
      assert.deepEqual(await runRow(evaluator, server.url), [
        [1, null],
        [0, null],
      ]);
      const models = server.requests.map((r) => (r.body as { model?: unknown }).model);
      assert.deepEqual(models, row.model !== undefined ? [row.model, row.model] : []);
      for (const [key, value] of Object.entries(row.state ?? {})) {
        assert.deepEqual(evaluator[key], value, key);
      }
    });
  }
});
