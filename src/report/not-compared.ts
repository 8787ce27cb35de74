/**
 * What every report says when a baseline was asked for and the results were not compared with
 * it (it shares no case with the run, cannot be read, or the Action's `baseline: auto` found
 * none): a green verdict then says nothing about regressions, and must not read as "none".
 */

/** The sentence, with `why` (a message that may end in a period) as its reason. */
export function notComparedSentence(why: string): string {
  return `Not compared with a baseline, so regressions were not checked: ${why.replace(/\.\s*$/, '')}.`;
}

/** The sentence as a terminal's warning line (without its line break). */
export function notComparedWarning(why: string): string {
  const sentence = notComparedSentence(why);
  return `warning: ${sentence.charAt(0).toLowerCase()}${sentence.slice(1)}`;
}
