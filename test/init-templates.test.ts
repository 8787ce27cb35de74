/**
 * `evals init --template NAME` writes starters that work: the command one offline, the HTTP one
 * against the server it ships, the model one against an OpenAI-compatible server (loopback
 * here, Ollama for a user). Also the config-only example, including its model suite.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot, scratch, writeFiles } from './helpers/cli.ts';
import { freePort } from './helpers/free-port.ts';
import { runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((s) => (server = s));

function verdict(dir: string, file = 'results.json'): string {
  return (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { verdict: string }).verdict;
}

describe('evals init --template', () => {
  it('command: runs offline and passes', async () => {
    const dir = scratch();
    const init = await runInProcess(['init', '--template', 'command'], dir);
    assert.equal(init.code, 0, init.stderr);
    assert.ok(existsSync(join(dir, 'agent.mjs')));
    const run = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(verdict(dir), 'pass');
  });

  it('http: passes against the server it ships', async () => {
    const dir = scratch();
    assert.equal((await runInProcess(['init', '--template', 'http'], dir)).code, 0);
    const port = await freePort();
    const child = spawn(process.execPath, ['server.mjs'], {
      cwd: dir,
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      // Wait for its "listening" line (bounded by the test runner's timeout and the child's exit).
      await new Promise<void>((resolve, reject) => {
        child.stdout.once('data', () => resolve());
        child.once('exit', (code) => reject(new Error(`server.mjs exited with ${code}`)));
      });
      const run = await runInProcess(['run', '-o', 'results.json'], dir, {
        API_URL: `http://127.0.0.1:${port}/answer`,
      });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.equal(verdict(dir), 'pass');
    } finally {
      child.kill();
    }
  });

  it('model: a prompt grid against an OpenAI-compatible server', async () => {
    const dir = scratch();
    assert.equal((await runInProcess(['init', '--template', 'model'], dir)).code, 0);
    server.setDefault({
      content:
        'You can ask for a refund within 30 days; open Settings for a reset link; cancel any time.',
    });
    const run = await runInProcess(['run', '-o', 'results.json'], dir, {
      OPENAI_BASE_URL: server.url,
      OPENAI_API_KEY: 'test-key',
      MODEL: 'tiny',
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    // 3 questions × 2 prompt files.
    assert.equal(server.requests.length, 6);
    const systems = new Set(
      server.requests.map(
        (r) => (r.body as { messages: { content: string }[] }).messages[0]!.content,
      ),
    );
    assert.equal(systems.size, 2);
  });

  it('adds what a run writes to .gitignore, once, keeping what is there', async () => {
    const dir = scratch();
    writeFiles(dir, { '.gitignore': 'node_modules\n/evals-results.json' });
    const init = await runInProcess(['init', '--template', 'command'], dir);
    assert.match(init.stdout, /Added to \.gitignore: evals-report\.html, \.evalgate\//);
    assert.equal(
      readFileSync(join(dir, '.gitignore'), 'utf8'),
      'node_modules\n/evals-results.json\n# evalgate outputs\nevals-report.html\n.evalgate/\n',
    );
    const fresh = scratch();
    await runInProcess(['init', 'sub'], fresh);
    assert.equal(
      readFileSync(join(fresh, 'sub', '.gitignore'), 'utf8'),
      '# evalgate outputs\nevals-results.json\nevals-report.html\n.evalgate/\n',
    );
  });

  it('http into a folder: the Next commands run as printed from where init ran', async () => {
    const dir = scratch();
    const r = await runInProcess(['init', '--template', 'http', 'app'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^ {2}cd app\n(?:.*\n)? {2}node server\.mjs & +# or set API_URL to your API$/m,
    );
    assert.match(r.stdout, /^ {2}npx evals run$/m);
    assert.ok(existsSync(join(dir, 'app', 'server.mjs')));
  });

  it('a folder argument that is a file, or lies under one, is refused before writing', async () => {
    const dir = scratch();
    writeFiles(dir, { 'notes.txt': 'mine\n' });
    for (const [arg, message] of [
      [
        'notes.txt',
        /^error: evals init notes\.txt: is a file, not a folder, so no file was written\n$/,
      ],
      [
        'notes.txt/app',
        /^error: evals init notes\.txt\/app: .*notes\.txt is a file, not a folder, so no file was written\n$/,
      ],
    ] as const) {
      const r = await runInProcess(['init', arg], dir);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
    }
    assert.equal(readFileSync(join(dir, 'notes.txt'), 'utf8'), 'mine\n');
  });

  it('an unknown template is refused with the list and a suggestion', async () => {
    const result = await runInProcess(['init', '--template', 'htp'], scratch());
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /expected one of function, command, http, model \(did you mean http\?\)/,
    );
  });
});

describe('examples/config-only', () => {
  const example = join(repoRoot, 'examples', 'config-only');

  it('has no code besides the agent script, and its offline suites pass', async () => {
    const run = await runInProcess(
      ['run', join(example, 'evals.yaml'), '-o', 'results.json'],
      scratch(),
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
  });

  it('its model suite (documented against Ollama) runs against an OpenAI-compatible server', async () => {
    server.setDefault({ content: '{"intent":"refund"}' });
    const dir = scratch();
    const run = await runInProcess(
      ['run', join(example, 'model.yaml'), '-o', 'results.json', '--no-cache'],
      dir,
      {
        OPENAI_BASE_URL: server.url,
      },
    );
    assert.ok(server.requests.length > 0);
    assert.ok(run.code === 0 || run.code === 1, run.stderr);
    assert.notEqual(verdict(dir), undefined);
  });
});
