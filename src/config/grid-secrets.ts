/**
 * Grid values that are secrets. Reports show a run by its grid point with the run's secrets
 * scrubbed (`apiKey=[redacted]`), so two values of one key that differ only in their secrets
 * (`apiKey: ["${KEY_US}", "${KEY_EU}"]`) would give two runs one name in the artifact, the
 * comparison with a baseline and every report: the config is refused instead.
 */
import type { Issue } from '../shared/errors.ts';
import { gridValueText } from '../shared/grid-value-text.ts';
import type { Scrubber } from '../shared/secrets.ts';
import { suiteIssueAt } from './config-path.ts';
import type { LoadedConfig } from './types.ts';

/** One problem per grid value that reads as an earlier one of its key once secrets are removed. */
export function gridSecretClashes(config: LoadedConfig, scrubber: Scrubber): Issue[] {
  if (scrubber.empty) return [];
  const issues: Issue[] = [];
  for (const suite of config.suites) {
    const at = suiteIssueAt(config, suite);
    for (const [key, values] of Object.entries(suite.grid)) {
      const seen = new Set<string>();
      values.forEach((value, index) => {
        const shown = scrubber.text(gridValueText(value));
        if (!seen.has(shown)) {
          seen.add(shown);
          return;
        }
        issues.push({
          ...at('grid', key, index),
          code: 'grid.secret-value',
          message: `expected grid values that differ outside their secrets, found one that reads as ${JSON.stringify(shown)} like an earlier one once secrets are removed: results show a run by its grid point with secrets redacted, so the two runs would have one name; give the points names (region: [us, eu]) and choose the secret by them in code or in separate suites`,
        });
      });
    }
  }
  return issues;
}
