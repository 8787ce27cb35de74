/**
 * `runTestSuite`'s `gate`, checked with the other arguments as evals.yaml's `gate:` is by its
 * schema and rules. The engine reads a bound it does not know (`{ ge: 0.7 }`) or one left
 * `undefined` (`{ gte: cfg.minMean }` with the setting missing) as no bound, and a rule or key it
 * does not know (`meen`, `minPassRat`) not at all: each would pass a gate that checked nothing.
 */
import { percentageHint } from '../shared/percentage-hint.ts';
import { isRecord } from '../shared/is-record.ts';
import { closestMatch } from '../config/did-you-mean.ts';
import { impossibleRange } from '../config/threshold.ts';
import { checkThreshold } from '../run/evaluation.ts';
import { describeValue } from '../shared/errors.ts';
import { gridValueText } from '../shared/grid-value-text.ts';
import schema from '../../schemas/evals.schema.json' with { type: 'json' };

/** `regressions` and `minDetectableEffect` as evals.yaml's schema allows them. */
const GATE_SCHEMA = schema.definitions.gate.properties;
const REGRESSIONS: readonly string[] = GATE_SCHEMA.regressions.enum;
const EFFECT = GATE_SCHEMA.minDetectableEffect;

/** One problem: the place it names (its issue's path) and the whole message. */
export interface GateProblem {
  path: string;
  message: string;
}

/** Every key of `GateSpec`. */
const GATE_KEYS = [
  'minPassRate',
  'evaluators',
  'regressions',
  'removedEvaluators',
  'removedGridValues',
  'minDetectableEffect',
  'allowEmpty',
];
/** The rules of one evaluator in `gate.evaluators`. */
const RULES = ['mean', 'passRate', 'agreement'];

/**
 * Every problem with `gate`, `[]` when there is none. `evaluatorIds` are the suite's evaluators'
 * ids, `null` when the evaluators themselves are wrong (their own problems say so). `scrub`
 * removes the run's secrets from a value a problem quotes, before it is cut.
 */
export function gateProblems(
  gate: unknown,
  evaluatorIds: readonly string[] | null,
  scrub: (text: string) => string,
): GateProblem[] {
  if (gate === undefined) return [];
  if (!isRecord(gate)) {
    return [
      {
        path: 'gate',
        message: `gate must be an object ({ minPassRate?, evaluators? }), got ${describeValue(gate, scrub)}`,
      },
    ];
  }
  const problems: GateProblem[] = [];
  for (const key of Object.keys(gate)) {
    if (GATE_KEYS.includes(key)) continue;
    problems.push({
      path: `gate.${key}`,
      message: `gate: unknown key ${key}${hint(key, GATE_KEYS)}`,
    });
  }
  const rate = gate.minPassRate;
  if (rate !== undefined && !(typeof rate === 'number' && rate >= 0 && rate <= 1)) {
    problems.push({
      path: 'gate.minPassRate',
      message: `gate.minPassRate must be a share of cases from 0 to 1, got ${describeValue(rate, scrub)}${percentageHint(rate)}`,
    });
  }
  problems.push(...comparisonProblems(gate, scrub));
  const { evaluators } = gate;
  if (evaluators === undefined) return problems;
  if (!isRecord(evaluators)) {
    problems.push({
      path: 'gate.evaluators',
      message: `gate.evaluators must be an object of evaluator id → bounds, got ${describeValue(evaluators, scrub)}`,
    });
    return problems;
  }
  for (const [id, rules] of Object.entries(evaluators)) {
    problems.push(
      ...evaluatorRuleProblems(`gate.evaluators.${id}`, id, rules, evaluatorIds, scrub),
    );
  }
  return problems;
}

/**
 * `regressions`, `removedEvaluators` and `minDetectableEffect`, which only a comparison with a
 * baseline reads: a misspelt `regressions: 'blok'` would let a regression through as a warning.
 */
