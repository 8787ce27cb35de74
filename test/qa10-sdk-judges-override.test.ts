/**
 * QA round 10, H8: `evals override` on an artifact written by `runTestSuite`, in the folder the
 * suite runs in (which has no evals.yaml), records the override in evals-overrides.jsonl there,
 * where `BaseLLMJudge` with `numOverrides` reads it on the next run. An artifact of an evals.yaml
 * run is still refused there, as before. Judges answer from the loopback OpenAI-compatible server.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createJudgeClient } from '../src/judge/client.ts';
import {
  BaseLLMJudge,
  runTestSuite,
  type EvaluationOverride,
  type ScoreChoice,
} from 'evalgate/testing';
import { scratch } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

interface Case {
  input: string;
}

/** What `makePrompt` was handed, per call, by the last run. */
let handed: EvaluationOverride[][] = [];

class IsFriendly extends BaseLLMJudge<Case, string> {
  id = 'is-friendly';
  scoreChoices: ScoreChoice[] = [
    { name: 'Friendly', value: 1 },
    { name: 'Not friendly', value: 0 },
  ];
  constructor(override numOverrides: number) {
    super();
  }
  makePrompt({
    output,
    recentOverrides,
  }: {
    output: string;
    recentOverrides: EvaluationOverride[];
  }): string {
    handed.push(recentOverrides);
    return `Is it friendly? ${output}`;
  }
}

/** Runs the suite with the working directory `dir`, as `npx tsx run.ts` there would. */
async function runSuite(dir: string, numOverrides: number): Promise<void> {
  handed = [];
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    await runTestSuite<Case, string>({
      id: 'tone',
      testCases: [{ input: 'Oh, great, another question.' }],
      testCaseHash: ['input'],
      fn: ({ testCase }) => testCase.input,
      evaluators: [new IsFriendly(numOverrides)],
      judge: {
        client: createJudgeClient({ baseUrl: server.url, apiKey: 'sk', cacheDir: null, env: {} }),
      },
      output: 'results.json',
      quiet: true,
      setExitCode: false,
    });
  } finally {
    process.chdir(cwd);
  }
}

function caseIdOf(dir: string, file = 'results.json'): string {
  const artifact = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
    runs: { cases: { id: string }[] }[];
  };
  const id = artifact.runs[0]?.cases[0]?.id;
  assert.ok(id !== undefined);
  return id;
}

const flags = (id: string): string[] => [
  '--case',
  id.slice(0, 12),
  '--evaluator',
  'is-friendly',
  '--score',
  '0',
  '--reason',
  'sarcastic',
];

describe('evals override on a runTestSuite artifact (QA10 H8)', () => {
  it('writes the store in the current folder, where runTestSuite reads it, with no config', async () => {
    server.setResponder(() => ({ toolArguments: { reason: 'warm', choice: 'Friendly' } }));
    const dir = scratch();
    await runSuite(dir, 0);
    const id = caseIdOf(dir);

    const r = await runInProcess(['override', 'results.json', ...flags(id)], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^recorded in evals-overrides\.jsonl, where runTestSuite run in this folder reads it: is-friendly on case /,
    );
    const line = JSON.parse(readFileSync(join(dir, 'evals-overrides.jsonl'), 'utf8')) as {
      suite: string;
      caseId: string;
    };
    assert.equal(line.suite, 'tone');
    assert.equal(line.caseId, id);

    await runSuite(dir, 1);
    assert.equal(handed.length, 1);
    assert.equal(handed[0]?.length, 1, 'the next run hands the override to makePrompt');
    assert.deepEqual(handed[0]?.[0]?.overrideScore, { name: 'Not friendly', value: 0 });
    assert.deepEqual(handed[0]?.[0]?.comments, [
      { fieldId: 'output', quotedText: '', commentText: 'sarcastic' },
    ]);
  });

  it('still refuses, in that folder, the artifact of an evals.yaml run, writing nothing', async () => {
    server.setResponder(() => ({ toolArguments: { reason: 'warm', choice: 'Friendly' } }));
    const dir = scratch();
    await runSuite(dir, 0);
    const id = caseIdOf(dir);
    // The same results, as an `evals run` of evals.yaml would have recorded them.
    const artifact = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
      config: string;
    };
    assert.match(artifact.config, /^runTestSuite:/);
    writeFileSync(join(dir, 'yaml.json'), JSON.stringify({ ...artifact, config: 'evals.yaml' }));

    const refused = await runInProcess(['override', 'yaml.json', ...flags(id)], dir);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /^error: no config given and no evals\.yaml or evals\.yml in /);
    assert.equal(existsSync(join(dir, 'evals-overrides.jsonl')), false);

    // The runTestSuite artifact beside it is recorded there.
    const recorded = await runInProcess(['override', 'results.json', ...flags(id)], dir);
    assert.equal(recorded.code, 0, recorded.stderr);
    assert.equal(existsSync(join(dir, 'evals-overrides.jsonl')), true);
  });

  it('says where the store goes for a runTestSuite artifact in its help', async () => {
    const r = await runInProcess(['override', '--help'], scratch());
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout.replace(/\s+/g, ' '), /For an artifact written by runTestSuite/);
  });
});
