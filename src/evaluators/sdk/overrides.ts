/**
 * The human overrides a `BaseLLMJudge` hands `makePrompt`, in the Autoblocks SDK's shape: its
 * scores are the judge's own choices, its fields and comments lists of objects. The store
 * (judges/overrides.ts) keeps what `evals override` knows, so each entry is turned into that
 * shape here; a prompt written against the SDK then reads them as it did
 * (`o.inputFields.map((f) => f.name)`, `o.overrideScore.name`).
 */
import type { OverrideEntry } from '../judges/overrides.ts';

/** One answer a `BaseLLMJudge` may give, and its score. */
export interface ScoreChoice {
  name: string;
  value: number;
}

/** A field of the overridden case (`inputFields`) or of its output (`outputFields`). */
export interface EvaluationOverrideField {
  /** The field's name (`output` for the output): there is no server to number fields. */
  id: string;
  name: string;
  value: string;
}

/** A reviewer's remark. `evals override --reason` gives one, on the output field. */
export interface EvaluationOverrideComment {
  /** The `id` of the field it is about. */
  fieldId: string;
  /** The text it points at: empty, since `--reason` is about the output as a whole. */
  quotedText: string;
  commentText: string;
}

/** A human's correction of a judge's verdict, as the SDK's `makePrompt` receives it. */
export interface EvaluationOverride {
  originalScore: ScoreChoice;
  overrideScore: ScoreChoice;
  inputFields: EvaluationOverrideField[];
  outputFields: EvaluationOverrideField[];
  comments: EvaluationOverrideComment[];
}

const fields = (texts: Readonly<Record<string, string>>): EvaluationOverrideField[] =>
  Object.entries(texts).map(([name, value]) => ({ id: name, name, value }));

/**
 * `entries` in the SDK's shape, in their order. As in the SDK, a score is named by the choice
 * of that value in `choices` (the judge's choices now, not when the override was made), and an
 * entry whose original or override score no choice has is left out: the choices changed since.
 */
export function sdkOverrides(
  entries: readonly OverrideEntry[],
  choices: readonly ScoreChoice[],
): EvaluationOverride[] {
  const choiceOf = (value: number): ScoreChoice | undefined => {
    const found = choices.find((choice) => choice.value === value);
    return found !== undefined ? { name: found.name, value: found.value } : undefined;
  };
  return entries.flatMap((entry) => {
    const originalScore = choiceOf(entry.originalScore.value);
    const overrideScore = choiceOf(entry.overrideScore.value);
    if (originalScore === undefined || overrideScore === undefined) return [];
    const outputFields = fields(entry.outputFields);
    const about = outputFields[0]?.id ?? 'output';
    const comments =
      entry.comments !== undefined
        ? [{ fieldId: about, quotedText: '', commentText: entry.comments }]
        : [];
    return [
      {
        originalScore,
        overrideScore,
        inputFields: fields(entry.inputFields),
        outputFields,
        comments,
      },
    ];
  });
}
