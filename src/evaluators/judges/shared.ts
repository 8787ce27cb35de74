/**
 * Pieces the judge built-ins share: their common options, how texts are laid out in a judge
 * prompt, and the metadata a verdict leaves behind.
 */
import type { Evaluation } from '../../types/index.ts';
import { JUDGE_REASON_LIMIT, type MetadataCut } from '../metadata.ts';
import { JudgeCalls, type ChatJudge } from './calls.ts';

/** The `question` option: what the function under test was asked, for context. */
export const QUESTION_OPTION = {
  type: 'string',
  description:
    'What the function under test was asked, shown to the judge for context, e.g. "{{case.question}}". Default: none.',
} as const;

/**
 * A text the judge should read as data, fenced by a named tag. Fencing keeps an output that
 * itself contains instructions from blending into ours; a closing tag inside the text is
 * defused so the text cannot end its own fence early.
 */
export function fenced(tag: string, text: string): string {
  const defused = text.split(`</${tag}>`).join(`<\\/${tag}>`);
  return `<${tag}>\n${defused}\n</${tag}>`;
}

/** Prompt blocks in order, absent ones left out, separated by a blank line. */
export function joinBlocks(blocks: readonly (string | undefined)[]): string {
  return blocks.filter((block): block is string => block !== undefined).join('\n\n');
}

/**
 * What one verdict explains, sized for the results artifact by `cut` (the built-in's, which
 * removes the run's secrets before it cuts: the reason may quote the output).
 */
export function verdictMetadata(
  verdict: { choice: string; reason: string },
  cut: MetadataCut,
): { choice: string; reason: string } {
  return { choice: verdict.choice, reason: cut(verdict.reason, JUDGE_REASON_LIMIT) };
}

/**
 * The evaluation of a judge that picks one of `scores`' names: its score, the verdict as
 * metadata, and the usage. Failures throw `EvaluationError` (see `JudgeCalls.choose`). `cut` is
 * the built-in's (see {@link verdictMetadata}).
 */
export async function gradedVerdict(
  judge: ChatJudge,
  signal: AbortSignal | undefined,
  question: { system?: string; prompt: string; scores: Readonly<Record<string, number>> },
  cut: MetadataCut,
): Promise<Evaluation> {
  const calls = new JudgeCalls(judge, signal, cut);
  const verdict = await calls.choose(judge.model, {
    ...(question.system !== undefined ? { system: question.system } : {}),
    prompt: question.prompt,
    choices: Object.keys(question.scores),
  });
  return {
    score: question.scores[verdict.choice] ?? 0,
    metadata: verdictMetadata(verdict, cut),
    usage: calls.usage,
  };
}
