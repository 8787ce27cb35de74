/**
 * Human overrides: the local store (evals-overrides.jsonl), `evals override` writing it from a
 * results artifact, and judges reading it back — `llm-judge` with `overrides: N` and the SDK's
 * `BaseLLMJudge` with `numOverrides` — end to end against the loopback OpenAI-compatible server.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import {
  OverridesFileError,
  overrideExamples,
  parseOverrides,
  recentOverrides,
  serializeOverride,
  type StoredOverride,
} from '../src/evaluators/judges/overrides.ts';
import { repoRoot, runCli, scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

function stored(caseId: string, value: number, evaluator = 'friendly'): StoredOverride {
  return {
    evaluator,
    suite: 's',
    caseId,
    createdAt: '2024-05-01T00:00:00.000Z',
    originalScore: { value: 1, name: 'Friendly' },
    overrideScore: { value },
    inputFields: { input: caseId },
    outputFields: { output: `output of ${caseId}` },
  };
}

describe('the overrides store', () => {
  it('reads lines back as written, and picks the newest per case, newest first', () => {
    const text = [stored('a', 0), stored('b', 0), stored('x', 1, 'other'), stored('a', 0.5)]
      .map(serializeOverride)
      .join('');
    const all = parseOverrides(`${text}\n`, 'evals-overrides.jsonl');
    assert.equal(all.length, 4);
    const recent = recentOverrides(all, 'friendly', 5);
    assert.deepEqual(
      recent.map((o) => [o.inputFields.input, o.overrideScore.value]),
      [
        ['a', 0.5],
        ['b', 0],
      ],
    );
    assert.equal(recentOverrides(all, 'friendly', 1).length, 1);
    assert.equal('evaluator' in (recent[0] ?? {}), false, "the SDK's shape only");
  });

  it('refuses a malformed line naming file and line', () => {
    const good = serializeOverride(stored('a', 0));
    assert.throws(
      () => parseOverrides(`${good}{not json\n`, 'evals-overrides.jsonl'),
      (error) =>
        error instanceof OverridesFileError &&
        error.message ===
          'evals-overrides.jsonl:2:1: expected a JSON object, found text that is not JSON',
    );
    const noScore = JSON.stringify({ ...stored('a', 0), overrideScore: { value: 'low' } });
    assert.throws(
      () => parseOverrides(`\n${noScore}\n`, 'o.jsonl'),
      /^OverridesFileError: o\.jsonl:2:1: "overrideScore\.value" must be a number, found "low"/,
    );
  });

  it('formats examples with the choice names of the judge', () => {
    const text = overrideExamples([stored('a', 0)], { Friendly: 1, 'Not friendly': 0 });
    assert.match(text, /Judged: Friendly \(1\); a human corrected it to: Not friendly \(0\)/);
    assert.equal(overrideExamples([]), '');
  });
});

const TESTING = pathToFileURL(join(repoRoot, 'src', 'testing.ts')).href;

function project(evaluators: string[]): string {
  const dir = scratch();
  writeFiles(dir, {
    // makePrompt shows what it was handed, so the request tells what the class received.
    'judge.ts': [
      `import { BaseLLMJudge, type EvaluationOverride } from ${JSON.stringify(TESTING)};`,
      'export class IsFriendly extends BaseLLMJudge<{ input: string }, string> {',
      "  id = 'is-friendly';",
      '  override numOverrides = 3;',
      "  scoreChoices = [{ name: 'Friendly', value: 1 }, { name: 'Not friendly', value: 0 }];",
      '  makePrompt(a: { output: string; recentOverrides: EvaluationOverride[] }): string {',
      '    return `Friendly? ${a.output}\\nOVERRIDES ${JSON.stringify(a.recentOverrides)}`;',
      '  }',
      '}',
      '',
    ].join('\n'),
    'evals.yaml': [
      'version: 1',
      'defaults:',
      `  judge: { baseUrl: ${server.url}, apiKey: sk-test, model: judge-model }`,
      'suites:',
      '  - id: s',
      '    testset:',
      '      cases:',
      '        - { input: hi, output: "Oh, great, another question." }',
      '        - { input: bye, output: "Goodbye, take care!" }',
      '    evaluators:',
      ...evaluators.map((line) => `      ${line}`),
      '',
    ].join('\n'),
  });
  return dir;
}

const LLM_JUDGE = [
  '- id: friendly',
  '  use: llm-judge',
  '  with:',
  '    prompt: "Is this friendly? {{output}}"',
  '    choices: { Friendly: 1, Not friendly: 0 }',
  '    overrides: 2',
];

interface Artifact {
  runs: { cases: { id: string; data: { input: string } }[] }[];
}

function caseId(dir: string, input: string): string {
  const artifact = JSON.parse(readFileSync(join(dir, 'evals-results.json'), 'utf8')) as Artifact;
  const found = artifact.runs[0]?.cases.find((c) => c.data.input === input);
  assert.ok(found, input);
  return found.id;
}

function prompts(): string[] {
  return server.requests.map((r) => JSON.stringify((r.body as { messages: unknown }).messages));
}

describe('evals override and the judges that read it', () => {
  it('records an override from the artifact; llm-judge appends it to its prompt next run', async () => {
    server.setResponder(() => ({ toolArguments: { reason: 'polite', choice: 'Friendly' } }));
    const dir = project(LLM_JUDGE);
    const first = await runInProcess(['run', '--no-cache'], dir);
    assert.equal(first.code, 0, first.stderr + first.stdout);
    assert.ok(
      prompts().every((p) => !p.includes('corrected')),
      'no examples yet',
    );

    const id = caseId(dir, 'hi');
    const r = await runInProcess(
      [
        'override',
        'evals-results.json',
        '--case',
        id.slice(0, 10),
        '--evaluator',
        'friendly',
        '--score',
        '0',
        '--reason',
        'sarcastic',
      ],
      dir,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /recorded in evals-overrides\.jsonl: friendly on case .* scored 1, a human says 0/,
    );
    const lines = readFileSync(join(dir, 'evals-overrides.jsonl'), 'utf8').trim().split('\n');
    assert.equal(lines.length, 1);
    const line = JSON.parse(lines[0] ?? '') as StoredOverride;
    assert.equal(line.caseId, id);
    assert.deepEqual(line.originalScore, { value: 1, name: 'Friendly' });
    assert.deepEqual(line.overrideScore, { value: 0 });
    assert.deepEqual(line.inputFields, { input: 'hi', output: 'Oh, great, another question.' });
    assert.deepEqual(line.outputFields, { output: 'Oh, great, another question.' });
    assert.equal(line.comments, 'sarcastic');

    server.reset();
    server.setResponder(() => ({ toolArguments: { reason: 'polite', choice: 'Friendly' } }));
    const second = await runInProcess(['run', '--no-cache'], dir);
    assert.equal(second.code, 0, second.stderr + second.stdout);
    assert.equal(server.requests.length, 2);
    for (const prompt of prompts()) {
      assert.match(prompt, /Earlier verdicts that a human corrected/);
      assert.match(prompt, /Judged: Friendly \(1\); a human corrected it to: Not friendly \(0\)/);
      assert.match(prompt, /Why: sarcastic/);
    }
  });

  it("hands BaseLLMJudge's makePrompt the recent overrides of its evaluator id", async () => {
    server.setResponder(() => ({ toolArguments: { reason: 'ok', choice: 'Friendly' } }));
    const dir = project(['- use: ./judge.ts#IsFriendly']);
    assert.equal((await runInProcess(['run', '--no-cache'], dir)).code, 0);
    const recorded = await runInProcess(
      [
        'override',
        'evals-results.json',
        '--case',
        caseId(dir, 'bye'),
        '--evaluator',
        'IsFriendly',
        '--score',
        '0',
        '--reason',
        'curt',
      ],
      dir,
    );
    assert.equal(recorded.code, 0, recorded.stderr);
    server.reset();
    server.setResponder(() => ({ toolArguments: { reason: 'ok', choice: 'Friendly' } }));
    assert.equal((await runInProcess(['run', '--no-cache'], dir)).code, 0);
    const handed = prompts().map((p) => /OVERRIDES (\[.*?\])(?:\\n|")/.exec(p)?.[1]);
    assert.equal(handed.length, 2);
    for (const text of handed) {
      // The SDK's shape: scores are the judge's choices, fields and comments lists.
      const list = JSON.parse(JSON.parse(`"${text}"`) as string) as unknown[];
      assert.deepEqual(list, [
        {
          originalScore: { name: 'Friendly', value: 1 },
          overrideScore: { name: 'Not friendly', value: 0 },
          inputFields: [
            { id: 'input', name: 'input', value: 'bye' },
            { id: 'output', name: 'output', value: 'Goodbye, take care!' },
          ],
          outputFields: [{ id: 'output', name: 'output', value: 'Goodbye, take care!' }],
          comments: [{ fieldId: 'output', quotedText: '', commentText: 'curt' }],
        },
      ]);
    }
  });

  it('refuses a malformed store with file:line, in run and in override, writing nothing', async () => {
    const dir = project(LLM_JUDGE);
    const good = serializeOverride(stored('a', 0));
    writeFiles(dir, { 'evals-overrides.jsonl': `${good}{"evaluator": "friendly"}\n` });
    const run = await runInProcess(['run', '--no-cache'], dir);
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      /^error: evals-overrides\.jsonl:2:1 +"suite" must be a non-empty string, found nothing \(read for suites\[0\]\.evaluators\[0\]\.use\)$/m,
    );
    assert.doesNotMatch(run.stderr, /\n\s+at /);
    assert.equal(server.requests.length, 0);

    // The store is checked first: no artifact is needed to be refused.
    const r = await runInProcess(
      ['override', 'evals-results.json', '--case', 'x', '--evaluator', 'friendly', '--score', '0'],
      dir,
    );
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /^error: evals-overrides\.jsonl:2:1 +"suite" must be a non-empty string/m,
    );
  });

  it('refuses a store that is a FIFO, in run and in override, instead of waiting for a writer', async () => {
    const dir = project(LLM_JUDGE);
    execFileSync('mkfifo', [join(dir, 'evals-overrides.jsonl')]);
    // Child processes: a read that blocks on the FIFO would hold a thread of this process too.
    const override = await runCli(
      ['override', 'evals-results.json', '--case', 'x', '--evaluator', 'friendly', '--score', '0'],
      { cwd: dir, timeoutMs: 8000 },
    );
    assert.equal(override.signal, null, 'override waited on the FIFO until it was killed');
    assert.equal(override.code, 2, override.stderr);
    assert.match(
      override.stderr,
      /^error: evals-overrides\.jsonl:1:1 +it is a FIFO \(named pipe\), not a regular file/m,
    );
    const run = await runCli(['run', '--no-cache'], { cwd: dir, timeoutMs: 8000 });
    assert.equal(run.signal, null, 'run waited on the FIFO until it was killed');
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      /^error: evals-overrides\.jsonl:1:1 +it is a FIFO \(named pipe\), not a regular file/m,
    );
    assert.equal(server.requests.length, 0, 'no case was judged');
  });

  it('refuses a --config that does not exist, creating nothing: no judge would read the labels there', async () => {
    const dir = project(LLM_JUDGE);
    const r = await runInProcess(
      [
        'override',
        'evals-results.json',
        '--case',
        'x',
        '--evaluator',
        'friendly',
        '--score',
        '0',
        '--config',
        'nodir/x.yaml',
      ],
      dir,
    );
    assert.equal(r.code, 2, r.stderr);
    assert.equal(
      r.stderr,
      'error: --config nodir/x.yaml: no such file (the overrides are written next to the config whose judges read them)\n',
    );
    assert.equal(existsSync(join(dir, 'nodir')), false);
  });

  it("refuses a malformed store read by BaseLLMJudge's numOverrides at load, with file:line", async () => {
    const dir = project(['- use: ./judge.ts#IsFriendly']);
    const good = serializeOverride(stored('a', 0, 'IsFriendly'));
    writeFiles(dir, { 'evals-overrides.jsonl': `${good}\n{not json\n` });
    const run = await runInProcess(['run', '--no-cache'], dir);
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      /^error: evals-overrides\.jsonl:3:1 +expected a JSON object, found text that is not JSON \(read for suites\[0\]\.evaluators\[0\]\.use\)$/m,
    );
    assert.ok(!run.stderr.includes(dir), `no absolute path: ${run.stderr}`);
    assert.doesNotMatch(run.stderr, /\n\s+at /);
    assert.equal(server.requests.length, 0, 'no case was judged');
  });

  it('refuses a bad score, an unknown case and an unknown evaluator', async () => {
    server.setResponder(() => ({ toolArguments: { reason: 'ok', choice: 'Friendly' } }));
    const dir = project(LLM_JUDGE);
    assert.equal((await runInProcess(['run', '--no-cache'], dir)).code, 0);
    const id = caseId(dir, 'hi');
    const cases: [string[], RegExp][] = [
      [
        ['--case', id, '--evaluator', 'friendly', '--score', '2'],
        /--score: expected a number from 0 to 1, found "2"/,
      ],
      [
        ['--case', id, '--evaluator', 'friendly'],
        /--score: expected a score from 0 to 1, found nothing/,
      ],
      [
        ['--case', 'zzz', '--evaluator', 'friendly', '--score', '0'],
        /--case zzz: no case id starts with it/,
      ],
      [
        ['--case', id, '--evaluator', 'tone', '--score', '0'],
        /--evaluator tone: case .* has no evaluation by it \(evaluators: friendly\)/,
      ],
    ];
    for (const [flags, message] of cases) {
      const r = await runInProcess(['override', 'evals-results.json', ...flags], dir);
      assert.equal(r.code, 2, flags.join(' '));
      assert.match(r.stderr, message);
    }
  });
});
