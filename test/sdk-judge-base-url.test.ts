/**
 * A judge base URL that fetch cannot use (not http(s), a port past 65535 or one fetch blocks,
 * credentials in its user part, text that is no URL) is refused by evals.yaml at load. Given to
 * `runTestSuite` (a `createJudgeClient({ baseUrl })` as `judge.client` or through an instance's
 * `useContext`, or `OPENAI_BASE_URL` for the default client), it only failed at the first judge
 * call, as every case's error. It is a UsageError before any case runs, in the config's words.
 * `OPENAI_BASE_URL` that is not an http(s) URL passed `evals validate` too.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import { createJudgeClient } from '../src/judge/client.ts';
import type { JudgeClient } from '../src/judge/types.ts';
import { BaseIsEquals, BaseLLMJudge, type ScoreChoice } from '../src/testing.ts';
import { UsageError } from '../src/shared/errors.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

interface Case {
  q: string;
}

class Judge extends BaseLLMJudge<Case, string> {
  id = 'judge';
  scoreChoices: ScoreChoice[] = [
    { name: 'Yes', value: 1 },
    { name: 'No', value: 0 },
  ];
  makePrompt(): string {
    return 'Is it good?';
  }
}

class Same extends BaseIsEquals<Case, string> {
  id = 'same';
  testCaseMapper({ testCase }: { testCase: Case }): string {
    return testCase.q;
  }
  outputMapper({ output }: { output: string }): string {
    return output;
  }
}

const BLOCKED = (port: number): string =>
  `port ${port} is blocked by fetch: it is on the Fetch standard's list of bad ports (ports of other services, such as 22 for ssh or 6000 for X11), which fetch refuses to connect to whatever listens there; serve the endpoint on another port (such as 8080)`;

/** What `runTestSuite` does with `extra`: its error, and how many times `fn` ran. */
async function outcome(
  extra: Record<string, unknown>,
  evaluators: unknown[] = [new Judge()],
): Promise<{ error: unknown; calls: number }> {
  let calls = 0;
  const error: unknown = await runTestSuite({
    id: 's',
    testCases: [{ q: 'a' }],
    testCaseHash: ['q'],
    fn: ({ testCase }: { testCase: Case }) => {
      calls++;
      return testCase.q;
    },
    evaluators: evaluators as Judge[],
    quiet: true,
    setExitCode: false,
    ...extra,
  }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  return { error, calls };
}

/** The message of the UsageError `extra` gets, asserted to come before any case. */
async function refusal(extra: Record<string, unknown>, evaluators?: unknown[]): Promise<string> {
  const { error, calls } = await outcome(extra, evaluators);
  assert.ok(error instanceof UsageError, `a UsageError, not ${String(error)}`);
  assert.equal(calls, 0, 'no case ran');
  return error.message;
}

const client = (baseUrl: string): JudgeClient => createJudgeClient({ baseUrl, apiKey: 'k' });

let savedBaseUrl: string | undefined;
beforeEach(() => {
  savedBaseUrl = process.env.OPENAI_BASE_URL;
});
afterEach(() => {
  if (savedBaseUrl === undefined) delete process.env.OPENAI_BASE_URL;
  else process.env.OPENAI_BASE_URL = savedBaseUrl;
});

describe('runTestSuite refuses a judge client whose baseUrl fetch cannot use', () => {
  const rows: { name: string; url: string; problem: string }[] = [
    { name: 'a port fetch blocks', url: 'http://127.0.0.1:6000/v1', problem: BLOCKED(6000) },
    {
      name: 'a port out of range',
      url: 'http://127.0.0.1:99999/v1',
      problem: 'port 99999 is out of range: expected a port from 0 to 65535',
    },
    {
      name: 'a scheme other than http(s)',
      url: 'ftp://judge.example.com/v1',
      problem: 'expected an http:// or https:// URL, found "ftp://judge.example.com/v1"',
    },
    {
      name: 'credentials in its user part',
      url: 'http://admin:pw@judge.example.com/v1',
      problem:
        '"http://admin:***@judge.example.com/v1" has credentials in its user part, which fetch cannot send (it refuses such a URL): remove them from the URL and send them with apiKey: (or headers: { authorization: "Basic …" })',
    },
    {
      name: 'text that is no URL',
      url: 'http://judge example.com/v1',
      problem:
        'expected an http:// or https:// URL, found "http://judge example.com/v1", which is not a valid URL',
    },
  ];
  for (const { name, url, problem } of rows) {
    it(`${name}, given as judge.client`, async () => {
      assert.equal(
        await refusal({ judge: { client: client(url) } }),
        `runTestSuite(s): evaluators[0] (Judge): its judge client's baseUrl: ${problem}`,
      );
    });
  }

  it('given to the instance through useContext', async () => {
    const judge = new Judge();
    judge.useContext({
      judge: {
        client: client('http://127.0.0.1:6665/v1'),
        model: 'm',
        embeddingModel: undefined,
        temperature: 0,
        prices: undefined,
      },
    });
    assert.equal(
      await refusal({}, [judge]),
      `runTestSuite(s): evaluators[0] (Judge): its judge client's baseUrl: ${BLOCKED(6665)}`,
    );
  });

  it('from OPENAI_BASE_URL, for the default client', async () => {
    process.env.OPENAI_BASE_URL = 'http://127.0.0.1:6667/v1';
    assert.equal(
      await refusal({}),
      `runTestSuite(s): evaluators[0] (Judge): its judge client has no baseUrl, so it calls the URL in OPENAI_BASE_URL, whose ${BLOCKED(6667)}`,
    );
    process.env.OPENAI_BASE_URL = 'localhost:11434/v1';
    assert.equal(
      await refusal({}),
      `runTestSuite(s): evaluators[0] (Judge): its judge client has no baseUrl, so it calls the URL in OPENAI_BASE_URL, "localhost:11434/v1", which is not an http:// or https:// URL`,
    );
  });

  it('but not a URL fetch takes, blanks around it included', async () => {
    // Stopped before its first case: only whether the URL is refused is asked.
    const stopped = { signal: AbortSignal.abort() };
    const { error } = await outcome({
      ...stopped,
      judge: { client: client(' http://127.0.0.1:8080/v1?api-version=1 \n') },
    });
    assert.ok(!(error instanceof UsageError), String(error));
    process.env.OPENAI_BASE_URL = ' HTTPS://[::1]:8443/v1\n';
    const fromEnv = await outcome(stopped);
    assert.ok(!(fromEnv.error instanceof UsageError), String(fromEnv.error));
  });

  it('but not OPENAI_BASE_URL for a suite whose classes call no model', async () => {
    process.env.OPENAI_BASE_URL = 'http://127.0.0.1:6667/v1';
    const { error, calls } = await outcome({}, [new Same()]);
    assert.equal(error, undefined);
    assert.equal(calls, 1);
  });

  it('but not a client of your own, whose calls need not go to its baseUrl', async () => {
    const own: JudgeClient = {
      baseUrl: 'in-process',
      chat: () => Promise.reject(new Error('unused')),
      embed: () => Promise.reject(new Error('unused')),
    };
    const { error, calls } = await outcome({ judge: { client: own } }, [new Same()]);
    assert.equal(error, undefined);
    assert.equal(calls, 1);
  });
});

describe('OPENAI_BASE_URL that is not an http(s) URL', () => {
  it('is refused by evals validate at the judge that takes it', async () => {
    const dir = jsonlProject(
      [{ q: 'x', output: 'y' }],
      [
        'evaluators:',
        '  - use: llm-judge',
        '    judge: { model: j }',
        '    with: { prompt: "ok? {{output}}", choices: { "yes": 1, "no": 0 } }',
      ],
    );
    const result = await runInProcess(['validate'], dir, {
      OPENAI_BASE_URL: 'ftp://judge.example.com/v1',
    });
    assert.equal(result.code, 2, result.stdout + result.stderr);
    assert.match(
      result.stderr,
      /suites\[0\]\.evaluators\[0\]\.use: this judge has no baseUrl:, so it calls the URL in OPENAI_BASE_URL, "ftp:\/\/judge\.example\.com\/v1", which is not an http:\/\/ or https:\/\/ URL\n/,
    );
  });
});
