/**
 * The seeded differential test of test/verdict-equivalence.test.ts, widened: the same suites run
 * whole, as 2 and as 3 merged shards, and interrupted then resumed must reach the same results,
 * in projects (test/helpers/equivalence-wide.ts) whose suites read CSV files, inline `cases:` or
 * JSONL; whose outputs come from a real child process (a `command` target: an `sh` script given
 * the case as arguments or a shell line, a node script reading it from stdin), from an `http`
 * target answering on a loopback server this file starts, or from the function; with a module
 * evaluator at times; every way of running the head given the same CLI overrides (`--suite`,
 * `--trials`, `--concurrency`, `--grid`); and the baseline made at times with other trials, other
 * grid points or other suites than the head. Some suites ask a `model` target, some are scored by
 * an `llm-judge`, both answered by the loopback fake of test/helpers/openai-server.ts from the
 * request alone (test/helpers/equivalence-wide-model.ts), with `--no-cache` on every run or the
 * project's own cache, which the ways share. In some, the model target or the judge answers
 * every call 401 (a wrong key) or 403: the calls after `stopAfterErrors` of them are not made,
 * and which those are depends on the way, so their errors are compared by cause (`not called:
 * … stopped:` left out) and their model usage not at all. A resumption is `--resume FILE` alone, or at random
 * the command the interrupted run printed. Exit codes, verdicts, gate conditions, summaries,
 * cases and the comparison's statistics must be equal (`essence`). `EQ_SEED` and `EQ_PROJECTS`
 * (default 12, at most 500) explore other projects; 12 take ~28 s on 2 cores.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { agree, read, run as runEvals, type Way } from './helpers/equivalence-run.ts';
import { AT, STOP } from './helpers/equivalence-projects.ts';
import { answer, generateWide, type Odds, type WideSpec } from './helpers/equivalence-wide.ts';
import { respond, type ModelOdds } from './helpers/equivalence-wide-model.ts';
import { startOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

const PROJECTS = Math.min(Number(process.env.EQ_PROJECTS) || 12, 500);

/**
 * A loopback server for the http targets: `/answer/p<index>` answers as `answer` says for the
 * project registered under that index (by its `v1` file, as the function does), JSON to a POST
 * and text to a GET, 422 for a case it fails; and it stops the run at the stop row.
 */
async function startAnswerServer(): Promise<{
  port: number;
  register(index: number, dir: string, odds: Odds): void;
  close(): Promise<void>;
}> {
  const projects = new Map<string, { dir: string; odds: Odds }>();
  const read = async (req: IncomingMessage): Promise<string> => {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    return text;
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const project = projects.get(url.pathname.slice('/answer/'.length));
    void (req.method === 'POST' ? read(req) : Promise.resolve('')).then((text) => {
      const q = text
        ? (JSON.parse(text) as Record<string, string>)
        : Object.fromEntries(url.searchParams);
      const g = globalThis as Record<string, unknown>;
      if (q.id === g[AT]) (g[STOP] as (() => void) | undefined)?.();
      const said = project && answer(project.odds, q, existsSync(join(project.dir, 'v1')));
      if (said === undefined) res.writeHead(422).end(`no answer for n=${q.n}`);
      else if (req.method === 'GET') res.writeHead(200, { 'content-type': 'text/plain' }).end(said);
      else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ answer: said }));
      }
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    port: (server.address() as AddressInfo).port,
    register: (index, dir, odds) => projects.set(`p${index}`, { dir, odds }),
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/**
 * The arguments that finish the interrupted `file` into `out`: `--resume file` alone, or the
 * command the run printed (`evals run … --resume file`), with its arguments as printed.
 */
function resumeArgs(
  spec: WideSpec,
  dir: string,
  stderr: string,
  file: string,
  out: string,
): string[] {
  if (!spec.printedResume) return ['run', '--resume', file, '-o', out];
  const line = stderr.split('\n').find((l) => l.includes(`--resume ${file}`));
  assert.ok(line, `no resume command printed for ${file}:\n${stderr}`);
  // Its arguments as a shell reads them (the line quotes `pad=!!`, say), as a user pastes it.
  const words = line.slice(line.indexOf('evals run ') + 'evals run '.length);
  const script = `printf '%s\\0' ${words}`;
  const printed = execFileSync('/bin/sh', ['-c', script], { cwd: dir, encoding: 'utf8' });
  return ['run', ...printed.split('\0').slice(0, -1), '-o', out];
}

