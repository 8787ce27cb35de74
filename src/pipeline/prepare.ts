import { relative, resolve } from 'node:path';
import { formatConfigPath } from '../config/config-path.ts';
import type { ConfigPath, EvaluatorConfig, LoadedConfig, SuiteConfig } from '../config/types.ts';
import type { Issue } from '../errors.ts';
import { builtinEvaluators, type BuiltinEvaluatorName } from '../evaluators/registry.ts';
import type { ModuleLoader } from '../modules/loader.ts';
import { asEvaluator, asPassCondition, asTestFn } from '../modules/shapes.ts';
import { parseModuleSpec, type ModuleRef } from '../modules/spec.ts';
import { expandGrid } from '../plan/grid.ts';
import type { SuiteSpec } from '../run/types.ts';
import {
  defaultTestsetId,
  filterByTags,
  prepareCases,
  revisionMatches,
} from '../testsets/identity.ts';
import { readTestsetFile } from '../testsets/read-file.ts';
import { rowsFromRecords } from '../testsets/rows.ts';
import type { EngineEvaluator, Params, PassCondition, TestFn, TestsetRow } from '../types.ts';

/** Narrowing of a run chosen on the command line (`--suite`, `--tag`, `--grid k=v`). */
export interface RunFilters {
  suites?: string[];
  tags?: string[];
  /** `--grid model=large --grid model=small` → `{ model: ['large', 'small'] }`. */
  grid?: Record<string, string[]>;
}

export interface PrepareOptions {
  /** For display paths in messages (relative to where the user stands). */
  cwd: string;
  loader: ModuleLoader;
  filters?: RunFilters;
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
  const at = (...path: ConfigPath): Issue => {
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
  const issues: Issue[] = [];

  const [testset, fn, evaluators, pass] = await Promise.all([
    prepareTestset(config, suite, options, at),
    loadFunction(config, suite, options.loader, at),
    Promise.all(suite.evaluators.map((e) => loadEvaluator(config, suite, e, options.loader, at))),
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
      cases: testset.cases,
      fn: fn.value,
      evaluators: evaluators.flatMap((e) => (e.ok ? [e.value] : [])),
      grid: grid.value,
      concurrency: suite.concurrency,
      timeoutMs: suite.timeoutMs,
      pass: pass.value,
      gate: suite.gate,
      testset: testset.info,
    },
  };
}

type Located<T> = { ok: true; value: T } | { ok: false; issue: Issue };

async function prepareTestset(
  config: LoadedConfig,
  suite: SuiteConfig,
  options: PrepareOptions,
  at: (...path: ConfigPath) => Issue,
): Promise<
  | { ok: true; cases: SuiteSpec['cases']; info: SuiteSpec['testset'] }
  | { ok: false; issues: Issue[] }
> {
  const ts = suite.testset;
  let rows: TestsetRow[];
  let sourceFile: string;
  let testsetId: string;
  let path: string | null;
  if (ts.kind === 'file') {
    if (ts.ref !== undefined) {
      return {
        ok: false,
        issues: [
          {
            ...at('testset', 'ref'),
            code: 'testset.ref-unsupported',
            message: `reading a testset at a git revision (ref: ${ts.ref}) is not available in this version; remove ref: to read the working tree`,
          },
        ],
      };
    }
    const abs = resolve(config.dir, ts.path);
    const read = await readTestsetFile(abs, displayPath(options.cwd, abs));
    if (!read.ok) {
      // A missing file is reported where the config names it, so the user sees both places.
      return {
        ok: false,
        issues: read.issues.map((i) =>
          i.line === 0 ? { ...at('testset', 'path'), code: i.code, message: i.message } : i,
        ),
      };
    }
    rows = read.rows;
    sourceFile = toPosix(ts.path);
    testsetId = ts.id ?? defaultTestsetId(ts.path);
    path = sourceFile;
  } else {
    const converted = rowsFromRecords(ts.records, config.file);
    if (!converted.ok) return { ok: false, issues: converted.issues };
    rows = converted.rows;
    sourceFile = displayPath(config.dir, config.absPath);
    testsetId = ts.id ?? suite.id;
    path = null;
  }

  const prepared = prepareCases(rows, {
    testsetId,
    file: sourceFile,
    ...(suite.hash ? { hash: suite.hash } : {}),
  });
  if (!prepared.ok) return { ok: false, issues: prepared.issues };

  if (ts.revision !== undefined && !revisionMatches(ts.revision, prepared.revision)) {
    return {
      ok: false,
      issues: [
        {
          ...at('testset', 'revision'),
          code: 'testset.revision-mismatch',
          message: `the testset does not match its pinned revision: pinned ${ts.revision}, current ${prepared.revision} (the rows changed since the pin; update revision: to pin the current rows)`,
        },
      ],
    };
  }

  const tags = [...(ts.tags ?? [])];
  let cases = filterByTags(prepared.cases, tags);
  const cliTags = options.filters?.tags ?? [];
  if (cliTags.length > 0) cases = filterByTags(cases, cliTags);
  return {
    ok: true,
    cases,
    info: { path, ref: null, revision: prepared.revision },
  };
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
): Promise<Located<TestFn>> {
  if (suite.function === undefined) return { ok: true, value: outputColumn };
  const loaded = await loadModule(loader, config, suite.function, at('function'));
  if (!loaded.ok) return loaded;
  const shaped = asTestFn(loaded.value, loaded.ref);
  return shaped.ok
    ? { ok: true, value: shaped.value }
    : {
        ok: false,
        issue: { ...at('function'), code: shaped.error.code, message: shaped.error.message },
      };
}

/** Without `function:`, a suite scores outputs stored in the testset's `output` column. */
const outputColumn: TestFn = ({ testCase }) => {
  if (!('output' in testCase)) {
    throw new Error('the suite has no function: and this row has no "output" field to score');
  }
  return testCase.output;
};

async function loadEvaluator(
  config: LoadedConfig,
  suite: SuiteConfig,
  ev: EvaluatorConfig,
  loader: ModuleLoader,
  at: (...path: ConfigPath) => Issue,
): Promise<Located<EngineEvaluator>> {
  const where = at('evaluators', ev.index, 'use');
  let inner: EngineEvaluator;
  if (ev.kind === 'builtin') {
    // A built-in carries its default threshold itself (see defineBuiltin).
    inner = builtinEvaluators[ev.use as BuiltinEvaluatorName].create(ev.with, { id: ev.id });
  } else {
    const loaded = await loadModule(loader, config, ev.use, where);
    if (!loaded.ok) return loaded;
    const shaped = asEvaluator(loaded.value, loaded.ref, ev.with, ev.id);
    if (!shaped.ok)
      return {
        ok: false,
        issue: { ...where, code: shaped.error.code, message: shaped.error.message },
      };
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
  const loaded = await loadModule(loader, config, suite.pass, at('pass'));
  if (!loaded.ok) return loaded;
  const shaped = asPassCondition(loaded.value, loaded.ref);
  return shaped.ok
    ? { ok: true, value: shaped.value }
    : {
        ok: false,
        issue: { ...at('pass'), code: shaped.error.code, message: shaped.error.message },
      };
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
