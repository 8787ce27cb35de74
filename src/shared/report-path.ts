/**
 * The HTML report's default name, one rule for `evals report` and the GitHub Action: beside the
 * results, named after them.
 */
import { basename, dirname, join } from 'node:path';

/** The HTML report's name beside results of the default name (what `evals init` gitignores). */
export const REPORT_FILE = 'evals-report.html';

/** The results' default name (`evals run -o`, the Action's `results`). */
export const DEFAULT_RESULTS = 'evals-results.json';

/**
 * Where the HTML report of the results file `results` goes: beside it, named after it, so that
 * two results written into one folder (`small.json`, `large.json`) do not overwrite each other's
 * report. Results of the default name (`evals-results.json`, in any folder) get
 * `evals-report.html`, as the docs, `evals init`'s `.gitignore` and existing workflows name it;
 * any other name gets `-report.html` in place of its `.json` (`small.json` →
 * `small-report.html`, `out` → `out-report.html`), which can never be the results file itself.
 */
export function reportPathFor(results: string): string {
  const name = basename(results);
  const report =
    name === DEFAULT_RESULTS ? REPORT_FILE : `${name.replace(/\.json$/i, '')}-report.html`;
  return join(dirname(results), report);
}
