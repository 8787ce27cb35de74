import { relative, resolve } from 'node:path';
import { formatConfigPath } from '../config/config-path.ts';
import type { ConfigPath, EvaluatorConfig, LoadedConfig, SuiteConfig } from '../config/types.ts';
import type { Issue } from '../shared/errors.ts';
import { builtinEvaluators, type BuiltinEvaluatorName } from '../evaluators/registry.ts';
import type { ModelAccess } from './models.ts';
import type { ModuleLoader, ModuleResult } from './modules/loader.ts';
import { asEvaluator, asPassCondition, asTestFn } from './modules/shapes.ts';
import { parseModuleSpec, type ModuleRef } from '../config/module-spec.ts';
import { expandGrid } from '../plan/grid.ts';
import { shardOf, type Shard } from '../plan/shard.ts';
import type { SuiteSpec } from '../run/types.ts';
import {
  CasePreparer,
  defaultTestsetId,
  hasTagIn,
  prepareCases,
  revisionMatches,
  type PrepareCasesResult,
} from '../testsets/identity.ts';
import type { IdentityOptions } from '../testsets/history.ts';
import { readTestsetInto } from '../testsets/read-file.ts';
import { rowsFromRecords } from '../testsets/rows.ts';
import { functionTarget } from '../targets/function.ts';
import { recordedTarget } from '../targets/recorded.ts';
import type {
  EngineEvaluator,
  Params,
  PassCondition,
  PreparedCase,
  Target,
} from '../types/index.ts';

/** Narrowing of a run chosen on the command line (`--suite`, `--tag`, `--grid k=v`). */
export interface RunFilters {
  suites?: string[];
  tags?: string[];
  /** `--grid model=large --grid model=small` → `{ model: ['large', 'small'] }`. */
  grid?: Record<string, string[]>;
  /** `--shard 2/4`: only the cases whose identity falls in this shard (see `shardOf`). */
  shard?: Shard;
}

export interface PrepareOptions {
  /** For display paths in messages (relative to where the user stands). */
  cwd: string;
  loader: ModuleLoader;
  filters?: RunFilters;
  /** `--trials N`: how many times every suite runs each case, whatever the config says. */
  trials?: number;
  /** Model access for judge built-ins; absent: they report that they cannot call a model. */
  models?: ModelAccess;
}

export type PrepareResult = { ok: true; suites: SuiteSpec[] } | { ok: false; issues: Issue[] };

/**
 * Turns a validated config into engine-ready suites: reads testsets, computes identities, checks
 * revision pins, loads user modules, instantiates evaluators and expands grids. Every problem in
 * every suite is collected, so one `evals validate` shows them all.
 */
export async function prepareSuites(
  config: LoadedConfig,
  options: PrepareOptions,
): Promise<PrepareResult> {
  const filters = options.filters ?? {};
  const filterIssues = checkFilters(config, filters);
  if (filterIssues.length > 0) return { ok: false, issues: filterIssues };

  const selected = config.suites.filter(
    (s) => !filters.suites?.length || filters.suites.includes(s.id),
  );
  const results = await Promise.all(selected.map((suite) => prepareSuite(config, suite, options)));
  const issues = results.flatMap((r) => (r.ok ? [] : r.issues));
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, suites: results.flatMap((r) => (r.ok ? [r.suite] : [])) };
}

type SuiteResult = { ok: true; suite: SuiteSpec } | { ok: false; issues: Issue[] };

async function prepareSuite(
  config: LoadedConfig,
  suite: SuiteConfig,
  options: PrepareOptions,
): Promise<SuiteResult> {
  const at = issueAt(config, suite);
  const issues: Issue[] = [];

  const [testset, fn, evaluators, pass] = await Promise.all([
    prepareTestset(config, suite, options, at),
    loadFunction(config, suite, options.loader, at),
    Promise.all(suite.evaluators.map((e) => loadEvaluator(config, suite, e, options, at))),
    loadPass(config, suite, options.loader, at),
  ]);
  if (!testset.ok) issues.push(...testset.issues);
  if (!fn.ok) issues.push(fn.issue);
  for (const e of evaluators) if (!e.ok) issues.push(e.issue);
  if (!pass.ok) issues.push(pass.issue);

  const grid = selectGrid(suite, options.filters?.grid, at);
  if (!grid.ok) issues.push(grid.issue);

  if (!testset.ok || !fn.ok || !pass.ok || !grid.ok || issues.length > 0)
    return { ok: false, issues };
  return {
    ok: true,
    suite: {
      id: suite.id,
      target: fn.value,
      evaluators: evaluators.flatMap((e) => (e.ok ? [e.value] : [])),
      runs: grid.value.map((params) => ({ params, cases: testset.cases })),
      concurrency: suite.concurrency,
      timeoutMs: suite.timeoutMs,
      trials: options.trials ?? suite.trials,
      pass: pass.value,
      gate: suite.gate,
      testset: testset.info,
    },
  };
}

