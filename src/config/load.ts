/**
 * Loading `evals.yaml`: YAML with positions → `${VAR}` substitution → JSON Schema → semantic
 * rules → the typed `LoadedConfig`. Every problem is collected and returned with its
 * `file:line:col` and config path; only malformed YAML stops early, because nothing after it
 * can be trusted.
 */
import { dirname, resolve } from 'node:path';
import type { Issue } from '../shared/errors.ts';
import { isFileError, readRegularFileBytes } from '../shared/regular-file.ts';
import { utf8Issue } from '../testsets/encoding.ts';
import type { BuiltinDefinition } from '../evaluators/types.ts';
import { buildConfig } from './build.ts';
import { captureWritten, configTextHash, hashWritten } from './config-hash.ts';
import { formatConfigPath, valueAtPath } from './config-path.ts';
import { escapedTemplateWarnings } from './escape-warnings.ts';
import { bashOnlyShellWarnings } from './shell-warnings.ts';
import { jsonStringBodyWarnings } from './http-body-warnings.ts';
import { substituteEnvInDocument } from './env.ts';
import { checkConfigSchema } from './schema-check.ts';
import { schemaProblems } from './schema-errors.ts';
import { quotedValueHint } from './schema-messages.ts';
import { checkRules } from './rules.ts';
import { createScrubber, isSecretName, secretsInEnv } from '../shared/secrets.ts';
import { writtenConfigSecrets } from './secrets.ts';
import type { ConfigPath, LoadedConfig, Loc } from './types.ts';
import {
  binaryPaths,
  dataTooLarge,
  excessiveAliasOffset,
  firstAliasOffset,
} from './yaml-limits.ts';
import { numericPinMessage, numericPins } from './pin.ts';
import { inexactYamlNumbers } from './yaml-numbers.ts';
import { MAX_ALIAS_COUNT, parseYaml } from './yaml-source.ts';
import { inexactNumberMessage } from '../testsets/json-numbers.ts';
import { unreadableReason } from '../shared/unreadable.ts';

export { parseDuration } from '../shared/duration.ts';

/** The outcome of loading a config: the typed config, or every problem found. */
export type LoadResult =
  | {
      ok: true;
      config: LoadedConfig;
      /** What is valid but likely not meant (`template.escaped`), to print where it is. */
      warnings: Issue[];
    }
  | {
      ok: false;
      issues: Issue[];
      /**
       * The secrets the config's data holds (keys, header values, URL credentials; see
       * `writtenConfigSecrets`), its `${VAR}` references substituted: the issues may quote them.
       * None when the config could not be read that far.
       */
      secrets?: string[];
    };

/** What `parseConfig` needs besides the text. */
export interface ParseConfigOptions {
  /** The config path as the user gave it, for messages. */
  file: string;
  absPath: string;
  /** Source of `${VAR}` values. */
  env: Readonly<Record<string, string | undefined>>;
  /** The built-in evaluators `use:` may name, with their option schemas. */
  builtins: Readonly<Record<string, BuiltinDefinition>>;
  /**
   * `evals testset pin`: a `testset.revision` of hex digits YAML reads as a number is read as
   * the digits written (`numericPins`), since the pin rewrites it; anything else refuses it.
   */
  numericPinsAsWritten?: boolean;
}

/** What `loadConfigFile` needs besides the path. */
export interface LoadConfigOptions {
  /** Folder a relative config path is resolved against. */
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  builtins: Readonly<Record<string, BuiltinDefinition>>;
  /** See {@link ParseConfigOptions.numericPinsAsWritten}. */
  numericPinsAsWritten?: boolean;
}

/** A problem before it gets its file position. */
interface Located {
  code: string;
  path: ConfigPath;
  /** Point at this key of the mapping at `path` instead of at the value. */
  key?: string;
  message: string;
}

