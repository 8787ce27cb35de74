import { existsSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { applyPins } from '../config/pin.ts';
import { loadConfigFile } from '../config/load.ts';
import { UsageError, usageError, type Issue } from '../shared/errors.ts';
import { builtinEvaluators } from '../evaluators/registry.ts';
import { readSuiteTestset } from '../bind/prepare.ts';
import { writeFileAtomic } from '../shared/write-file-atomic.ts';
import { formatCount } from '../report/labels.ts';
import { diffTestsets } from '../testsets/diff.ts';
import { formatFromPath, parseTestset } from '../testsets/formats.ts';
import { testsetLog, type IdentityOptions } from '../testsets/history.ts';
import { defaultTestsetId, prepareCases, revisionMatches } from '../testsets/identity.ts';
import { readTestset, type TestsetLocation } from '../testsets/read-file.ts';
import {
  describeIdentity,
  renderDiff,
  renderDiffJson,
  renderTestsetTable,
} from '../report/testset.ts';
import { serializeTestset } from '../testsets/write.ts';
import type { PreparedCase, TestsetRow } from '../types/index.ts';
import { useColor, type CommandContext } from '../pipeline/context.ts';
import { loadConfig, resolveConfigArg } from '../pipeline/load.ts';

export const TESTSET_HELP = `Usage: evals testset <command> [options]

Testsets are files in git. A row's identity is its dedup id (__dedup_id__ or testcase_dedup_id),
else the hash of the suite's hash: fields, else its content; a revision is the hash of the ordered
content ids. FILE may be written FILE@REF to read it as of a git branch, tag or commit.

Commands:
  revision FILE[@REF]   Print the revision id, the row count and the identity mode
  show FILE[@REF]       Print the rows with their ids (--json: as JSON)
  diff A B              Compare two versions by identity: rows added, removed, changed (exit 1 when they differ)
  log FILE              The file's git history: revision, rows and +added −removed ~changed per commit
  convert IN[@REF] OUT  Convert between .csv, .json and .jsonl, keeping ids and the revision
  pin [config]          Write each suite's current revision into its testset.revision (--check: only report)

Identity options (revision, show, diff, log):
  --hash FIELDS   Comma-separated fields that identify a row (as a suite's hash:)
  --id ID         Testset id mixed into content ids (default: the file's base name)
  --config FILE   Take --hash and --id from the suite in this config that reads the file
                  (default: ./evals.yaml when present)

Run evals testset <command> --help for each command's options.
`;

const SUB_HELP: Record<Sub, string> = {
  revision: `Usage: evals testset revision FILE[@REF] [--hash FIELDS] [--id ID] [--config FILE] [--json]

Prints the testset's revision id (what a suite's testset.revision pins), its row count and how
rows are identified: dedup id, hash fields, or content.
`,
  show: `Usage: evals testset show FILE[@REF] [--json] [--hash FIELDS] [--id ID] [--config FILE]

Prints the rows as a table with their source line and identity (--json: one object per row with
id, contentId, line, data and metadata).
`,
  diff: `Usage: evals testset diff A B [--json] [--hash FIELDS] [--id ID] [--config FILE]

Each side is FILE or FILE@REF (e.g. testsets/qa.csv@main testsets/qa.csv), or two different
files. Rows are matched by identity: with dedup ids or hash fields an edited row is "changed",
with content identity it is one row removed and one added.
Exit codes: 0 same revision · 1 different · 2 bad input.
`,
  log: `Usage: evals testset log FILE [--json] [--hash FIELDS] [--id ID] [--config FILE]

For each commit that changed FILE (newest first): commit, date, revision, rows, and the rows
added, removed and changed since the commit before; then the working tree when it differs.
`,
  convert: `Usage: evals testset convert IN[@REF] OUT [--lossy]

Converts between .csv, .json and .jsonl. Metadata columns (__id__, __dedup_id__, __flags__,
__tags__, __meta__) round-trip; __dedup_id__ and testcase_dedup_id are normalised into each
other; empty metadata columns are dropped. The revision is checked to be unchanged.
Values a CSV cell cannot hold as they are (numbers, booleans, null, missing keys) stop the
conversion; --lossy writes them anyway, as text, and reports the new revision.
`,
  pin: `Usage: evals testset pin [config] [--check]

Writes each suite's current testset revision into its testset.revision field, keeping the
file's comments and formatting. --check writes nothing and exits 1 when a pin is stale.
`,
};

type Sub = 'revision' | 'show' | 'diff' | 'log' | 'convert' | 'pin';

/** Problems listed before the rest are summed up, as the readers do. */
const MAX_PROBLEMS = 50;

const IDENTITY = {
  hash: { type: 'string' },
  id: { type: 'string' },
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const OPTIONS = {
  revision: { ...IDENTITY, json: { type: 'boolean' } },
  show: { ...IDENTITY, json: { type: 'boolean' } },
  diff: { ...IDENTITY, json: { type: 'boolean' } },
  log: { ...IDENTITY, json: { type: 'boolean' } },
  convert: { lossy: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  pin: { check: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
} satisfies Record<Sub, ParseArgsConfig['options']>;

const ARITY: Record<Sub, [min: number, max: number]> = {
  revision: [1, 1],
  show: [1, 1],
  diff: [2, 2],
  log: [1, 1],
  convert: [2, 2],
  pin: [0, 1],
};

interface Flags {
  hash?: string;
  id?: string;
  config?: string;
  json?: boolean;
  lossy?: boolean;
  check?: boolean;
  help?: boolean;
}

/** `evals testset …`: dispatches to the sub-command. Usage errors are thrown (exit 2). */
export async function testsetCommand(argv: string[], ctx: CommandContext): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    ctx.stdout.write(TESTSET_HELP);
    return first === undefined ? 2 : 0;
  }
  if (!(first in OPTIONS)) {
    throw usageError(
      'cli.unknown-command',
      `unknown command "testset ${first}" (commands: ${Object.keys(OPTIONS).join(', ')}; see evals testset --help)`,
    );
  }
  const sub = first as Sub;
  let parsed: { values: Flags; positionals: string[] };
  try {
    // Every option is a string or a boolean, as Flags declares.
    parsed = parseArgs({
      args: rest,
      options: OPTIONS[sub],
      allowPositionals: true,
      strict: true,
    }) as { values: Flags; positionals: string[] };
  } catch (error) {
    throw usageError(
      'cli.bad-option',
      `${(error as Error).message} (see evals testset ${sub} --help)`,
    );
  }
  const { values: flags, positionals } = parsed;
  if (flags.help) {
    ctx.stdout.write(SUB_HELP[sub]);
    return 0;
  }
  const [min, max] = ARITY[sub];
  if (positionals.length < min || positionals.length > max) {
    throw usageError('cli.arguments', `wrong number of arguments\n${SUB_HELP[sub]}`);
  }
  const [a, b] = positionals;
  switch (sub) {
    case 'revision':
      return revisionCommand(need(a), flags, ctx);
    case 'show':
      return showCommand(need(a), flags, ctx);
    case 'diff':
      return diffCommand(need(a), need(b), flags, ctx);
    case 'log':
      return logCommand(need(a), flags, ctx);
    case 'convert':
      return convertCommand(need(a), need(b), flags, ctx);
    case 'pin':
      return pinCommand(a, flags, ctx);
  }
}

function need(value: string | undefined): string {
  if (value === undefined) throw new Error('argument count was checked');
  return value;
}

// ------------------------------------------------------------------------------------------------
// Arguments: FILE[@REF] and identity settings
// ------------------------------------------------------------------------------------------------

/**
 * `testsets/qa.csv@main` → the file and the ref. A path that exists as written wins, so a file
 * whose name holds `@` still works; otherwise the last `@` splits path and ref.
 */
export function parseLocation(arg: string, cwd: string): TestsetLocation {
  const at = arg.lastIndexOf('@');
  if (existsSync(resolve(cwd, arg)) || at <= 0 || at === arg.length - 1) {
    return { absPath: resolve(cwd, arg), displayPath: arg };
  }
  const path = arg.slice(0, at);
  return { absPath: resolve(cwd, path), displayPath: path, ref: arg.slice(at + 1) };
}

function shown(location: TestsetLocation): string {
  return location.ref === undefined
    ? location.displayPath
    : `${location.displayPath}@${location.ref}`;
}

/**
 * How rows of this file are identified: `--hash`/`--id`, else the settings of the suite in the
 * config that reads this file (so `diff` and `log` agree with `evals run`), else the defaults.
 */
async function identityFor(
  location: TestsetLocation,
  flags: Flags,
  ctx: CommandContext,
): Promise<IdentityOptions> {
  const fromConfig =
    flags.hash === undefined || flags.id === undefined
      ? await suiteSettings(location, flags, ctx)
      : {};
  const hash = flags.hash !== undefined ? splitFields(flags.hash) : fromConfig.hash;
  return {
    testsetId: flags.id ?? fromConfig.id ?? defaultTestsetId(location.absPath),
    ...(hash ? { hash } : {}),
  };
}

function splitFields(text: string): string[] {
  const fields = text
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (fields.length === 0)
    throw usageError(
      'cli.bad-option',
      `--hash: expected field names such as question,locale, found "${text}"`,
    );
  return fields;
}

async function suiteSettings(
  location: TestsetLocation,
  flags: Flags,
  ctx: CommandContext,
): Promise<{ hash?: string[]; id?: string }> {
  let file: string;
  try {
    file = resolveConfigArg(flags.config, ctx);
  } catch {
    return {}; // no config here: defaults
  }
  const loaded = await loadConfigFile(file, {
    cwd: ctx.cwd,
    env: ctx.env,
    builtins: builtinEvaluators,
  });
  if (!loaded.ok) {
    // A config the user named must be valid; one found by default is only a hint.
    if (flags.config !== undefined) throw new UsageError(loaded.issues);
    return {};
  }
  const target = realPath(location.absPath);
  for (const suite of loaded.config.suites) {
    if (
      suite.testset.kind === 'file' &&
      realPath(resolve(loaded.config.dir, suite.testset.path)) === target
    ) {
      return {
        ...(suite.hash ? { hash: suite.hash } : {}),
        ...(suite.testset.id !== undefined ? { id: suite.testset.id } : {}),
      };
    }
  }
  return {};
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Reads and identifies one version; any problem is a usage error (exit 2) naming file and line or ref. */
async function load(
  location: TestsetLocation,
  identity: IdentityOptions,
): Promise<{ rows: TestsetRow[]; cases: PreparedCase[]; revision: string; commit: string | null }> {
  const read = await readTestset(location);
  if (!read.ok) throw new UsageError(read.issues);
  const prepared = prepareCases(read.rows, {
    ...identity,
    file: location.displayPath,
  });
  if (!prepared.ok) {
    throw new UsageError(prepared.issues.map((i) => ({ ...i, file: shown(location) })));
  }
  return {
    rows: read.rows,
    cases: prepared.cases,
    revision: prepared.revision,
    commit: read.commit,
  };
}

/** `dedup id`, `hash fields a, b` or `content` (a mix when only some rows have dedup ids). */
function identityMode(cases: PreparedCase[], identity: IdentityOptions): string {
  return describeIdentity(cases, Array.isArray(identity.hash) ? identity.hash : []);
}

// ------------------------------------------------------------------------------------------------
// Sub-commands
// ------------------------------------------------------------------------------------------------

async function revisionCommand(arg: string, flags: Flags, ctx: CommandContext): Promise<number> {
  const location = parseLocation(arg, ctx.cwd);
  const identity = await identityFor(location, flags, ctx);
  const version = await load(location, identity);
  const mode = identityMode(version.cases, identity);
  if (flags.json) {
    ctx.stdout.write(
      `${JSON.stringify({ file: shown(location), revision: version.revision, rows: version.cases.length, identity: mode, testsetId: identity.testsetId, commit: version.commit }, null, 2)}\n`,
    );
  } else {
    ctx.stdout.write(
      `revision  ${version.revision}\nrows      ${formatCount(version.cases.length)}\nidentity  ${mode}\n` +
        (version.commit ? `commit    ${version.commit}\n` : ''),
    );
  }
  return 0;
}

async function showCommand(arg: string, flags: Flags, ctx: CommandContext): Promise<number> {
  const location = parseLocation(arg, ctx.cwd);
  const identity = await identityFor(location, flags, ctx);
  const version = await load(location, identity);
  if (flags.json) {
    const rows = version.cases.map((c) => ({
      id: c.id,
      contentId: c.contentId,
      line: c.source?.line ?? null,
      data: c.data,
      ...(Object.keys(c.meta).length > 0 ? { meta: c.meta } : {}),
    }));
    ctx.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  ctx.stdout.write(
    renderTestsetTable(version.cases, {
      maxWidth: ctx.stdout.columns ?? 120,
      color: useColor(ctx),
      revision: version.revision,
      identity: identityMode(version.cases, identity),
    }),
  );
  return 0;
}

async function diffCommand(
  aArg: string,
  bArg: string,
  flags: Flags,
  ctx: CommandContext,
): Promise<number> {
  const a = parseLocation(aArg, ctx.cwd);
  const b = parseLocation(bArg, ctx.cwd);
  // Both sides are identified the same way, or every row would look changed.
  const identity = await identityFor(a, flags, ctx);
  const [before, after] = await Promise.all([load(a, identity), load(b, identity)]);
  const diff = diffTestsets(before.cases, after.cases);
  if (flags.json) {
    ctx.stdout.write(
      `${JSON.stringify({ before: { file: shown(a), revision: before.revision }, after: { file: shown(b), revision: after.revision }, ...renderDiffJson(diff) }, null, 2)}\n`,
    );
  } else {
    ctx.stdout.write(
      renderDiff(diff, {
        beforeLabel: shown(a),
        afterLabel: shown(b),
        beforeRevision: before.revision,
        afterRevision: after.revision,
        beforeRows: before.cases.length,
        afterRows: after.cases.length,
        color: useColor(ctx),
      }),
    );
  }
  return diff.equal ? 0 : 1;
}

async function logCommand(arg: string, flags: Flags, ctx: CommandContext): Promise<number> {
  const location = parseLocation(arg, ctx.cwd);
  if (location.ref !== undefined) {
    throw usageError(
      'cli.arguments',
      `evals testset log walks the whole history of a file: give FILE, not ${arg}`,
    );
  }
  const identity = await identityFor(location, flags, ctx);
  const log = await testsetLog(location, identity);
  if (!log.ok) {
    throw usageError(log.error.code, log.error.message, location.displayPath);
  }
  // The working tree, when it differs from the newest commit, leads the list.
  const working = await readTestset(location);
  const workingPrepared = working.ok
    ? prepareCases(working.rows, { ...identity, file: location.displayPath })
    : undefined;
  const newest = log.entries[0]?.version;
  const workingRow =
    workingPrepared?.ok && !(newest?.ok && newest.revision === workingPrepared.revision)
      ? { revision: workingPrepared.revision, rows: workingPrepared.cases.length }
      : null;

  if (flags.json) {
    ctx.stdout.write(
      `${JSON.stringify({ file: location.displayPath, workingTree: workingRow, commits: log.entries, truncated: log.truncated }, null, 2)}\n`,
    );
    return 0;
  }
  const rows: string[][] = [
    ['commit', 'date', 'revision', 'rows', 'added', 'removed', 'changed', 'subject'],
  ];
  if (workingRow) {
    rows.push([
      '(working tree)',
      '',
      workingRow.revision.slice(0, 12),
      formatCount(workingRow.rows),
      '',
      '',
      '',
      'uncommitted changes',
    ]);
  }
  for (const entry of log.entries) {
    const v = entry.version;
    rows.push(
      v.ok
        ? [
            entry.commit.slice(0, 10),
            entry.date.slice(0, 10),
            v.revision.slice(0, 12),
            formatCount(v.rows),
            `+${v.added}`,
            `-${v.removed}`,
            `~${v.changed}`,
            entry.subject,
          ]
        : [
            entry.commit.slice(0, 10),
            entry.date.slice(0, 10),
            'unreadable',
            '',
            '',
            '',
            '',
            `${entry.subject} (${v.message})`,
          ],
    );
  }
  ctx.stdout.write(renderColumns(rows, [false, false, false, true, true, true, true, false]));
  if (log.entries.length === 0)
    ctx.stdout.write(`no commit has touched ${location.displayPath} yet\n`);
  if (log.truncated)
    ctx.stdout.write(`(only the newest ${log.entries.length} commits are shown)\n`);
  return 0;
}

/** Plain aligned columns; `right[i]` aligns column i to the right (numbers). */
function renderColumns(rows: string[][], right: boolean[]): string {
  const widths =
    rows[0]?.map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? '')].length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((cell, i) => {
          const pad = ' '.repeat(Math.max(0, (widths[i] ?? 0) - [...cell].length));
          return i === r.length - 1 ? cell : right[i] ? pad + cell : cell + pad;
        })
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
    .concat('\n');
}

async function convertCommand(
  inArg: string,
  outArg: string,
  flags: Flags,
  ctx: CommandContext,
): Promise<number> {
  const input = parseLocation(inArg, ctx.cwd);
  const outAbs = resolve(ctx.cwd, outArg);
  const format = formatFromPath(outAbs);
  if (format === null) {
    throw usageError(
      'testset.format',
      `${outArg}: the output must end in .csv, .json, .jsonl or .ndjson`,
    );
  }
  if (realPath(outAbs) === realPath(input.absPath) && input.ref === undefined) {
    throw usageError(
      'cli.arguments',
      `convert would overwrite its input ${inArg}: give another output file`,
    );
  }
  // The input's testset id is kept for the check, so renaming while converting is not mistaken
  // for a content change.
  const identity: IdentityOptions = { testsetId: defaultTestsetId(input.absPath) };
  const before = await load(input, identity);
  const serialized = serializeTestset(before.rows, format);
  if (!serialized.ok && !flags.lossy) {
    const issues = serialized.problems.slice(0, MAX_PROBLEMS).map((p): Issue => ({
      code: 'testset.lossy',
      file: shown(input),
      line: p.line,
      col: p.line > 0 ? 1 : 0,
      path: p.field,
      message: p.message,
    }));
    const more = serialized.problems.length - issues.length;
    const tail = `${more > 0 ? `… and ${more} more problems; ` : ''}${outArg} was not written (--lossy writes it anyway)`;
    throw new UsageError([
      ...issues,
      { code: 'testset.lossy', file: outArg, line: 0, col: 0, path: '', message: tail },
    ]);
  }
  const text = serialized.text;

  // Read back what would be written: the conversion must not change a single content id. Under
  // --lossy, rows can collapse into one (missing cells become ""), so a failure here is the
  // user's data, not a bug.
  const reread = parseTestset(text, format, outArg);
  const after = reread.ok ? prepareCases(reread.rows, { ...identity, file: outArg }) : reread;
  if (!after.ok) {
    if (!flags.lossy)
      throw new Error(`convert wrote ${format} it cannot read back: ${after.issues[0]?.message}`);
    throw new UsageError([
      ...after.issues.slice(0, MAX_PROBLEMS),
      {
        code: 'testset.lossy',
        file: outArg,
        line: 0,
        col: 0,
        path: '',
        message: `with --lossy the output would not be a valid testset; ${outArg} was not written`,
      },
    ]);
  }
  const same = after.revision === before.revision;
  if (!same && !flags.lossy)
    throw new Error('convert changed the revision although no problem was reported');
  const rowCount = after.cases.length;

  await writeFileAtomic(outAbs, text);
  ctx.stdout.write(
    `wrote ${formatCount(rowCount)} rows to ${outArg} · revision ${after.revision.slice(0, 12)} ${same ? '(unchanged)' : `(was ${before.revision.slice(0, 12)}: --lossy changed values)`}\n`,
  );
  const outId = defaultTestsetId(outAbs);
  if (outId !== identity.testsetId) {
    ctx.stderr.write(
      `note: ${outArg}'s default testset id is "${outId}", not "${identity.testsetId}"; to keep the same ids, set testset.id: ${identity.testsetId} in evals.yaml\n`,
    );
  }
  return 0;
}

async function pinCommand(
  configArg: string | undefined,
  flags: Flags,
  ctx: CommandContext,
): Promise<number> {
  const config = await loadConfig(configArg, ctx);
  const results = await Promise.all(
    // Only the revisions are needed: the cases are not held.
    config.suites.map((suite) => readSuiteTestset(config, suite, ctx.cwd)),
  );
  const issues = results.flatMap((r) => (r.ok ? [] : r.issues));
  if (issues.length > 0) throw new UsageError(issues);

  const states = config.suites.map((suite, i) => {
    const r = results[i];
    const current = r?.ok ? r.testset.revision : '';
    const pinned = suite.testset.revision;
    return {
      suite,
      current,
      pinned,
      fresh: pinned !== undefined && revisionMatches(pinned, current),
    };
  });

  if (flags.check) {
    let stale = 0;
    for (const s of states) {
      if (s.pinned === undefined) {
        ctx.stdout.write(
          `  ${s.suite.id}: not pinned (current revision ${s.current.slice(0, 12)})\n`,
        );
      } else if (!s.fresh) {
        stale += 1;
        ctx.stdout.write(
          `✗ ${s.suite.id}: pinned ${s.pinned}, but the testset is now ${s.current.slice(0, 12)}\n`,
        );
      } else {
        ctx.stdout.write(`✓ ${s.suite.id}: ${s.pinned}\n`);
      }
    }
    ctx.stdout.write(
      stale > 0
        ? `${stale} stale pin${stale === 1 ? '' : 's'}: run evals testset pin ${config.file} to update\n`
        : 'every pin is current\n',
    );
    return stale > 0 ? 1 : 0;
  }

  const updates = states
    .filter((s) => !s.fresh)
    .map((s) => ({ suiteIndex: s.suite.index, revision: s.current }));
  if (updates.length === 0) {
    ctx.stdout.write('every pin is current; nothing to write\n');
    return 0;
  }
  const text = await readFile(config.absPath, 'utf8');
  const pinned = applyPins(text, updates);
  if (!pinned.ok) throw usageError('pin.failed', pinned.message, config.file);
  await writeFileAtomic(config.absPath, pinned.text);
  for (const s of states.filter((x) => !x.fresh)) {
    ctx.stdout.write(
      `pinned ${s.suite.id}: ${s.current.slice(0, 12)}${s.pinned ? ` (was ${s.pinned})` : ''}\n`,
    );
  }
  ctx.stdout.write(`updated ${config.file}\n`);
  return 0;
}