function comparisonProblems(
  gate: Record<string, unknown>,
  scrub: (text: string) => string,
): GateProblem[] {
  const problems: GateProblem[] = [];
  const { regressions, minDetectableEffect: effect } = gate;
  if (regressions !== undefined && !REGRESSIONS.includes(regressions as string)) {
    const near =
      typeof regressions === 'string' ? closestMatch(regressions, REGRESSIONS) : undefined;
    problems.push({
      path: 'gate.regressions',
      message: `gate.regressions must be ${oneOf(REGRESSIONS)}, got ${describeValue(regressions, scrub)}${near !== undefined ? `: did you mean ${JSON.stringify(near)}?` : ''}`,
    });
  }
  if (
    effect !== undefined &&
    !(typeof effect === 'number' && effect > EFFECT.exclusiveMinimum && effect <= EFFECT.maximum)
  ) {
    problems.push({
      path: 'gate.minDetectableEffect',
      message: `gate.minDetectableEffect must be a number above ${EFFECT.exclusiveMinimum} and at most ${EFFECT.maximum}, got ${describeValue(effect, scrub)}`,
    });
  }
  const removed = removedEvaluatorsProblem(gate.removedEvaluators, scrub);
  if (removed !== undefined) problems.push({ path: 'gate.removedEvaluators', message: removed });
  const values: unknown = gate.removedGridValues;
  if (
    values !== undefined &&
    !(
      values !== null &&
      typeof values === 'object' &&
      !Array.isArray(values) &&
      Object.values(values).every((list) => Array.isArray(list) && list.length > 0)
    )
  ) {
    problems.push({
      path: 'gate.removedGridValues',
      message: `gate.removedGridValues must map each grid key to a list of at least one value ({ model: ['large'] }), got ${describeValue(values, scrub)}`,
    });
  }
  return problems;
}

/**
 * What is wrong with `removedEvaluators`, as evals.yaml's schema refuses it (`minItems: 1`,
 * `uniqueItems`): a list of distinct non-empty ids, at least one.
 */
function removedEvaluatorsProblem(
  removed: unknown,
  scrub: (text: string) => string,
): string | undefined {
  if (removed === undefined) return undefined;
  const at = 'gate.removedEvaluators must be';
  if (!(
    Array.isArray(removed) &&
    removed.every((id): id is string => typeof id === 'string' && id !== '')
  )) {
    return `${at} a list of evaluator ids, got ${describeValue(removed, scrub)}`;
  }
  if (removed.length === 0) {
    return `${at} a list of at least one evaluator id (leave it out when none was removed), got ${describeValue(removed, scrub)}`;
  }
  const twice = removed.find((id, i) => removed.indexOf(id) !== i);
  if (twice !== undefined) {
    return `${at} a list of distinct evaluator ids, got ${JSON.stringify(twice)} twice`;
  }
  return undefined;
}

/**
 * The entries of `gate.removedEvaluators` that are evaluators of this suite, and of
 * `gate.removedGridValues` that its `gridSearchParams` still has under that key, as evals.yaml
 * refuses them: each accepts nothing (the id or value is still here, so it was never gone) and
 * is most likely the new name where the baseline's old one belongs, so a rename the author
 * meant to accept would fail `regressions: block` with a message that says to do what was done.
 * Values compare as `--grid` and the gate read them: `0` and `"0"` are one value.
 */