type Located<T> = { ok: true; value: T } | { ok: false; issue: Issue };

/** An issue located at a config path inside `suite` (message and code filled in by the caller). */
function issueAt(config: LoadedConfig, suite: SuiteConfig): (...path: ConfigPath) => Issue {
  return (...path) => {
    const loc = config.locate(['suites', suite.index, ...path]);
    return {
      code: '',
      file: config.file,
      line: loc.line,
      col: loc.col,
      path: formatConfigPath(['suites', suite.index, ...path]),
      message: '',
    };
  };
}

/** A suite's testset read and identified, before its pin is checked or its tags applied. */
export interface SuiteTestset {
  cases: PreparedCase[];
  revision: string;
  info: SuiteSpec['testset'];
  identity: IdentityOptions;
  /** The file, for history look-ups; null for inline cases. */
  location: { absPath: string; displayPath: string } | null;
}

/**
 * Reads a suite's testset (from the working tree, or at its `ref:`) and computes identities and
 * the revision. Shared by runs and by `evals testset pin`, which needs no modules loaded.
 */
export async function readSuiteTestset(
  config: LoadedConfig,
  suite: SuiteConfig,
  cwd: string,
): Promise<{ ok: true; testset: SuiteTestset } | { ok: false; issues: Issue[] }> {
  const at = issueAt(config, suite);
  const ts = suite.testset;
  const hash = suite.hash ? { hash: suite.hash } : {};
  let prepared: PrepareCasesResult;
  let path: string | null = null;
  let commit: string | null = null;
  let location: SuiteTestset['location'] = null;
  let testsetId: string;
  // Where problems in the rows are shown: relative to the user's folder, with the ref if any.
  let issueFile: string;
  if (ts.kind === 'file') {
    const abs = resolve(config.dir, ts.path);
    const display = displayPath(cwd, abs);
    location = { absPath: abs, displayPath: display };
    path = toPosix(ts.path);
    testsetId = ts.id ?? defaultTestsetId(ts.path);
    // Each row becomes its case as the file is read: its rows are never all held at once.
    const preparer = new CasePreparer({ testsetId, ...hash, file: path });
    const read = await readTestsetInto(
      { absPath: abs, displayPath: display, ...(ts.ref !== undefined ? { ref: ts.ref } : {}) },
      (row) => preparer.add(row),
    );
    if (!read.ok) {
      // A missing file or a git failure is reported where the config names the file or ref.
      const where =
        ts.ref !== undefined && read.issues[0]?.code.startsWith('git.') ? 'ref' : 'path';
      return {
        ok: false,
        issues: read.issues.map((i) =>
          i.line === 0 ? { ...at('testset', where), code: i.code, message: i.message } : i,
        ),
      };
    }
    prepared = preparer.finish();
    commit = read.commit;
    issueFile = ts.ref !== undefined ? `${display}@${ts.ref}` : display;
  } else {
    const converted = rowsFromRecords(ts.records, config.file);
    if (!converted.ok) return { ok: false, issues: converted.issues };
    testsetId = ts.id ?? suite.id;
    issueFile = config.file;
    prepared = prepareCases(converted.rows, {
      testsetId,
      ...hash,
      file: displayPath(config.dir, config.absPath),
    });
  }

  if (!prepared.ok) {
    return { ok: false, issues: prepared.issues.map((i) => ({ ...i, file: issueFile })) };
  }
  return {
    ok: true,
    testset: {
      cases: prepared.cases,
      revision: prepared.revision,
      info: {
        path,
        ref: ts.kind === 'file' ? (ts.ref ?? null) : null,
        commit,
        revision: prepared.revision,
      },
      identity: { testsetId, ...hash },
      location,
    },
  };
}

async function prepareTestset(
  config: LoadedConfig,
  suite: SuiteConfig,
  options: PrepareOptions,
  at: (...path: ConfigPath) => Issue,
): Promise<
  { ok: true; cases: PreparedCase[]; info: SuiteSpec['testset'] } | { ok: false; issues: Issue[] }
