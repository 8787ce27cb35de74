/**
 * Durations in `evals.yaml` (`timeout: 30s`): a number with a unit, never a bare number, so a
 * reader never has to guess whether `30` meant seconds or milliseconds.
 */

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** The accepted forms, for messages and docs. */
export const DURATION_EXAMPLES = '500ms, 1.5s, 30s, 2m or 1h';

/**
 * Milliseconds of a duration written `<number><unit>` with unit `ms`, `s`, `m` or `h`
 * (`500ms`, `1.5s`, `30s`, `2m`, `1h`); `null` for anything else, including a bare number.
 */
export function parseDuration(text: string): number | null {
  const match = DURATION.exec(text);
  if (!match) return null;
  const amount = Number(match[1]);
  const unit = UNIT_MS[match[2] ?? ''];
  if (unit === undefined || !Number.isFinite(amount)) return null;
  // Rounded so `1.0005s` does not hand setTimeout a fraction of a millisecond.
  return Math.round(amount * unit);
}