/** Validates config text and builds the typed config. Pure: no I/O, `env` is only read. */
export function parseConfig(text: string, options: ParseConfigOptions): LoadResult {
  const { file } = options;
  const parsed = parseYaml(text);
  if (!parsed.ok) {
    return {
      ok: false,
      issues: sortIssues(
        parsed.problems.map((p) => ({
          code: p.code,
          file,
          ...p.loc,
          path: '',
          message: p.message,
        })),
      ),
    };
  }
  const source = parsed.source;
  const issues: Issue[] = [];
  // A path as the user finds it in the file: a number key as written, not as yaml rounded it.
  const shownPath = (path: ConfigPath): string => formatConfigPath(source.writtenPath(path));
  const issueAt = (problem: Located): Issue => {
    const loc =
      problem.key === undefined
        ? source.locate(problem.path)
        : source.locateKey([...problem.path, problem.key]);
    return {
      code: problem.code,
      file,
      ...loc,
      path: shownPath(problem.path),
      message: problem.message,
    };
  };

  if (source.empty) {
    return {
      ok: false,
      issues: [
        {
          code: 'config.empty',
          file,
          line: 1,
          col: 1,
          path: '',
          message: 'the config is empty: expected version: 1 and suites:',
        },
      ],
    };
  }

  // A pin written as bare digits: read as written for `evals testset pin` (before anything reads
  // the values; the node keeps its place, so positions stay the file's), else refused as written.
  const digitPins = new Map<string, string>();
  for (const pin of numericPins(source.doc, text)) {
    if (options.numericPinsAsWritten === true) pin.node.value = pin.written;
    else digitPins.set(shownPath(['suites', pin.suiteIndex, 'testset', 'revision']), pin.written);
  }
  // The configHash covers the config as written: ${VAR} references by name, never the values
  // substituted below, which may be secrets (the hash is written to every artifact).
  const written = captureWritten(source.doc);
  // A number yaml would read as another (a 20-digit id, `1e400`) is refused as written, found
  // before `${VAR}` substitution replaces what the scalars say. Reported after the schema and
  // the rules, where they found nothing at its path: one that did already says what is wrong
  // (a sha `8e71234567` where a string is expected, read as Infinity).
  const inexactNumbers = inexactYamlNumbers(source.doc.contents);
  // Values with a broken ${VAR} are reported once, as that; what the schema or the rules would
  // say about the half-substituted text would only repeat it.
  const envBroken = new Set<string>();
  // Messages written once the secrets are known (see `EnvNumberProblem`).
  const envNumbers: [Issue, (scrub: (text: string) => string) => string][] = [];
  const envOrigins = substituteEnvInDocument(
    source.doc.contents,
    options.env,
    (node, path, problem) => {
      envBroken.add(formatConfigPath(path));
      const loc = source.position(node.range?.[0] ?? 0);
      const issue: Issue = { code: problem.code, file, ...loc, path: shownPath(path), message: '' };
      if (typeof problem.message === 'string') issue.message = problem.message;
      else envNumbers.push([issue, problem.message]);
      issues.push(issue);
    },
  );
  let data: unknown;
  try {
    data = source.doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // yaml refuses documents whose aliases expand without bound (a "billion laughs" file), at
    // the alias that takes its count too far; it says neither where nor which.
    const reason = (error as Error).message;
    const excessive = /excessive alias count/i.test(reason);
    const culprit = excessive ? excessiveAliasOffset(source.doc, MAX_ALIAS_COUNT) : null;
    const offset = excessive ? (culprit ?? firstAliasOffset(source.doc)) : null;
    const message = excessive
      ? `cannot expand the YAML aliases: ${culprit !== null ? 'at this alias' : 'from this alias on'} they expand past ${MAX_ALIAS_COUNT} copies of values (aliases of aliases multiply, as in a "billion laughs" file): write the values out instead`
      : `cannot expand the YAML aliases: ${reason}`;
    const loc = offset !== null ? source.position(offset) : { line: 1, col: 1 };
    return {
      ok: false,
      issues: [{ code: 'yaml.aliases', file, ...loc, path: '', message }],
    };
  }
  // Aliases can stack nesting and multiply values past what the text shows.
  const tooLarge = dataTooLarge(data);
  if (tooLarge !== null) {
    return {
      ok: false,
      issues: [{ code: 'yaml.too-large', file, line: 1, col: 1, path: '', message: tooLarge }],
    };
  }
  const binaries = binaryPaths(data).map((path) => ({ path, at: formatConfigPath(path) }));
  // A `!!binary` value where a mapping is expected passes as an object whose keys are its bytes
  // and methods: the complaints about its keys become one, that binary data is no mapping. (Where
  // anything else is expected, the type problem says so: `expected string, found binary data`.)
  const bytesMisread = new Map<string, ConfigPath>();
  const report = (problem: Located): void => {
    const at = formatConfigPath(problem.path);
    if (envBroken.has(at)) return;
    const binary = binaries.find(
      (b) =>
        (at === b.at && problem.code !== 'schema.type') ||
        (at.startsWith(b.at) && (at[b.at.length] === '.' || at[b.at.length] === '[')),
    );
    // A value `${VAR}` made says so: the config shows only the reference.
    const origin =
      problem.key === undefined
        ? envOrigins.note(problem.path, valueAtPath(data, problem.path))
        : '';
    const unquote = origin === '' ? quotedValueHint(problem, valueAtPath(data, problem.path)) : '';
    if (binary === undefined)
      issues.push(issueAt({ ...problem, message: problem.message + unquote + origin }));
    else bytesMisread.set(binary.at, binary.path);
  };

  // Messages quote values, which `${VAR}` may have filled with secrets: scrubbed before they are
  // cut, as the caller's scrub after the cut would miss a secret's first few characters.
  const scrub = createScrubber([...writtenConfigSecrets(data), ...secretsInEnv(options.env)]).text;
  for (const [issue, message] of envNumbers) issue.message = message(scrub);
  for (const problem of schemaProblems(checkConfigSchema(data), data, { scrub })) report(problem);
  const locate = (path: ConfigPath): Loc => source.locate(path);
  for (const problem of checkRules(data, { builtins: options.builtins, locate, scrub }))
    report(problem);
  const reported = new Set(issues.map((issue) => issue.path));
  for (const number of inexactNumbers) {
    const path = shownPath(number.path);
    if (reported.has(path) || envBroken.has(formatConfigPath(number.path))) continue;
    issues.push({
      code: 'config.inexact-number',
      file,
      ...source.position(number.offset),
      path,
      message: inexactNumberMessage(number, scrub),
    });
  }
  for (const path of bytesMisread.values()) {
    const message = 'expected a mapping, found binary data (!!binary)';
    issues.push(issueAt({ code: 'schema.type', path, message }));
  }

  for (const issue of issues) {
    const written = issue.code === 'schema.type' ? digitPins.get(issue.path) : undefined;
    if (written !== undefined) issue.message = numericPinMessage(written);
  }
  if (issues.length > 0) {
    return { ok: false, issues: sortIssues(issues), secrets: writtenConfigSecrets(data) };
  }

  const built = buildConfig(data, { locate });
  const secrets = new Set(writtenConfigSecrets(data));
  return {
    ok: true,
    warnings: [
      ...escapedTemplateWarnings(data),
      ...bashOnlyShellWarnings(data),
      ...jsonStringBodyWarnings(data),
    ].map(issueAt),
    config: {
      file,
      absPath: options.absPath,
      dir: dirname(options.absPath),
      ...hashWritten(
        written,
        options.env,
        (name, value) => isSecretName(name) || secrets.has(value),
      ),
      textHash: configTextHash(text),
      version: 1,
      defaults: built.defaults,
      suites: built.suites,
      ...(built.removedSuites !== undefined && { removedSuites: built.removedSuites }),
      locate,
    },
  };
}

