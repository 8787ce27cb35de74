/**
 * The reports a run writes after its artifact (`--junit`, `--report`), each pending until its
 * reporter is done with it (written, or told as a failure): what an exit the CLI chooses then (a
 * second Ctrl-C) leaves unwritten, and the `evals report` command that makes them from the results.
 */
import type { ReporterSpec } from '../report/registry.ts';
import type { Reporter } from '../report/reporter.ts';
import { pathWord } from '../shared/shell-word.ts';

/** The reports still pending, in words. */
export interface PendingReports {
  /**
   * `not written: junit.xml (--junit), …; make the JUnit report from them with: evals report
   * …`, with `output` the results file as the user named it; undefined when none is pending.
   * With `beside`, the run writes beside its files (another run holds them: journal-takeover.ts):
   * each file, `output` too, is named as `beside` gives it.
   */
  left(output: string, beside?: (file: string) => string): string | undefined;
}

/**
 * Watches the file reports among `specs`: a reporter is put into `reporters` (made from `specs`,
 * in their order; their `onRunEnd`s run one after another) right after each, which marks it done.
 */
export function trackPendingReports(
  specs: readonly ReporterSpec[],
  reporters: Reporter[],
): PendingReports {
  const pending = new Map<string, string>();
  for (const spec of specs) {
    if (spec.name === 'junit') pending.set(spec.shown ?? spec.path, '--junit');
    if (spec.name === 'html') pending.set(spec.shown ?? spec.path, '--report');
  }
  for (let at = specs.length - 1; at >= 0; at--) {
    const spec = specs[at];
    if (spec?.name !== 'junit' && spec?.name !== 'html') continue;
    const shown = spec.shown ?? spec.path;
    reporters.splice(at + 1, 0, { onRunEnd: () => void pending.delete(shown) });
  }
  return {
    left(given, beside = (file: string) => file) {
      if (pending.size === 0) return undefined;
      const output = beside(given);
      const left = [...pending].map(([path, flag]) => [beside(path), flag] as const);
      const names = left.map(([path, flag]) => `${path} (${flag})`);
      // Both are made from the results by one command, whatever the run was asked to write.
      const report = left.find(([, flag]) => flag === '--report')?.[0];
      const junit = left.find(([, flag]) => flag === '--junit')?.[0];
      const what =
        report !== undefined && junit !== undefined
          ? 'the HTML and JUnit reports'
          : report !== undefined
            ? 'the HTML report'
            : 'the JUnit report';
      const command = [
        'evals report',
        pathWord(output),
        ...(report !== undefined ? ['-o', pathWord(report)] : []),
        ...(junit !== undefined ? ['--junit', pathWord(junit)] : []),
      ].join(' ');
      return `not written: ${names.join(', ')}; make ${what} from them with: ${command}`;
    },
  };
}
