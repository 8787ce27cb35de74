/**
 * The SDK findings of QA round 5 that named the wrong problem (D13: a cyclic test case, an
 * async `testCaseHash`; D6: grid values that read alike) and the JavaScript getter a base
 * class field hid (D9).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import { BaseTestEvaluator } from '../src/evaluators/base.ts';
import type { Evaluation } from '../src/types/index.ts';

interface Node {
  name: string;
  parent?: Node;
  children: Node[];
}

const quiet = { quiet: true, setExitCode: false } as const;

/** Runs suite `g`, one case whose function answers "x", over the grid `gridSearchParams`. */
function runGrid(gridSearchParams: Record<string, readonly unknown[]>) {
  return runTestSuite({
    id: 'g',
    testCases: [{ q: 'a' }],
    testCaseHash: ['q'],
    fn: () => 'x',
    gridSearchParams,
    ...quiet,
  });
}

describe('D13: a cyclic test case', () => {
  it('is refused as holding a cycle, saying where', async () => {
    const root: Node = { name: 'root', children: [] };
    const leaf: Node = { name: 'leaf', parent: root, children: [] };
    root.children.push(leaf);
    await assert.rejects(
      runTestSuite<Node, string>({
        id: 'tree',
        testCases: [{ name: 'solo', children: [] }, root],
        testCaseHash: ['name'],
        fn: ({ testCase }) => testCase.name,
        ...quiet,
      }),
      (error: Error) => {
        assert.match(
          error.message,
          /tree:2:1 {2}the row holds a cycle: \$\.children\[0\]\.parent is \$ again/,
        );
        assert.doesNotMatch(error.message, /levels deep/);
        return true;
      },
    );
  });

  it('deep data without a cycle is still refused as too deep', async () => {
    let deep: Record<string, unknown> = { end: true };
    for (let i = 0; i < 600; i++) deep = { next: deep };
    await assert.rejects(
      runTestSuite({
        id: 'deep',
        testCases: [{ q: 'a', deep }],
        testCaseHash: ['q'],
        fn: () => 'x',
        ...quiet,
      }),
      /nests arrays and objects more than 500 levels deep/,
    );
  });
});

describe('D13: an async testCaseHash', () => {
  it('is refused as returning a Promise, once for every case', async () => {
    const hash = async (testCase: { q: string }): Promise<string> => Promise.resolve(testCase.q);
    await assert.rejects(
      runTestSuite({
        id: 's',
        testCases: [{ q: 'a' }, { q: 'b' }, { q: 'c' }],
        testCaseHash: hash as unknown as (testCase: { q: string }) => string,
        fn: () => 'x',
        ...quiet,
      }),
      (error: Error) => {
        assert.equal(
          error.message,
          "runTestSuite(s): testCaseHash returned a Promise for test case 1 (and 2 more test cases): the hash must be synchronous, returning the case's identity as a string (an async function cannot be one)",
        );
        return true;
      },
    );
  });
});

describe('D6: grid values that read the same', () => {
  it('functions: says they read as [function] and why that matters', async () => {
    await assert.rejects(
      runGrid({ prompt: [(q: string) => q, (q: string) => `${q}!`] }),
      (error: Error) => {
        assert.match(
          error.message,
          /gridSearchParams\.prompt must be values that each read differently \(\[function\] twice\), got an array .*: a run is named by how its values read \(prompt=\[function\]\), so two runs would share a name: give each function its own name/,
        );
        assert.doesNotMatch(error.message, /undefined twice/);
        return true;
      },
    );
  });

  it('named functions and Maps of other content are told apart', async () => {
    function short(q: string): string {
      return q;
    }
    function long(q: string): string {
      return `${q} ${q}`;
    }
    const { runs } = await runTestSuite({
      id: 'g',
      testCases: [{ q: 'a' }],
      testCaseHash: ['q'],
      fn: ({ testCase, params }) => (params.prompt as (q: string) => string)(testCase.q),
      gridSearchParams: {
        prompt: [short, long],
        options: [new Map([['t', 0]]), new Map([['t', 1]])],
      },
      ...quiet,
    });
    assert.equal(runs.length, 4);
  });

  it('Maps of the same content: says they read as the same JSON', async () => {
    await assert.rejects(
      runGrid({ options: [new Map([['t', 0]]), new Map([['t', 0]])] }),
      /gridSearchParams\.options must be values that each read differently \(\{"t":0\} twice\), .*an object of a class reads as its JSON/,
    );
  });
});

describe('D9: maxConcurrency as a getter (JavaScript)', () => {
  it('is not hidden by a field of the base class, and is applied', async () => {
    let inFlight = 0;
    let peak = 0;
    class Limited extends BaseTestEvaluator<{ q: number }, string> {
      id = 'limited';
      async evaluateTestCase(): Promise<Evaluation> {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
        return { score: 1 };
      }
    }
    // What a JavaScript subclass's `get maxConcurrency() { return 2; }` makes (TypeScript
    // refuses an accessor over the declared property, TS2611).
    Object.defineProperty(Limited.prototype, 'maxConcurrency', { get: () => 2 });
    const evaluator = new Limited();
    assert.equal(Object.hasOwn(evaluator, 'maxConcurrency'), false);
    assert.equal(evaluator.maxConcurrency, 2);
    await runTestSuite({
      id: 's',
      testCases: Array.from({ length: 10 }, (_, q) => ({ q })),
      testCaseHash: ['q'],
      fn: () => 'x',
      evaluators: [evaluator],
      maxTestCaseConcurrency: 10,
      ...quiet,
    });
    assert.equal(peak, 2);
  });
});