/** The largest config file read; a config is a few kilobytes, and its text is held whole. */
export const MAX_CONFIG_BYTES = 16 * 2 ** 20;

/**
 * Reads and validates a config file. `path` is as the user gave it (relative to `cwd` or
 * absolute) and is the `file` of every issue; a missing file is one `config.not-found` issue.
 */
export async function loadConfigFile(
  path: string,
  options: LoadConfigOptions,
): Promise<LoadResult> {
  const absPath = resolve(options.cwd, path);
  let bytes: Buffer;
  try {
    bytes = await readRegularFileBytes(absPath, MAX_CONFIG_BYTES);
  } catch (error) {
    if (!isFileError(error)) throw error;
    const code = error.code;
    const issue: Issue =
      code === 'ENOENT'
        ? {
            code: 'config.not-found',
            file: path,
            line: 0,
            col: 0,
            path: '',
            message: `config file not found (looked for ${absPath})`,
          }
        : {
            code: 'config.unreadable',
            file: path,
            line: 0,
            col: 0,
            path: '',
            message:
              code === 'EISDIR'
                ? 'expected a config file, found a directory'
                : `cannot read the config: ${unreadableReason(error) ?? error.message}`,
          };
    return { ok: false, issues: [issue] };
  }
  // Refused as a testset is: bytes that are not UTF-8 would be read as U+FFFD and compared, or
  // sent to a model, damaged. The text itself is decoded as before (a BOM kept for the parser).
  const encoding = utf8Issue(bytes, path);
  if (encoding !== undefined)
    return { ok: false, issues: [{ ...encoding, code: 'config.encoding' }] };
  const text = bytes.toString('utf8');
  return parseConfig(text, {
    file: path,
    absPath,
    env: options.env,
    builtins: options.builtins,
    ...(options.numericPinsAsWritten === true ? { numericPinsAsWritten: true } : {}),
  });
}

/**
 * Most problems reported for one config; the rest are counted. A config with a systematic
 * mistake (20,000 unknown keys) would otherwise print a line for each.
 */
export const MAX_CONFIG_ISSUES = 100;

/** Longest message or config path of an issue: a 1 MB value must not make a 1 MB error line. */
const MAX_ISSUE_TEXT = 500;

function sortIssues(issues: Issue[]): Issue[] {
  // Stable: problems at one place keep the order they were found in.
  const sorted = issues
    .map((issue, order) => ({ issue, order }))
    .sort((a, b) => a.issue.line - b.issue.line || a.issue.col - b.issue.col || a.order - b.order)
    .slice(0, MAX_CONFIG_ISSUES)
    .map(({ issue }) => ({
      ...issue,
      path: shorten(issue.path),
      message: shorten(issue.message),
    }));
  if (issues.length > MAX_CONFIG_ISSUES) {
    // No position: it is a count, not a problem at the place of the last one shown.
    sorted.push({
      code: 'config.too-many-issues',
      file: sorted[0]?.file ?? '',
      line: 0,
      col: 0,
      path: '',
      message: `${issues.length - MAX_CONFIG_ISSUES} more problems not shown (${issues.length} in all)`,
    });
  }
  return sorted;
}

function shorten(text: string): string {
  return text.length > MAX_ISSUE_TEXT ? `${text.slice(0, MAX_ISSUE_TEXT - 1)}…` : text;
}
