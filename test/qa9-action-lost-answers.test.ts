/**
 * QA9 (L5): a check-run create or annotation update that GitHub stored but whose answer was lost
 * (a 502 after the write) is not sent again blindly. Before a create is sent again, the commit's
 * check runs of that name are listed and the one this create made (its `external_id`) is taken
 * as the answer; before an update is, the check run's `annotations_count` is read back. When that
 * cannot be read, nothing is sent again. The built dist/index.js, end to end, through a proxy on
 * 127.0.0.1 in front of the fake GitHub that loses answers and serves the one route the fake
 * lacks (`GET /repos/{owner}/{repo}/commits/{ref}/check-runs`).
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { useActionFixture } from './helpers/action-fixture.ts';
import { HEAD_SHA, suiteFiles, workspace } from './helpers/action-run.ts';
import { checkRunJson } from './helpers/github-server-check-runs.ts';

/** Every wait for GitHub twenty times shorter: the one-minute budget lasts 3 s. */
const SCALED = { EVALGATE_GITHUB_RETRY_SCALE: '0.05' };

/** 120 rows, every other one failing: 60 annotations, sent as a create of 50 and an update of 10. */
const SIXTY_FAILING = Array.from({ length: 120 }, (_, i) => ({
  expected: `e${i}`,
  answer: i % 2 === 0 ? `x${i}` : `e${i}`,
}));

/** What the proxy does with the next matching request. */
type Fault = 'store-then-502' | '502' | '403';

const fixture = useActionFixture({ env: SCALED });

/** `external_id` of each check run the fake stored, as the creates that made them sent it. */
const externalIds = new Map<number, string>();
const faults: { method: string; path: RegExp; fault: Fault; remaining: number }[] = [];
/** Requests for a commit's check runs the proxy answered. */
let lookups = 0;
let proxy: Server;
let proxyUrl = '';

