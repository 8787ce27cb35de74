import { isAbsolute, resolve } from 'node:path';
import { EvaluationError } from '../../shared/errors.ts';
import { hasTemplates, literalValue } from '../../shared/templates.ts';
import { markBaselineRecorded } from '../../shared/baseline-recorded.ts';
import type { EngineEvaluator, Evaluation } from '../../types/index.ts';
import { defineBuiltin } from '../define.ts';
import { ACTUAL_OPTION } from '../option-schemas.ts';
import { actualOf, optionalString, textOf } from '../options.ts';
import { BATTLE_OPTIONS, judgeBattle } from './battle.ts';
import {
  BaselineStore,
  baselineCaseKey,
  defaultBaselinePath,
  readBaselineFile,
  recordableValue,
  serializeBaselineFile,
} from './battle-baselines.ts';
import { writeFileAtomic } from '../../shared/write-file-atomic.ts';
import { JudgeCalls, requireChatJudge } from './calls.ts';

/** What the SDK's `BaseAutomaticBattle` calls option "file", for messages that reach its users. */
const SDK_FILE = 'baselinesFile on an SDK class';

/** The flag that lets a run change an existing baselines file. */
const UPDATE_FLAG = 'evals run --update-baselines';

/**
 * `automatic-battle`: the value under test against the one recorded for the same case in a
 * committed baselines file (see battle-baselines.ts). A case without a baseline is recorded when
 * the file may be written, and is an error when it may not. A recorded case gets no evaluation
 * (`unjudgedIfRecorded`), in evals.yaml as from the SDK's `BaseAutomaticBattle`: nothing was
 * compared, so it must not pass a threshold as a tie would. The default threshold passes a tie,
 * so the gate is "not reliably worse than the recorded answer".
 */