> {
  const ts = suite.testset;
  const read = await readSuiteTestset(config, suite, options.cwd);
  if (!read.ok) return read;
  const { testset } = read;

  if (ts.revision !== undefined && !revisionMatches(ts.revision, testset.revision)) {
    const message = testset.location
      ? await explainPinMismatch(ts.revision, testset, testset.location, testset.identity)
      : `the inline cases do not match their pinned revision: pinned ${ts.revision}, current ${testset.revision} (the cases changed since the pin; run evals testset pin to pin the current ones)`;
    return {
      ok: false,
      issues: [{ ...at('testset', 'revision'), code: 'testset.revision-mismatch', message }],
    };
  }
  // The config's tags and --tag each narrow the cases (both must match when both are given);
  // positions count every row, so the cases of every shard share one order.
  const tagged = [ts.tags ?? [], options.filters?.tags ?? []]
    .filter((tags) => tags.length > 0)
    .map(hasTagIn);
  const shard = options.filters?.shard;
  const cases = testset.cases.filter(
    (c) =>
      tagged.every((hasTag) => hasTag(c.meta)) &&
      (shard === undefined || shardOf(c.id, shard.count) === shard.index),
  );
  return { ok: true, cases, info: testset.info };
}

/**
 * A pin mismatch says what changed: the pinned revision is looked up in the file's git history
 * and diffed against the current rows, with the command that shows the rows themselves.
 */
async function explainPinMismatch(
  pin: string,
  current: { cases: readonly PreparedCase[]; revision: string },
  location: { absPath: string; displayPath: string },
  identity: IdentityOptions,
): Promise<string> {
  const head = `the testset does not match its pinned revision: pinned ${pin}, current ${current.revision}`;
  const { findPinOrigin } = await import('../testsets/history.ts');
  const origin = await findPinOrigin(location, identity, pin, current.cases);
  if (origin === null) {
    return `${head}; no commit of ${location.displayPath} has the pinned revision, so the changes cannot be counted (see the rows: evals testset show ${location.displayPath}; pin them: evals testset pin)`;
  }
  const short = origin.commit.slice(0, 10);
  return `${head}: since the pin (commit ${short}, ${origin.date.slice(0, 10)}) ${origin.added} added, ${origin.removed} removed, ${origin.changed} changed (see them: evals testset diff ${location.displayPath}@${short} ${location.displayPath}; pin the current rows: evals testset pin)`;
}

async function loadModule(
  loader: ModuleLoader,
  config: LoadedConfig,
  spec: string,
  issueAt: Issue,
): Promise<{ ok: true; ref: ModuleRef; value: unknown } | { ok: false; issue: Issue }> {
  const ref = parseModuleSpec(spec, config.dir);
  const loaded = await loader.loadExport(ref);
  if (loaded.ok) return { ok: true, ref, value: loaded.value };
  const e = loaded.error;
  // A syntax error is shown where it is (the TypeScript file), not where the config names it.
  if (e.file !== undefined && e.line !== undefined) {
    return {
      ok: false,
      issue: {
        code: e.code,
        file: e.file,
        line: e.line,
        col: e.col ?? 1,
        path: '',
        message: `${e.message} (loading ${spec} for ${issueAt.path})`,
      },
    };
  }
  return { ok: false, issue: { ...issueAt, code: e.code, message: e.message } };
}

async function loadFunction(
  config: LoadedConfig,
  suite: SuiteConfig,
  loader: ModuleLoader,
  at: (...path: ConfigPath) => Issue,
): Promise<Located<Target>> {
  if (suite.function === undefined) return { ok: true, value: recordedTarget };
  const spec = suite.function;
  const fn = await loadShaped(loader, config, spec, at('function'), asTestFn);
  return fn.ok ? { ok: true, value: functionTarget(fn.value, `function ${spec}`) } : fn;
}

/** A module's export checked into the shape its use needs; problems located at `where`. */
async function loadShaped<T>(
  loader: ModuleLoader,
  config: LoadedConfig,
  spec: string,
  where: Issue,
  shape: (value: unknown, ref: ModuleRef) => ModuleResult<T>,
): Promise<Located<T>> {
  const loaded = await loadModule(loader, config, spec, where);
  if (!loaded.ok) return loaded;
  const shaped = shape(loaded.value, loaded.ref);
  return shaped.ok
    ? { ok: true, value: shaped.value }
    : { ok: false, issue: { ...where, code: shaped.error.code, message: shaped.error.message } };
}

