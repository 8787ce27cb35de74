/**
 * Where a long text is cut when only its start is shown. A leaf helper shared by the HTML report's
 * model (inputs, expected values) and its page (the output in a case's detail), so both cut alike.
 */

/**
 * The first `limit` UTF-16 units of `text`, one fewer when the cut would fall between the two
 * halves of a surrogate pair (an emoji): half of one shows as `�`, so it is left out whole.
 */
export function startOf(text: string, limit: number): string {
  const code = text.charCodeAt(limit - 1);
  const splitsPair = code >= 0xd800 && code <= 0xdbff && limit < text.length;
  return text.slice(0, splitsPair ? limit - 1 : limit);
}
