/**
 * The Action's inputs, read once, here, into a typed settings object: nothing below `action/`
 * calls `core.getInput`. Each input is documented in action.yml.
 */
import { isAbsolute, resolve } from 'node:path';
import { legOf } from '../github/check-run-origin.ts';
import { DEFAULT_RESULTS, reportPathFor } from '../shared/report-path.ts';

/** `max-annotations` when not given: ten requests' worth. */
export const DEFAULT_MAX_ANNOTATIONS = 500;

/** Reads one input as the runner passes it (`INPUT_<NAME>`); '' when unset. */
export type InputReader = (name: string) => string;

export interface ActionSettings {
  /** Config path, relative to `workingDirectory`. */
  config: string;
  /** Absolute folder the run happens in. */
  workingDirectory: string;
  /** Absolute path of the results artifact to write. */
  results: string;
  /**
   * Absolute path of the HTML report written next to the results and named after them
   * ({@link reportPathFor}), or null when the `report` input is false. Written in `mode: run`
   * only, and only when `args` names no `--report` of its own.
   */
  report: string | null;
  /**
   * What to compare against: nothing, an earlier results file, or (`auto`) the newest results
   * artifact uploaded from the pull request's base branch.
   */
  baseline: { kind: 'none' } | { kind: 'file'; path: string } | { kind: 'auto' };
  /** Name of the uploaded results artifact that `baseline: auto` looks for. */
  artifactName: string;
  token: string;
  comment: boolean;
  checkRun: boolean;
  /**
   * Annotations the check run gets at most, the first in path and line order. Each 50 is one API
   * request, and GitHub allows a token ~80 such writes a minute: a PR that breaks every case of
   * a large suite would otherwise send thousands.
   */
  maxAnnotations: number;
  /** `gate`: the step fails when the verdict is fail; `never`: the step never fails on the verdict. */
  failOn: 'gate' | 'never';
  /** Extra `evals run` arguments (`--suite a --grid model=large`), split like a shell would. */
  args: string[];
  /**
   * `run`: run the evals, then report. `report`: only report an existing `results` artifact (the
   * privileged half of the fork-safe two-workflow pattern: it never runs the PR's code).
   */
  mode: 'run' | 'report';
  /** The pull request to comment on when the event has none (a `workflow_run`). */
  prNumber: number | null;
  /** The commit the check run belongs to when the event does not say (a `workflow_run`). */
  headSha: string | null;
  /**
   * What tells this report apart from the others on the pull request (matrix legs, shards): its
   * check run is `evals: <name>` and its comment is its own. '' for the default, the config and
   * the `args` (`report-identity.ts`).
   */
  name: string;
  /**
   * Shortens every wait for GitHub and the one-minute budget alike, from the environment
   * variable `EVALGATE_GITHUB_RETRY_SCALE` (a number in (0, 1]); 1 unless a test sets it.
   */
  retryScale: number;
  /**
   * Which leg of a matrix job this step is, as far as its inputs tell: a hash of {@link LEG_INPUTS}
   * as the workflow wrote them, recorded in the check run's `external_id` so that a re-run of one
   * leg replaces only that leg's own earlier pass (`check-run-origin.ts`).
   */
  leg: string;
}

/**
 * The inputs a matrix leg is told apart by: what it runs and where it reports. Not the token,
 * nor inputs that only say how to publish. The runner's operating system is recorded beside
 * them (`check-run-origin.ts`); a leg that differs from another in none of these (only in an
 * environment variable, or the runner's architecture) cannot be told apart from it.
 */
export const LEG_INPUTS: readonly string[] = [
  'working-directory',
  'config',
  'args',
  'name',
  'results',
  'mode',
  'baseline',
  'artifact-name',
];

/**
 * The settings, or every bad input with `fallback`: the settings as far as they could be read
 * (each bad value replaced by its default), enough to post a failed check run that says why. A
 * `check-run` or `comment` input that is itself bad is taken as false there: whether it asked
 * for one is not known.
 */
export type SettingsResult =
  | { ok: true; settings: ActionSettings }
  | { ok: false; errors: string[]; fallback: ActionSettings };