async function loadEvaluator(
  config: LoadedConfig,
  suite: SuiteConfig,
  ev: EvaluatorConfig,
  options: Pick<PrepareOptions, 'loader' | 'models'>,
  at: (...path: ConfigPath) => Issue,
): Promise<Located<EngineEvaluator>> {
  const where = at('evaluators', ev.index, 'use');
  let inner: EngineEvaluator;
  if (ev.kind === 'builtin') {
    // A built-in carries its default threshold itself (see defineBuiltin). Creating one can
    // fail on settings only known now (a judge without a model, a corrupt baselines file).
    try {
      inner = builtinEvaluators[ev.use as BuiltinEvaluatorName].create(ev.with, {
        id: ev.id,
        ...options.models?.contextFor(suite, ev),
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, issue: { ...where, code: 'evaluator.create', message } };
    }
  } else {
    const shaped = await loadShaped(options.loader, config, ev.use, where, (value, ref) =>
      asEvaluator(value, ref, ev.with, ev.id),
    );
    if (!shaped.ok) return shaped;
    inner = shaped.value;
  }
  // The config's id, limits and threshold win over what the evaluator object declares.
  const threshold = ev.threshold ?? inner.threshold;
  const maxConcurrency = ev.concurrency ?? inner.maxConcurrency;
  const timeoutMs = ev.timeoutMs ?? inner.timeoutMs;
  return {
    ok: true,
    value: {
      id: ev.id,
      ...(threshold ? { threshold } : {}),
      ...(maxConcurrency !== undefined ? { maxConcurrency } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      evaluateTestCase: (args) => inner.evaluateTestCase(args),
    },
  };
}

async function loadPass(
  config: LoadedConfig,
  suite: SuiteConfig,
  loader: ModuleLoader,
  at: (...path: ConfigPath) => Issue,
): Promise<Located<PassCondition>> {
  if (suite.pass === 'all' || suite.pass === 'any') return { ok: true, value: suite.pass };
  return loadShaped(loader, config, suite.pass, at('pass'), asPassCondition);
}

function selectGrid(
  suite: SuiteConfig,
  filter: Record<string, string[]> | undefined,
  at: (...path: ConfigPath) => Issue,
): Located<Params[]> {
  const points = expandGrid(suite.grid);
  if (!filter) return { ok: true, value: points };
  const keys = Object.keys(filter).filter((k) => k in suite.grid);
  const kept = points.filter((p) => keys.every((k) => filter[k]?.includes(gridValueText(p[k]))));
  if (kept.length > 0) return { ok: true, value: kept };
  const wanted = keys.map((k) => `${k}=${filter[k]?.join('|')}`).join(' ');
  const offered = keys
    .map((k) => `${k}: ${(suite.grid[k] ?? []).map(gridValueText).join(', ')}`)
    .join('; ');
  return {
    ok: false,
    issue: {
      ...at('grid'),
      code: 'cli.grid-no-match',
      message: `no grid point matches --grid ${wanted} (the grid has ${offered})`,
    },
  };
}

/** How a grid value is written on the command line: strings as is, the rest as JSON. */
export function gridValueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function checkFilters(config: LoadedConfig, filters: RunFilters): Issue[] {
  const issues: Issue[] = [];
  const ids = config.suites.map((s) => s.id);
  for (const id of filters.suites ?? []) {
    if (!ids.includes(id)) {
      issues.push(
        cliIssue(
          'cli.unknown-suite',
          `--suite ${id}: no such suite in ${config.file} (suites: ${ids.join(', ')})`,
        ),
      );
    }
  }
  for (const key of Object.keys(filters.grid ?? {})) {
    if (!config.suites.some((s) => key in s.grid)) {
      issues.push(
        cliIssue('cli.unknown-grid-key', `--grid ${key}=…: no suite has a grid parameter "${key}"`),
      );
    }
  }
  return issues;
}

function cliIssue(code: string, message: string): Issue {
  return { code, file: '', line: 0, col: 0, path: '', message };
}

function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  return rel && !rel.startsWith('..') ? toPosix(rel) : abs;
}

function toPosix(path: string): string {
  return path.replaceAll('\\', '/').replace(/^\.\//, '');
}
