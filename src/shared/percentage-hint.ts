/**
 * A share (a pass rate, a threshold: 0 to 1) written as a percentage, `minPassRate: 90` or
 * `'90%'`, is the slip to expect where one is asked for: what to add to the refusal, saying what
 * to write instead, or '' for any other value. Only a whole number from 2 to 100 is taken for a
 * percentage: 1.5 is as likely a score off the scale as one and a half per cent.
 */
export function percentageHint(value: unknown): string {
  const percent =
    typeof value === 'number' && Number.isInteger(value) && value >= 2 && value <= 100
      ? value
      : typeof value === 'string'
        ? percentText(value)
        : undefined;
  return percent === undefined ? '' : ` (not a percentage: write ${percent / 100} for ${percent}%)`;
}

/** `'90%'` → 90; undefined for text that is not a percentage from 0 to 100. */
function percentText(text: string): number | undefined {
  const match = /^\s*(\d{1,3}(?:\.\d+)?)\s*%\s*$/.exec(text);
  const percent = match?.[1] !== undefined ? Number(match[1]) : undefined;
  return percent !== undefined && percent <= 100 ? percent : undefined;
}