const battle = defineBuiltin({
  summary:
    'A judge model compares the output with the one recorded for the case in a baselines file: win 1, tie 0.5, loss 0.',
  calls: 'chat',
  // Each battle is judged twice, the answers swapped (battle.ts).
  callsPerCase: 2,
  optionsSchema: {
    type: 'object',
    properties: {
      file: {
        type: 'string',
        minLength: 1,
        description:
          'The baselines file, relative to the config folder. Default: battles/<suite id>/<evaluator id>.json. No templates.',
      },
      ...BATTLE_OPTIONS,
      actual: ACTUAL_OPTION,
    },
    additionalProperties: false,
  },
  defaultThreshold: { gte: 0.5 },
  validate(options) {
    return hasTemplates(options.file)
      ? [
          {
            path: 'file',
            message: 'the baselines file is one per evaluator: it cannot be a template',
          },
        ]
      : [];
  },
  prepare(options, context) {
    const judge = requireChatJudge(context, 'automatic-battle');
    const files = context.files;
    if (files === undefined) {
      throw new Error(
        'automatic-battle keeps its baselines in a file next to the config: it needs the run’s file settings (run it from evals.yaml)',
      );
    }
    const owner = { suite: files.suiteId, evaluator: context.id };
    const written = options.file;
    if (
      written !== undefined &&
      (typeof written !== 'string' || written === '' || hasTemplates(written))
    ) {
      throw new Error(
        `automatic-battle: option "file" (${SDK_FILE}) must be a path without templates`,
      );
    }
    // prepare() gets the options as written: a `\{{` in the path is read as `{{` here.
    const option = literalValue(written) as string | undefined;
    const shown = option ?? defaultBaselinePath(owner);
    if (shown === undefined) {
      throw new Error(
        `automatic-battle: suite "${owner.suite}" or evaluator "${owner.evaluator}" is not a safe file name; set option "file" (${SDK_FILE})`,
      );
    }
    const path = isAbsolute(shown) ? shown : resolve(files.configDir, shown);
    const existing = readBaselineFile(path, shown, owner, context.scrub);
    // In CI the file a first run records stays on the runner, and every case is recorded again
    // (a pass) run after run: a missing file is then an error for each case, as a missing
    // baseline is, unless the run was asked to record (`--update-baselines`).
    const unrecorded =
      existing === undefined && files.noFirstRecording !== undefined && !files.updateBaselines
        ? files.noFirstRecording
        : undefined;
    const store = new BaselineStore({
      owner,
      existing,
      updateBaselines: files.updateBaselines,
      noFirstRecording: unrecorded !== undefined,
    });
    // A store that may not write registers nothing: there is then no path to a write at all.
    if (store.writable) {
      files.onRunEnd(async () => {
        const changed = store.changedFile();
        if (changed === undefined) return undefined;
        try {
          await writeFileAtomic(path, serializeBaselineFile(changed));
        } catch (error) {
          throw new Error(
            `automatic-battle: cannot write the baselines file ${shown}: ${(error as Error).message}`,
            { cause: error },
          );
        }
        const first = store.firstRecorded();
        return first === 0
          ? undefined
          : `${context.id} recorded the first baseline of ${first} ${first === 1 ? 'case' : 'cases'} in ${shown}`;
      });
    }
    const update = files.updateHint ?? `run \`${files.updateCommand ?? UPDATE_FLAG}\``;
    return { judge, store, shown, update, unrecorded };
  },
  async score(values, args, { judge, store, shown, update, unrecorded }, cut): Promise<Evaluation> {
    let caseKey: string;
    try {
      caseKey = baselineCaseKey(args.testCase, args.params);
    } catch (error) {
      throw new EvaluationError(
        `cannot key this case for its baseline: ${(error as Error).message}`,
      );
    }
    const actual = actualOf(values, args);
    const baseline = store.baseline(caseKey);
    if (baseline === undefined) {
      if (unrecorded !== undefined) {
        throw new EvaluationError(
          `no baseline for this case: ${shown} does not exist, and ${unrecorded} does not record it; ${update} and commit the file`,
          { metadata: { caseKey } },
        );
      }
      if (!store.writable) {
        throw new EvaluationError(
          `no baseline is recorded for this case in ${shown}: ${update} to record it`,
          { metadata: { caseKey } },
        );
      }
      const value = recordableValue(actual);
      if (!value.ok) {
        throw new EvaluationError(
          `cannot record the value under test as a baseline: ${value.error}`,
          {
            metadata: { caseKey },
          },
        );
      }
      store.record(caseKey, value.value);
      // Not an evaluation: the callers drop it (`unjudgedIfRecorded`); the score is never read.
      return { score: 0.5, metadata: { recorded: true, caseKey } };
    }
    const question = optionalString(values, 'question');
    const criteria = optionalString(values, 'criteria');
    const result = await judgeBattle(new JudgeCalls(judge, args.signal, cut), judge.model, {
      output: textOf(actual),
      baseline: textOf(baseline.output),
      ...(question !== undefined ? { question } : {}),
      ...(criteria !== undefined ? { criteria } : {}),
    });
    // Only with --update-baselines (else the store is not writable): a baseline that lost to
    // the new output is replaced by it, so the file keeps the best answer seen so far and a
    // later regression is measured against it, not against the output that regressed.
    let replaced: Record<string, unknown> = {};
    if (result.score === 1 && store.writable) {
      const value = recordableValue(actual);
      // The battle itself is still worth reporting when the output cannot be stored.
      replaced = value.ok
        ? { baselineReplaced: store.record(caseKey, value.value) }
        : { baselineReplaced: false, notReplacedBecause: value.error };
    }
    return { ...result, metadata: { ...result.metadata, caseKey, ...replaced } };
  },
});

/**
 * What an automatic battle gives for a case: its evaluation, or none when the scorer recorded the
 * case's first baseline instead of judging it, with the call's arguments marked so, so that the
 * run tells that case from one skipped (`recordedBaseline` in the results; the gate's `judged`
 * excuses it, run/gate.ts). The one path of the YAML built-in and of the SDK's
 * `BaseAutomaticBattle`: a recorded case scored as a tie would pass `gte: 0.5` on a run that
 * compared nothing.
 */
export function unjudgedIfRecorded(evaluation: Evaluation, args: object): Evaluation | undefined {
  if (evaluation.metadata?.recorded !== true) return evaluation;
  markBaselineRecorded(args);
  return undefined;
}

export const automaticBattle: typeof battle = {
  ...battle,
  create(options, context): EngineEvaluator {
    const evaluator = battle.create(options, context);
    return {
      ...evaluator,
      // No evaluation is typed away here only: the engine accepts `undefined` at run time.
      evaluateTestCase: async (args) =>
        unjudgedIfRecorded(await evaluator.evaluateTestCase(args), args) as Evaluation,
    };
  },
};
