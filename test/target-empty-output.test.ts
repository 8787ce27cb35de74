/**
 * A command target (`output: text`) whose program printed nothing, and an HTTP target whose
 * answer was empty, were scored as the output "": it passes every check that something is not
 * there (`not: true` on a regex, a maximum length), a false pass. Each is a case error now,
 * saying what came back (the command's exit code and the end of its stderr), unless the target
 * says `allowEmptyOutput: true`; a model target's empty reply agrees (qa8-model-reply). The real
 * CLI, with real programs and a loopback server.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.ts';
import { artifactCases, jsonlProject } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

/** What the loopback server answers, by path: `[content-type, body]`. */
const ANSWERS: Record<string, [string, string]> = {
  '/empty': ['text/plain', ''],
  '/blank': ['text/plain', ' \n'],
  '/json-empty': ['application/json', '{"answer": ""}'],
  '/json-full': ['application/json', '{"answer": "fine"}'],
};

const server = useLoopbackServer((req, res) => {
  req.resume().on('end', () => {
    const [type, body] = ANSWERS[req.url ?? ''] ?? ['text/plain', 'not found'];
    res.writeHead(200, { 'content-type': type }).end(body);
  });
});

/** Runs a suite of one case with `target` (YAML lines); its exit code, output and error. */
async function runOne(
  target: string[],
  files: Record<string, string> = {},
): Promise<{ code: number; output: unknown; error: string | null }> {
  const dir = jsonlProject(
    [{ q: 'x' }],
    [
      ...target,
      'evaluators:',
      // Both pass on "" were it scored: it says no sorry, and is short.
      '  - { use: regex, with: { pattern: sorry }, not: true }',
      '  - { use: length, with: { max: 200 } }',
    ],
    files,
  );
  const r = await runCli(['run', '-o', 'results.json', '--no-cache'], { cwd: dir });
  const c = artifactCases(dir)[0]!.cases[0]!;
  return { code: r.code ?? -1, output: c.output, error: c.error ?? null };
}

const SILENT = {
  'silent.mjs': "process.stderr.write('log: starting\\nlog: no API key, giving up\\n');\n",
  'blank.mjs': "process.stdout.write('  \\n\\n');\n",
};

describe('an empty output is a case error unless the target allows it', () => {
  it('a command that printed nothing: its exit code and the end of its stderr', async () => {
    const run = await runOne(['target: { type: command, run: [node, silent.mjs] }'], SILENT);
    assert.equal(run.code, 1);
    assert.equal(run.output, '');
    assert.equal(
      run.error,
      'stdout is empty (output: text): the command exited with code 0 and printed nothing to score (allowEmptyOutput: true on the target scores it as it is); stderr:\nlog: starting\nlog: no API key, giving up',
    );
  });

  it('a command that printed only white space', async () => {
    const run = await runOne(['target: { type: command, run: [node, blank.mjs] }'], SILENT);
    assert.equal(run.code, 1);
    assert.equal(
      run.error,
      'stdout is empty (output: text): the command exited with code 0 and printed only white space to score (allowEmptyOutput: true on the target scores it as it is)',
    );
  });

  it('allowEmptyOutput: true scores a command that printed nothing as ""', async () => {
    const run = await runOne(
      ['target: { type: command, run: [node, silent.mjs], allowEmptyOutput: true }'],
      SILENT,
    );
    assert.deepEqual(run, { code: 0, output: '', error: null });
  });

  it('an HTTP answer with an empty body, or of only white space', async () => {
    for (const path of ['/empty', '/blank']) {
      const run = await runOne([`target: { type: http, url: "${server.base}${path}" }`]);
      assert.equal(run.code, 1, path);
      assert.equal(
        run.error,
        `GET ${server.base}${path} answered 200 with an empty answer: no output to score (allowEmptyOutput: true on the target scores it as it is)`,
        path,
      );
    }
  });

  it('an HTTP answer whose output: path holds an empty string', async () => {
    const target = (path: string, extra = ''): string[] => [
      `target: { type: http, url: "${server.base}${path}", output: answer${extra} }`,
    ];
    const run = await runOne(target('/json-empty'));
    assert.equal(run.code, 1);
    assert.equal(
      run.error,
      `GET ${server.base}/json-empty answered 200 with an empty answer (output: answer): no output to score (allowEmptyOutput: true on the target scores it as it is)`,
    );
    // Text is an answer, and an allowed empty one is scored.
    assert.deepEqual(await runOne(target('/json-full')), { code: 0, output: 'fine', error: null });
    assert.deepEqual(await runOne(target('/json-empty', ', allowEmptyOutput: true')), {
      code: 0,
      output: '',
      error: null,
    });
  });
});
