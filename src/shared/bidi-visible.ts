/**
 * The bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): shown raw,
 * they reorder the text around them, so an output can read as something it is not
 * (CVE-2021-42574).
 */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text as the HTML report shows it: each bidirectional control written out as `<U+202E>`, so a
 * reader sees that one is there and the text keeps its order. Only what is shown changes; the
 * report's data, the search and `data-id` keep the text as the artifact holds it. One rule for
 * the page script (report-app/) and the page's `<title>`, written before any script runs.
 */
export function visible(text: string): string {
  return text.replace(BIDI, (char) => `<U+${char.charCodeAt(0).toString(16).toUpperCase()}>`);
}
