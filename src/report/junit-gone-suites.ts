/**
 * The JUnit form of the suites of a baseline gone from the config that fail the run
 * (`missingSuites`): no run of theirs is in the artifact, so without a testsuite of their own the
 * report would show every test passing beside a failing exit code. One `<testsuite>` each,
 * named as the suite was, holding one failed `(gone)` testcase that says why.
 */
import type { ResultsArtifact } from '../types/index.ts';

/** The XML of `missingSuites`, a testsuite per suite; '' when there are none. */
export function goneSuitesXml(
  missing: NonNullable<ResultsArtifact['missingSuites']>,
  escape: { text: (value: string) => string; attribute: (value: string) => string },
): string {
  return missing
    .map(({ suite, text }) => {
      const name = escape.attribute(suite);
      const message = escape.attribute(text);
      // In parentheses, as `(gate)`: no case id can name a testcase like it.
      return [
        `  <testsuite name="${name}" tests="1" failures="1" errors="0" skipped="0" time="0.000">`,
        `    <testcase name="(gone)" classname="${name}" time="0.000">`,
        `      <failure message="${message}" type="gate">${escape.text(text)}</failure>`,
        '    </testcase>',
        '  </testsuite>',
        '',
      ].join('\n');
    })
    .join('');
}