async function ways(spec: WideSpec, port: number): Promise<Way[]> {
  const dir = scratch();
  const files: Record<string, string> = {};
  for (const [name, text] of Object.entries(spec.files))
    files[name] = text.replaceAll('__PORT__', `${port}`).replaceAll('__OPENAI__', openai.url);
  writeFiles(dir, files);
  server.register(spec.index, dir, spec.odds);
  if (spec.models) modelOdds.set(`p${spec.index}`, spec.models);
  // The cache, when used, is this project's own (next to its config). A cached answer is the
  // answer the fake would give (it reads nothing but the request), so which way fills the cache
  // and which reads it changes no result, only how many calls were sent (`agree`'s `cached`).
  const run: typeof runEvals = (argv, cwd, stopAt) =>
    runEvals(spec.noCache && argv[0] === 'run' ? [...argv, '--no-cache'] : argv, cwd, stopAt);
  const head = [...spec.filter, ...spec.overrides];
  const ok = (name: string, ran: { code: number; stderr: string }, codes = [0, 1]) =>
    assert.ok(codes.includes(ran.code), `${name}: exit ${ran.code}\n${ran.stderr}`);
  if (spec.baseline) {
    writeFileSync(join(dir, 'v1'), '');
    const base = [...spec.filter, ...spec.baseArgs];
    ok('base', await run(['run', ...base, '-o', 'base.json'], dir));
    if (spec.extras.includes('shardedBase')) {
      for (const i of [1, 2]) {
        ok(`b${i}`, await run(['run', ...base, '--shard', `${i}/2`, '-o', `b${i}.json`], dir));
      }
      ok('base merge', await run(['merge', 'b1.json', 'b2.json', '-o', 'base-merged.json'], dir));
    }
    rmSync(join(dir, 'v1'));
    head.push('--baseline', 'base.json');
  }
  const found: Way[] = [];
  const add = (name: string, ran: { code: number; stderr: string }, file: string) => {
    // A refusal (exit 2) writes nothing: fail on its message rather than on a missing file.
    ok(name, ran);
    found.push({ name, code: ran.code, artifact: read(dir, file) });
  };
  add('whole', await run(['run', ...head, '-o', 'whole.json'], dir), 'whole.json');

  for (const n of [2, 3]) {
    const shards: string[] = [];
    for (let i = 1; i <= n; i++) {
      const file = `shard-${n}-${i}.json`;
      const args = ['run', ...head, '--shard', `${i}/${n}`, '-o', file];
      const shard = await run(args, dir, n === 2 && i === 1 ? spec.stopAt : undefined);
      ok(file, shard, [0, 1, 130]);
      if (shard.code === 130)
        ok(`${file} resumed`, await run(resumeArgs(spec, dir, shard.stderr, file, file), dir));
      shards.push(file);
    }
    add(
      `${n} shards merged`,
      await run(['merge', ...shards, '-o', `merged-${n}.json`], dir),
      `merged-${n}.json`,
    );
  }

  if (spec.stopAt !== undefined) {
    const stopped = await run(['run', ...head, '-o', 'part.json'], dir, spec.stopAt);
    assert.equal(stopped.code, 130, stopped.stderr);
    const resumed = await run(
      resumeArgs(spec, dir, stopped.stderr, 'part.json', 'resumed.json'),
      dir,
    );
    add('interrupted, resumed', resumed, 'resumed.json');
    if (spec.extras.includes('twice')) {
      const again = await run(
        resumeArgs(spec, dir, stopped.stderr, 'part.json', 'again.json'),
        dir,
        spec.stopAgain,
      );
      if (again.code === 130) {
        const done = await run(
          resumeArgs(spec, dir, again.stderr, 'again.json', 'again.json'),
          dir,
        );
        add('interrupted twice, resumed', done, 'again.json');
      } else add('interrupted, resumed (the second stop row had run)', again, 'again.json');
    }
    if (spec.extras.includes('explicitBase')) {
      const given = ['run', '--resume', 'part.json', '--baseline', 'base.json', '-o', 'rg.json'];
      add('interrupted, resumed with --baseline', await run(given, dir), 'rg.json');
    }
  }
  if (spec.extras.includes('explicitBase')) {
    const merge = ['merge', 'shard-2-1.json', 'shard-2-2.json', '--baseline', 'base.json'];
    add('2 shards merged with --baseline', await run([...merge, '-o', 'mg.json'], dir), 'mg.json');
  }
  if (spec.extras.includes('shardedBase')) {
    const against = head.map((a) => (a === 'base.json' ? 'base-merged.json' : a));
    add(
      'whole against the merged baseline',
      await run(['run', ...against, '-o', 'wm.json'], dir),
      'wm.json',
    );
  }
  return found;
}

let server: Awaited<ReturnType<typeof startAnswerServer>>;
let openai: OpenAiServer;
const modelOdds = new Map<string, ModelOdds>();

describe('widened: CSV and inline rows, command, http and model targets, module and judge evaluators, CLI overrides', () => {
  before(async () => {
    server = await startAnswerServer();
    openai = await startOpenAiServer();
    openai.setResponder((request) => respond(modelOdds, request));
  });
  after(async () => {
    await server.close();
    await openai.close();
  });

  for (let index = 0; index < PROJECTS; index++) {
    const spec = generateWide(index);
    it(spec.description, async () => {
      const calls = spec.models?.denied ? 'stopped' : !!spec.models && !spec.noCache;
      agree(await ways(spec, server.port), spec.compared, calls);
    });
  }
});
