/** What changed from one text to another, as the case detail shows it. */
import { diffLines, diffWords } from 'diff';
import { el, visible } from './dom.ts';

/** Past this many characters on a side, the diff is by line: word diffs grow quadratically. */
const WORD_DIFF_LIMIT = 4000;

/**
 * `before` → `after` in a `pre` of id `id`: removed text struck through, added text
 * underlined, what both share as it is (its invisible characters shown).
 */
export function diffView(before: string, after: string, id: string): HTMLElement {
  const long = before.length > WORD_DIFF_LIMIT || after.length > WORD_DIFF_LIMIT;
  const changes = long ? diffLines(before, after) : diffWords(before, after);
  const pre = el('pre', { id, class: 'diff' });
  for (const change of changes) {
    pre.append(
      change.added
        ? el('ins', {}, change.value)
        : change.removed
          ? el('del', {}, change.value)
          : document.createTextNode(visible(change.value)),
    );
  }
  return pre;
}
