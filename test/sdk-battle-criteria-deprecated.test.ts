/**
 * A battle's `criteria` was optional in evalgate (the built-in's default criteria applied) and is
 * abstract now, as in the Autoblocks SDK, so a TypeScript class that left it out no longer type
 * checks. Its run is not broken with it: a battle without criteria (JavaScript, or a run that does
 * not type-check) still judges by the default, and now says so, as a deprecation, under
 * `runTestSuite` and in evals.yaml, where it ran silently before.
 */
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_CRITERIA } from '../src/evaluators/judges/battle.ts';
import { repoRoot } from './helpers/cli.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';
import { sdkScript } from './helpers/sdk-script.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

const TESTING = JSON.stringify(pathToFileURL(join(repoRoot, 'src', 'testing.ts')).href);

const WARNING = `sets no criteria, so it judges by evalgate's default ("${DEFAULT_CRITERIA}"); the Autoblocks SDK requires criteria, and evalgate's types now do too: set it (criteria = '...' or get criteria()), as a later release will refuse a battle without it`;

/** A manual battle in JavaScript, with `member` in its body (`criteria = '...'`, or nothing). */
function battleClass(member: string): string {
  return [
    'class Vs extends BaseManualBattle {',
    "  id = 'vs';",
    `  ${member}`,
    '  outputMapper({ output }) { return output; }',
    '  baselineMapper({ testCase }) { return testCase.q; }',
    '}',
  ].join('\n');
}

function script(member: string): ReturnType<typeof sdkScript> {
  return sdkScript(
    [
      `import { BaseManualBattle } from ${TESTING};`,
      battleClass(member),
      'await runTestSuite({',
      "  id: 's',",
      "  testCases: [{ q: 'a' }],",
      "  testCaseHash: ['q'],",
      "  fn: () => 'b',",
      '  evaluators: [new Vs()],',
      '});',
      '',
    ].join('\n'),
  );
}

const env = (): Record<string, string> => ({
  OPENAI_BASE_URL: server.url,
  OPENAI_API_KEY: 'sk-test',
});

/** The texts of every judge request the server got. */
function prompts(): string {
  return server.requests
    .map((r) => JSON.stringify((r.body as { messages: unknown }).messages))
    .join('\n');
}

describe('a battle class without criteria', () => {
  it('runTestSuite: still judges by the default criteria, with a deprecation warning', async () => {
    server.setResponder(() => ({ toolArguments: { reason: 'same', choice: 'tie' } }));
    const r = await script('').run({ env: env() });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(
      r.stderr.includes(`warning: runTestSuite(s): evaluators[0] (Vs) ${WARNING}\n`),
      r.stderr,
    );
    assert.ok(server.requests.length > 0, 'the battle was judged');
    assert.ok(prompts().includes(DEFAULT_CRITERIA.slice(0, 40)), prompts());
  });

  it('runTestSuite: no warning when the class sets criteria', async () => {
    server.setResponder(() => ({ toolArguments: { reason: 'same', choice: 'tie' } }));
    const r = await script("criteria = 'Shorter is better.';").run({ env: env() });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr.includes('sets no criteria'), false, r.stderr);
  });

  it('evals.yaml: the class named by use: warns at its use: line, and runs', async () => {
    server.setResponder(() => ({ toolArguments: { reason: 'same', choice: 'tie' } }));
    const dir = jsonlProject(
      [{ q: 'a' }],
      [
        'function: ./answer.mjs#answer',
        'evaluators:',
        '  - { id: vs, use: ./battle.mjs#Vs, judge: { model: m } }',
      ],
      {
        'battle.mjs': `import { BaseManualBattle } from ${TESTING};\nexport ${battleClass('')}\n`,
        'answer.mjs': "export const answer = () => 'b';\n",
      },
    );
    const r = await runInProcess(['run', '--no-cache'], dir, env());
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stderr, /^warning: evals\.yaml:\d+:\d+ {2}suites\[0\]\.evaluators\[0\]\.use: /m);
    assert.ok(r.stderr.includes(`./battle.mjs#Vs ${WARNING}`), r.stderr);
  });
});