/** The environment variable that shortens the Action's waits for GitHub, for its own tests. */
export const RETRY_SCALE_ENV = 'EVALGATE_GITHUB_RETRY_SCALE';

/** The HTML report's path: one rule with `evals report`'s default (shared/report-path.ts). */
export { REPORT_FILE, reportPathFor } from '../shared/report-path.ts';

/**
 * Builds the settings from the inputs (and `EVALGATE_GITHUB_RETRY_SCALE` from `env`); every bad
 * input is reported, quoting the value.
 */
export function readSettings(
  input: InputReader,
  workspace: string,
  env: NodeJS.ProcessEnv = {},
): SettingsResult {
  const errors: string[] = [];
  const badBooleans = new Set<string>();
  const workingDirectory = resolve(workspace, input('working-directory') || '.');
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = input(name).trim().toLowerCase();
    if (raw === '') return fallback;
    if (['true', 'yes', '1', 'on'].includes(raw)) return true;
    if (['false', 'no', '0', 'off'].includes(raw)) return false;
    errors.push(`input ${name}: expected true or false, found ${JSON.stringify(input(name))}`);
    badBooleans.add(name);
    return fallback;
  };
  // Words are matched as the booleans are, whatever their case (`Never`, `REPORT`).
  const failOnRaw = input('fail-on').trim().toLowerCase() || 'gate';
  if (failOnRaw !== 'gate' && failOnRaw !== 'never') {
    errors.push(`input fail-on: expected gate or never, found ${JSON.stringify(failOnRaw)}`);
  }
  const modeRaw = input('mode').trim().toLowerCase() || 'run';
  if (modeRaw !== 'run' && modeRaw !== 'report') {
    errors.push(`input mode: expected run or report, found ${JSON.stringify(modeRaw)}`);
  }
  const prRaw = input('pr-number').trim();
  const prNumber = prRaw === '' ? null : wholeNumber(prRaw);
  if (prNumber !== null && !(Number.isInteger(prNumber) && prNumber > 0)) {
    errors.push(`input pr-number: expected a pull request number, found ${JSON.stringify(prRaw)}`);
  }
  const maxRaw = input('max-annotations').trim();
  const maxAnnotations = maxRaw === '' ? DEFAULT_MAX_ANNOTATIONS : wholeNumber(maxRaw);
  if (!(Number.isInteger(maxAnnotations) && maxAnnotations >= 0)) {
    errors.push(
      `input max-annotations: expected a whole number of annotations (0 or more), found ${JSON.stringify(maxRaw)}`,
    );
  }
  // GitHub names a commit by its full sha: a check run goes on that exact string, and the
  // workflow_run check compares with it. Git writes it in lower case; so is a pasted upper one.
  const headShaRaw = input('head-sha').trim();
  const headSha = headShaRaw.toLowerCase();
  if (headSha !== '' && !/^[0-9a-f]{40}$/.test(headSha)) {
    errors.push(
      `input head-sha: expected a full 40-character commit sha, found ${JSON.stringify(headShaRaw)}${shaHint(headSha)}`,
    );
  }
  const name = input('name').replace(/\s+/g, ' ').trim();
  const scaleRaw = (env[RETRY_SCALE_ENV] ?? '').trim();
  const retryScale = scaleRaw === '' ? 1 : Number(scaleRaw);
  if (!(retryScale > 0 && retryScale <= 1)) {
    errors.push(
      `environment variable ${RETRY_SCALE_ENV}: expected a number above 0 and at most 1, found ${JSON.stringify(scaleRaw)}`,
    );
  }
  const args = splitArgs(input('args'));
  if (!args.ok) errors.push(`input args: ${args.error}`);
  // A gate must run what its pins say: --ignore-pin is for local work only.
  if (
    args.ok &&
    args.value.some((arg) => arg === '--ignore-pin' || arg.startsWith('--ignore-pin='))
  ) {
    errors.push(
      'input args: --ignore-pin is refused here: a pull request is gated on the pinned testsets (pin the current rows with evals testset pin, and commit the config)',
    );
  }
  // The results file is the `results` input's: the outputs, the comment and the upload step
  // all name it, so an `-o` in `args` would be written nowhere anyone looks.
  const output = args.ok ? args.value.find((arg) => /^(-o|--output)(=|$)/.test(arg)) : undefined;
  if (output !== undefined) {
    errors.push(
      `input args: ${JSON.stringify(output)} is refused here: the results file is the results input (results: other.json), which the outputs and the report name`,
    );
  }
  // The Action has no help to print: a --help would run the evals as if it were not there.
  const help = args.ok ? args.value.find((arg) => arg === '--help' || arg === '-h') : undefined;
  if (help !== undefined) {
    errors.push(
      `input args: ${help} is refused here: the Action's inputs are listed in its action.yml, and args takes evals run options`,
    );
  }
  const path = (value: string): string =>
    isAbsolute(value) ? value : resolve(workingDirectory, value);
  // `auto` in any case, as the other words are read; a file of that name is `./auto`.
  const baseline = input('baseline').trim();
  const results = path(input('results').trim() || DEFAULT_RESULTS);
  const settings: ActionSettings = {
    config: input('config').trim() || 'evals.yaml',
    workingDirectory,
    results,
    report: bool('report', true) ? reportPathFor(results) : null,
    baseline:
      baseline === ''
        ? { kind: 'none' }
        : baseline.toLowerCase() === 'auto'
          ? { kind: 'auto' }
          : { kind: 'file', path: path(baseline) },
    artifactName: input('artifact-name').trim() || 'evals-results',
    token: input('github-token'),
    comment: bool('comment', true),
    checkRun: bool('check-run', true),
    maxAnnotations:
      Number.isInteger(maxAnnotations) && maxAnnotations >= 0
        ? maxAnnotations
        : DEFAULT_MAX_ANNOTATIONS,
    failOn: failOnRaw === 'never' ? 'never' : 'gate',
    args: args.ok ? args.value : [],
    mode: modeRaw === 'report' ? 'report' : 'run',
    prNumber: prNumber !== null && Number.isInteger(prNumber) && prNumber > 0 ? prNumber : null,
    headSha: headSha === '' ? null : headSha,
    name,
    retryScale: retryScale > 0 && retryScale <= 1 ? retryScale : 1,
    leg: legOf(LEG_INPUTS.map((key) => input(key).trim())),
  };
  if (errors.length === 0) return { ok: true, settings };
  const fallback = {
    ...settings,
    checkRun: settings.checkRun && !badBooleans.has('check-run'),
    comment: settings.comment && !badBooleans.has('comment'),
    // Not a commit's sha: the check run goes on the event's commit instead (in a workflow_run,
    // the triggering run's), never on a name GitHub may resolve to another commit.
    headSha: /^[0-9a-f]{40}$/.test(headSha) ? headSha : null,
  };
  return { ok: false, errors, fallback };
}

