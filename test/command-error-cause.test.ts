/**
 * The cause of a target's error survives the one-line forms of it: the terminal summary's case
 * line and the JUnit `message`. A command's stderr (a Python traceback, a Node stack) ends with
 * the cause; an HTTP error body may span lines. Real processes and a real loopback server.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

const CAUSE = "ModuleNotFoundError: No module named 'openai'";

/** A shell script printing a Python-style traceback ending with `CAUSE`, then failing. */
const TRACEBACK = [
  'echo "Traceback (most recent call last):" >&2',
  'echo "  File \\"agent.py\\", line 3, in <module>" >&2',
  'echo "    import openai" >&2',
  `echo "${CAUSE}" >&2`,
  'exit 1',
].join('\n');

/** A Node-style crash: the message, then stack frames and the runtime banner after it. */
const NODE_CRASH = [
  'echo "/work/agent.js:1" >&2',
  'echo "throw new Error(\\"the index is empty\\")" >&2',
  'echo "^" >&2',
  'echo "" >&2',
  'echo "Error: the index is empty" >&2',
  'echo "    at Object.<anonymous> (/work/agent.js:1:7)" >&2',
  'echo "    at Module._compile (node:internal/modules/cjs/loader:1256:14)" >&2',
  'echo "" >&2',
  'echo "Node.js v20.11.0" >&2',
  'exit 1',
].join('\n');

const served = useLoopbackServer((req, res) => {
  // A pretty-printed JSON error body, as many frameworks send.
  const body = JSON.stringify(
    { error: { type: 'overloaded', detail: 'model is overloaded' } },
    null,
    2,
  );
  req
    .resume()
    .on('end', () => res.writeHead(500, { 'content-type': 'application/json' }).end(body));
});

/** The line of the summary that lists the case (`! id "label" …`), and what follows it. */
function caseLines(stdout: string): string {
  const lines = stdout.split('\n');
  const at = lines.findIndex((line) => /^\s*! /.test(line));
  assert.ok(at >= 0, `no errored case listed in:\n${stdout}`);
  // A reason that does not fit goes on the lines under the case, indented.
  const under = [];
  for (let i = at + 1; i < lines.length && /^ {4,}\S/.test(lines[i]!); i++) under.push(lines[i]!);
  return [lines[at]!, ...under].join('\n');
}

/** The `message` attribute of the JUnit `<error>` of the one case. */
function junitMessage(dir: string): string {
  const xml = readFileSync(join(dir, 'junit.xml'), 'utf8');
  const match = /<error message="([^"]*)"/.exec(xml);
  assert.ok(match, xml);
  return match[1]!
    .replace(/&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<');
}

function scriptProject(script: string): string {
  return jsonlProject([{ q: 'x' }], ['target:', '  type: command', '  run: [sh, fail.sh]'], {
    'fail.sh': script + '\n',
  });
}

describe('the cause of an error in one-line reports', () => {
  it("a command's last stderr line is on its summary line and in the JUnit message", async () => {
    const dir = scriptProject(TRACEBACK);
    const run = await runInProcess(['run', '-o', 'results.json', '--junit', 'junit.xml'], dir, {
      COLUMNS: '200',
    });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const listed = caseLines(run.stdout);
    assert.match(listed, /the command exited with code 1/);
    assert.ok(listed.includes(CAUSE), listed);
    const message = junitMessage(dir);
    assert.match(message, /the command exited with code 1/);
    assert.ok(message.includes(CAUSE), message);
    // The artifact keeps the whole stderr.
    const error = artifactCases(dir)[0]!.cases[0]!.error!;
    assert.ok(error.includes('import openai') && error.includes(CAUSE), error);
  });

  it('a narrow terminal cuts the line in the middle: its end, the cause, stays', async () => {
    const dir = scriptProject(TRACEBACK);
    const run = await runInProcess(['run', '-o', 'results.json'], dir, { COLUMNS: '60' });
    const listed = caseLines(run.stdout);
    for (const line of listed.split('\n')) assert.ok(line.length <= 60, line);
    assert.ok(listed.includes("No module named 'openai'"), listed);
  });

  it('a Node crash shows its message, not the stack frames or runtime banner after it', async () => {
    const dir = scriptProject(NODE_CRASH);
    const run = await runInProcess(['run', '-o', 'results.json', '--junit', 'junit.xml'], dir, {
      COLUMNS: '200',
    });
    const listed = caseLines(run.stdout);
    assert.ok(listed.includes('Error: the index is empty'), listed);
    assert.ok(junitMessage(dir).includes('Error: the index is empty'), junitMessage(dir));
  });

  it("an http error's multi-line body is in the summary line and the JUnit message", async () => {
    const dir = jsonlProject(
      [{ q: 'x' }],
      ['target:', '  type: http', `  url: ${served.base}/answer`, '  maxRetries: 0'],
    );
    const run = await runInProcess(['run', '-o', 'results.json', '--junit', 'junit.xml'], dir, {
      COLUMNS: '200',
    });
    const listed = caseLines(run.stdout);
    assert.match(listed, /answered 500/);
    assert.ok(listed.includes('model is overloaded'), listed);
    assert.ok(junitMessage(dir).includes('model is overloaded'), junitMessage(dir));
  });
});