export function removedStillHereProblems(
  gate: unknown,
  evaluatorIds: readonly string[] | null,
  grid: unknown,
): GateProblem[] {
  if (!isRecord(gate)) return [];
  const problems: GateProblem[] = [];
  const { removedEvaluators: ids, removedGridValues: values } = gate;
  if (Array.isArray(ids) && evaluatorIds !== null) {
    ids.forEach((id: unknown, i) => {
      if (typeof id !== 'string' || !evaluatorIds.includes(id)) return;
      const at = `gate.removedEvaluators[${i}]`;
      problems.push({
        path: at,
        message: `${at}: expected the id of an evaluator this suite no longer has, found ${JSON.stringify(id)}, an evaluator of this suite (evaluators[${evaluatorIds.indexOf(id)}]): list the id the evaluator had in the baseline (a renamed evaluator's old id), or drop the entry`,
      });
    });
  }
  if (!isRecord(values) || !isRecord(grid)) return problems;
  for (const [key, list] of Object.entries(values)) {
    const current = grid[key];
    if (!Array.isArray(list) || !Array.isArray(current)) continue;
    const texts = current.map((value) => gridValueText(value));
    list.forEach((value: unknown, i) => {
      const found = texts.indexOf(gridValueText(value));
      if (found === -1) return;
      const at = `gate.removedGridValues.${key}[${i}]`;
      problems.push({
        path: at,
        message: `${at}: expected a value of ${key} this suite's grid no longer has, found ${JSON.stringify(value)}, a value of its grid (gridSearchParams.${key}[${found}]): list the value ${key} had in the baseline (a renamed value's old spelling), or drop the entry`,
      });
    });
  }
  return problems;
}

/** `"a", "b" or "c"`. */
function oneOf(values: readonly string[]): string {
  const quoted = values.map((value) => JSON.stringify(value));
  return `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1) ?? ''}`;
}

/** The problems of one entry of `gate.evaluators`, at `at`. */
function evaluatorRuleProblems(
  at: string,
  id: string,
  rules: unknown,
  evaluatorIds: readonly string[] | null,
  scrub: (text: string) => string,
): GateProblem[] {
  const problems: GateProblem[] = [];
  if (evaluatorIds !== null && !evaluatorIds.includes(id)) {
    // The run would fail it as `no scores`; evals.yaml refuses it before the run.
    const near = closestMatch(id, evaluatorIds);
    const known =
      near !== undefined
        ? `did you mean ${JSON.stringify(near)}?`
        : evaluatorIds.length > 0
          ? `the suite's evaluators are ${evaluatorIds.map((e) => JSON.stringify(e)).join(', ')}`
          : 'the suite has no evaluators';
    problems.push({
      path: at,
      message: `${at}: no evaluator ${JSON.stringify(id)} in this suite (${known})`,
    });
  }
  if (!isRecord(rules) || Object.keys(rules).length === 0) {
    problems.push({
      path: at,
      message: `${at} must be an object of mean, passRate or agreement bounds ({ mean: { gte: 0.8 } }), got ${describeValue(rules, scrub)}`,
    });
    return problems;
  }
  for (const [rule, value] of Object.entries(rules)) {
    if (!RULES.includes(rule)) {
      problems.push({
        path: `${at}.${rule}`,
        message: `${at}: unknown rule ${rule}${hint(rule, RULES)}`,
      });
    } else if (rule === 'agreement') {
      // Agreement is with human labels in a testset column (evals.yaml's `agreement:`), which an
      // evaluator of runTestSuite cannot have: the rule could only fail.
      problems.push({
        path: `${at}.agreement`,
        message: `${at}.agreement needs human labels in a testset column (an evaluator's agreement: in evals.yaml), which runTestSuite's evaluators do not have: gate on mean or passRate`,
      });
    } else {
      const problem = boundProblem(value);
      if (problem !== null)
        problems.push({ path: `${at}.${rule}`, message: placed(`${at}.${rule}`, problem) });
    }
  }
  return problems;
}

/** What is wrong with a mean or pass-rate bound (both in [0, 1]), or `null`. */
function boundProblem(value: unknown): string | null {
  const checked = checkThreshold(value);
  return checked.ok ? impossibleRange(checked.threshold) : checked.problem;
}

/** A threshold problem (`threshold.gte is undefined: …`) at the rule it belongs to. */
function placed(at: string, problem: string): string {
  return problem.startsWith('threshold.')
    ? `${at}${problem.slice('threshold'.length)}`
    : `${at}: ${problem}`;
}

/** `: did you mean X?` for a misspelt name, else the names there are. */
function hint(name: string, known: readonly string[]): string {
  const near = closestMatch(name, known);
  return near !== undefined ? `: did you mean ${near}?` : ` (the keys are ${known.join(', ')})`;
}