/**
 * Splits `--suite "my suite" --grid model=large` into words: whitespace separates, single and
 * double quotes group, a backslash escapes the next character. No expansion of any kind.
 */
export function splitArgs(
  text: string,
): { ok: true; value: string[] } | { ok: false; error: string } {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? '';
    if (quote !== null) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"' && i + 1 < text.length) word += text[++i];
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote !== null)
    return { ok: false, error: `unclosed ${quote} quote in ${JSON.stringify(text)}` };
  if (inWord) words.push(word);
  return { ok: true, value: words };
}

/** A whole number written in digits only (`0x10`, `1e3` and `+5` are not), else NaN. */
function wholeNumber(text: string): number {
  return /^\d+$/.test(text) ? Number(text) : Number.NaN;
}

/** Why a `head-sha` that looks like a commit id is not one GitHub takes, or ''. */
function shaHint(value: string): string {
  if (/^[0-9a-f]{64}$/.test(value)) {
    return ' (a 64-character SHA-256 object id: GitHub hosts SHA-1 repositories only, whose commits have 40-character shas)';
  }
  if (/^[0-9a-f]{4,39}$/.test(value)) {
    return ` (an abbreviated sha of ${value.length} characters: GitHub needs the full one, e.g. \${{ github.event.pull_request.head.sha }} or the output of git rev-parse HEAD)`;
  }
  return '';
}
