/**
 * `split:` on a testset: list cells stored as joined text (a Judgment `retrieval_context`
 * exported to CSV as `a;b;c`) become lists again before the case reaches the function and the
 * evaluators. Identity and the revision are computed first, over the rows as the file holds them.
 */

/**
 * `data` with each column named in `split` cut on its separator: pieces trimmed, empty ones
 * dropped. A cell that is not a string (already a list, a number) or an absent column is left
 * as it is. Returns `data` itself when nothing changes.
 */
export function splitListCells(
  data: Record<string, unknown>,
  split: Readonly<Record<string, string>>,
): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const [column, separator] of Object.entries(split)) {
    const cell = Object.hasOwn(data, column) ? data[column] : undefined;
    if (typeof cell !== 'string' || separator === '') continue;
    copy ??= { ...data };
    copy[column] = cell
      .split(separator)
      .map((piece) => piece.trim())
      .filter((piece) => piece !== '');
  }
  return copy ?? data;
}
