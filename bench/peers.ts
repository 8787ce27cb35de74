/**
 * (d) `npm run bench -- --peers`: the same echo suite run by evalgate and by promptfoo.
 *
 * promptfoo is never a project dependency: it is installed once into a cache folder under the
 * OS temp dir and reused. 0.120.0 is pinned because it is the newest release that runs on Node 20.
 *
 * Both tools read one CSV (id,question,expected). The function/provider echoes the question as
 * the JSON text {"echo":"<question>"}, and each row's `expected` is exactly that text, so all
 * three checks pass on every row: equals (`expected`), contains (the question) and valid JSON.
 * Both must exit 0, which each does only when every case passed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixedAgainst, meets, type Limit } from './limits.ts';
import { measure, repeat, type Measured, type Row } from './measure.ts';

const PROMPTFOO_VERSION = '0.120.0';
const cacheDir = join(tmpdir(), 'evalgate-bench-peers', `promptfoo-${PROMPTFOO_VERSION}`);
const promptfooMain = join(cacheDir, 'node_modules', 'promptfoo', 'dist', 'src', 'main.js');
/** Cases in flight for both tools: promptfoo's `-j` and evalgate's `concurrency:`. */
const CONCURRENCY = 64;
const SIZES = [2_000, 10_000];

/** Installs promptfoo into the cache folder unless that version is already there; the reason if not. */
function ensurePromptfoo(step: (s: string) => void): string | undefined {
  const pkgDir = join(cacheDir, 'node_modules', 'promptfoo');
  const pkg = join(pkgDir, 'package.json');
  const installed = existsSync(pkg)
    ? (JSON.parse(readFileSync(pkg, 'utf8')) as { version?: string }).version
    : undefined;
  if (installed !== PROMPTFOO_VERSION || !existsSync(promptfooMain)) {
    step(`installing promptfoo@${PROMPTFOO_VERSION} into ${cacheDir} (once; reused later)`);
    mkdirSync(cacheDir, { recursive: true });
    // A package.json of its own stops npm from walking up and installing into an outer project.
    if (!existsSync(join(cacheDir, 'package.json'))) {
      writeFileSync(
        join(cacheDir, 'package.json'),
        '{ "name": "evalgate-bench-peers", "private": true }\n',
      );
    }
    const r = spawnSync(
      'npm',
      ['install', '--no-save', '--no-audit', '--no-fund', `promptfoo@${PROMPTFOO_VERSION}`],
      { cwd: cacheDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    if (r.status !== 0 || !existsSync(promptfooMain)) {
      const tail = `${r.stderr ?? ''}${r.error?.message ?? ''}`.trim().split('\n').slice(-3);
      return `npm install promptfoo@${PROMPTFOO_VERSION} failed (exit ${r.status}): ${tail.join(' / ')}`;
    }
  }
  // 0.120.0 as published looks for its database migrations in <package>/drizzle, but the
  // package ships them in <package>/dist/drizzle, so every command dies at start-up with
  // "Can't find meta/_journal.json file" (fixed upstream by promptfoo/promptfoo#6573). A link
  // from the expected place to the shipped folder has the same effect; it is made in the cache
  // folder only and changes nothing that is timed.
  const drizzle = join(pkgDir, 'drizzle');
  if (!existsSync(drizzle) && existsSync(join(pkgDir, 'dist', 'drizzle'))) {
    symlinkSync(join('dist', 'drizzle'), drizzle);
  }
  return undefined;
}

function writePeerSuite(dir: string, cases: number): void {
  mkdirSync(dir, { recursive: true });
  const lines = ['id,question,expected'];
  for (let i = 0; i < cases; i++) {
    const question = `echo ${i}`;
    // CSV-quoted JSON text: the doubled quotes are CSV escaping, the cell is {"echo":"echo N"}.
    lines.push(`q${i},${question},"${JSON.stringify({ echo: question }).replaceAll('"', '""')}"`);
  }
  writeFileSync(join(dir, 'cases.csv'), `${lines.join('\n')}\n`);

  // evalgate: a JavaScript function, like promptfoo's JavaScript provider (neither needs tsx).
  writeFileSync(
    join(dir, 'echo.mjs'),
    'export function echo({ testCase }) {\n  return JSON.stringify({ echo: testCase.question });\n}\n',
  );
  // evalgate decodes a CSV cell holding a JSON object, and is-equals compares an object with a
  // string output as its JSON text, so `expected` matches the echoed text exactly.
  writeFileSync(
    join(dir, 'evals.yaml'),
    `version: 1
suites:
  - id: peers
    testset: { path: cases.csv }
    hash: [id]
    function: ./echo.mjs#echo
    concurrency: ${CONCURRENCY}
    evaluators:
      - { id: equals, use: is-equals, with: { expected: "{{case.expected}}" } }
      - { id: contains, use: contains, with: { values: ["{{case.question}}"] } }
      - { id: json, use: is-valid-json }
`,
  );

  // promptfoo: a JavaScript file provider echoing the rendered prompt (the question).
  writeFileSync(
    join(dir, 'echo-provider.mjs'),
    `export default class EchoProvider {
  id() {
    return 'echo';
  }
  async callApi(prompt) {
    return { output: JSON.stringify({ echo: prompt }) };
  }
}
`,
  );
  writeFileSync(
    join(dir, 'promptfooconfig.yaml'),
    `description: evalgate bench peers
prompts:
  - '{{question}}'
providers:
  - file://echo-provider.mjs
tests: file://cases.csv
defaultTest:
  assert:
    - type: equals
      value: '{{expected}}'
    - type: contains
      value: '{{question}}'
    - type: is-json
`,
  );
}

function promptfooEnv(home: string): Record<string, string> {
  return {
    // Nothing leaves the machine or lands in the user's home: promptfoo keeps its config,
    // database and logs under PROMPTFOO_CONFIG_DIR (default ~/.promptfoo).
    HOME: home,
    PROMPTFOO_CONFIG_DIR: join(home, '.promptfoo'),
    PROMPTFOO_DISABLE_TELEMETRY: '1',
    PROMPTFOO_DISABLE_UPDATE: '1',
    PROMPTFOO_DISABLE_REDTEAM_REMOTE_GENERATION: '1',
    // Its per-run debug and error log files: evalgate writes none, and in 0.120.0 the debug
    // log's file stream sometimes takes a write after it closed at exit ("write after end"),
    // which kills the process with exit 1 after a complete, passing run.
    PROMPTFOO_DISABLE_DEBUG_LOG: '1',
    PROMPTFOO_DISABLE_ERROR_LOG: '1',
  };
}

/** Pass count from promptfoo's summary, to check that every case really passed. */
function promptfooPasses(out: string): number | undefined {
  const m = /^Successes:\s*(\d[\d,]*)/m.exec(out);
  return m?.[1] === undefined ? undefined : Number(m[1].replaceAll(',', ''));
}

function infoRow(id: string, scenario: string, message: string): Row {
  return {
    id,
    scenario,
    evalgate: '—',
    baseline: message,
    ratio: '—',
    target: '—',
    met: null,
    runs: '—',
    data: { error: message },
  };
}

export async function runPeers(
  work: string,
  bin: string,
  step: (s: string) => void,
): Promise<Row[]> {
  const failed = ensurePromptfoo(step);
  if (failed !== undefined)
    return [infoRow('peers', '(d) vs promptfoo', `promptfoo cannot run: ${failed}`)];
  const home = join(work, 'peers-home');
  mkdirSync(home, { recursive: true });
  const rows: Row[] = [];
  const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
  const sec = (t: number) => `${(t / 1000).toFixed(2)} s`;
  for (const cases of SIZES) {
    const dir = join(work, `peers-${cases}`);
    writePeerSuite(dir, cases);
    const label = `${cases / 1000}k`;
    step(`peers, ${label} cases: evalgate (median of 3), promptfoo (1 run)`);
    // Both sides measured the same way: the whole tree sampled, and the root's own maxRSS.
    const ev = await repeat(3, () =>
      measure([bin, 'run', 'evals.yaml', '-o', 'out.json'], { cwd: dir, tree: true }),
    );
    const promptfooArgs = [
      promptfooMain,
      'eval',
      '-c',
      'promptfooconfig.yaml',
      '--no-cache',
      '--no-write',
      '--no-table',
      '--no-progress-bar',
      '--no-share',
      '-j',
      String(CONCURRENCY),
    ];
    const promptfooOptions = { cwd: dir, env: promptfooEnv(home), tree: true };
    let pf: Measured;
    try {
      // Untimed first case: promptfoo's first run in a fresh config dir creates and migrates
      // its database, a one-time cost its users have long paid; this also warms the disk cache.
      await measure([...promptfooArgs, '--filter-first-n', '1'], promptfooOptions);
      pf = await measure(promptfooArgs, promptfooOptions);
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error))
        .split('\n')
        .slice(0, 6)
        .join(' / ');
      rows.push(
        infoRow(
          `peers-${label}`,
          `(d) ${label} cases vs promptfoo`,
          `promptfoo failed: ${message}`,
        ),
      );
      continue;
    }
    const passes = promptfooPasses(pf.stdout + pf.stderr);
    if (passes !== cases) {
      rows.push(
        infoRow(
          `peers-${label}`,
          `(d) ${label} cases vs promptfoo`,
          `promptfoo reported ${passes ?? 'no'} passes of ${cases}`,
        ),
      );
      continue;
    }
    const speed = pf.wallMs / ev.wallMs;
    const memory = pf.rssBytes / ev.rssBytes;
    const atTarget = cases === 10_000;
    const speedLimit: Limit = { bound: 20, keep: 'at-least' };
    const memoryLimit: Limit = { bound: 4, keep: 'at-least' };
    rows.push({
      id: `peers-${label}-wall`,
      scenario: `(d) ${label} cases vs promptfoo, wall`,
      evalgate: sec(ev.wallMs),
      baseline: `promptfoo ${PROMPTFOO_VERSION}: ${sec(pf.wallMs)}`,
      // A figure gains digits rather than round across its limit (bench/limits.ts).
      ratio: `${atTarget ? fixedAgainst(speed, 1, speedLimit) : speed.toFixed(1)}× faster`,
      target: atTarget ? '≥ 20× faster' : '—',
      met: atTarget ? meets(speed, speedLimit) : null,
      runs: 'evalgate median of 3, promptfoo 1 run',
      data: { evalgateMs: ev.wallMs, promptfooMs: pf.wallMs },
    });
    rows.push({
      id: `peers-${label}-rss`,
      scenario: `(d) ${label} cases vs promptfoo, peak RSS (tree)`,
      evalgate: mb(ev.rssBytes),
      baseline: `promptfoo ${PROMPTFOO_VERSION}: ${mb(pf.rssBytes)} (tree of ${pf.tree?.processes ?? '?'})`,
      ratio: `${atTarget ? fixedAgainst(memory, 1, memoryLimit) : memory.toFixed(1)}× less`,
      target: atTarget ? '≥ 4× less' : '—',
      met: atTarget ? meets(memory, memoryLimit) : null,
      runs: 'evalgate median of 3, promptfoo 1 run',
      data: {
        evalgateRssBytes: ev.rssBytes,
        promptfooRssBytes: pf.rssBytes,
        promptfooTreeSumPeakBytes: pf.tree?.sumPeakBytes ?? 0,
        promptfooMaxProcessHwmBytes: pf.tree?.hwmPeakBytes ?? 0,
        promptfooRootMaxRssBytes: pf.tree?.rootMaxRssBytes ?? 0,
        promptfooProcesses: pf.tree?.processes ?? 0,
      },
    });
  }
  return rows;
}