before(async () => {
  proxy = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const method = req.method ?? 'GET';
      const rule = faults.find(
        (f) => f.remaining > 0 && f.method === method && f.path.test(url.pathname),
      );
      if (rule) rule.remaining -= 1;
      if (rule?.fault === '502' || rule?.fault === '403') {
        const status = Number(rule.fault);
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            message: status === 403 ? 'Resource not accessible by integration' : 'Server Error',
          }),
        );
        return;
      }
      const listed = /^\/repos\/[^/]+\/[^/]+\/commits\/([^/]+)\/check-runs$/.exec(url.pathname);
      if (listed && method === 'GET') {
        lookups += 1;
        // The fake lacks this route: the check runs of a commit, filtered by name, 100 a page.
        const all = [...fixture.server.state.checkRuns.values()].filter(
          (run) =>
            run.head_sha === listed[1] &&
            (url.searchParams.get('check_name') ?? run.name) === run.name,
        );
        const page = Number(url.searchParams.get('page') ?? '1');
        const perPage = Number(url.searchParams.get('per_page') ?? '30');
        const runs = all.slice((page - 1) * perPage, page * perPage).map((run) => ({
          ...checkRunJson(run),
          external_id: externalIds.get(run.id) ?? null,
        }));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ total_count: all.length, check_runs: runs }));
        return;
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host',
        ),
      );
      const answer = await fetch(`${fixture.server.url}${req.url ?? '/'}`, {
        method,
        headers,
        ...(body.length > 0 ? { body } : {}),
      });
      const text = await answer.text();
      if (method === 'POST' && /\/check-runs$/.test(url.pathname) && answer.status === 201) {
        const sent = JSON.parse(body.toString('utf8')) as { external_id?: string };
        const made = JSON.parse(text) as { id: number };
        if (sent.external_id !== undefined) externalIds.set(made.id, sent.external_id);
      }
      if (rule?.fault === 'store-then-502') {
        res.writeHead(502, { 'content-type': 'text/html' }).end('<html>502 Bad Gateway</html>');
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
after(() => {
  proxy.closeAllConnections();
  proxy.close();
});
beforeEach(() => {
  fixture.server.requests.length = 0;
  fixture.server.state.checkRuns.clear();
  fixture.server.state.comments.clear();
  faults.length = 0;
  lookups = 0;
});

function fail(method: string, path: RegExp, fault: Fault, times = 1): void {
  faults.push({ method, path, fault, remaining: times });
}

function run() {
  return fixture.run(workspace(suiteFiles(SIXTY_FAILING)), {}, { GITHUB_API_URL: proxyUrl });
}

/** Each stored check run: its name and its annotations, told apart by place. */
function stored(): { name: string; annotations: number; distinct: number }[] {
  return [...fixture.server.state.checkRuns.values()].map((checkRun) => {
    const places = checkRun.annotations.map((a) => `${String(a.path)}:${String(a.start_line)}`);
    return { name: checkRun.name, annotations: places.length, distinct: new Set(places).size };
  });
}

const CREATE = /\/check-runs$/;
const UPDATE = /\/check-runs\/\d+$/;

describe('a check-run write GitHub stored but whose answer was lost (L5)', () => {
  it("a create answered 502 after GitHub stored it: found among the commit's check runs, not made twice", async () => {
    fail('POST', CREATE, 'store-then-502');
    const r = await run();
    assert.equal(r.code, 1, 'the verdict decides the step');
    assert.deepEqual(
      stored(),
      [{ name: 'evals: evals.yaml', annotations: 60, distinct: 60 }],
      r.stdout,
    );
    const creates = fixture.server.requests.filter(
      (q) => q.method === 'POST' && CREATE.test(q.path),
    );
    assert.equal(creates.length, 1, 'the create was not sent again');
    assert.equal(lookups, 1, "the commit's check runs were listed once, before a second create");
    assert.doesNotMatch(r.stdout, /::warning::/);
    assert.match(r.stdout, /evalgate: check run \S+ with 60 annotations/);
  });

  it('an annotation update answered 502 after GitHub stored it: its count read back, not appended twice', async () => {
    fail('PATCH', UPDATE, 'store-then-502');
    const r = await run();
    assert.equal(r.code, 1);
    assert.deepEqual(
      stored(),
      [{ name: 'evals: evals.yaml', annotations: 60, distinct: 60 }],
      r.stdout,
    );
    assert.doesNotMatch(r.stdout, /::warning::/);

    // An update that did not land (the 502 came before GitHub stored it) is sent again.
    fixture.server.state.checkRuns.clear();
    fail('PATCH', UPDATE, '502');
    const again = await run();
    assert.deepEqual(
      stored(),
      [{ name: 'evals: evals.yaml', annotations: 60, distinct: 60 }],
      again.stdout,
    );
    assert.doesNotMatch(again.stdout, /::warning::/);
  });

  it('when what the lost create did cannot be read back, it is not sent again, and the rows go to the log', async () => {
    fail('POST', CREATE, 'store-then-502');
    fail('GET', new RegExp(`/commits/${HEAD_SHA}/check-runs$`), '403');
    const r = await run();
    assert.equal(r.code, 1);
    assert.equal(stored().length, 1, `one check run at most\n${r.stdout}`);
    const creates = fixture.server.requests.filter(
      (q) => q.method === 'POST' && CREATE.test(q.path),
    );
    assert.equal(creates.length, 1, 'not sent again blindly');
    assert.match(
      r.stdout,
      /::warning::evalgate: could not create the check run "evals: evals\.yaml": its answer was lost, and whether GitHub stored it anyway could not be checked \(could not list the check runs of aaaaaaa: 403 [^\n]*\); not sending it again/,
    );
    // The hint names the permission the step needs, not a generic cause.
    assert.match(
      r.stdout,
      /could not list the check runs of aaaaaaa: 403 [^\n]*`permissions: checks: write`/,
    );
    assert.ok(
      (r.stdout.match(/^::error [^\n]*file=/gm) ?? []).length > 0,
      'rows annotated from the log',
    );
  });
});
