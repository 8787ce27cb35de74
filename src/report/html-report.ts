/**
 * The HTML report of a run (`evals run --report FILE`, and the Action's `report` input), as a
 * reporter: at the end it reads every case back from the run's log and writes the page. The
 * page's script (a few hundred kilobytes) is loaded only when a report is written.
 */
import { writeFileAtomic } from '../shared/write-file-atomic.ts';
import { writeReport, type FileReportOptions } from './file-reports.ts';
import type { Reporter } from './reporter.ts';
import type { Comparison } from '../types/comparison.ts';
import type { BaselineCases } from './html-model-base.ts';

/**
 * Writes the self-contained HTML report; `notCompared` says why the run was not compared with
 * the baseline it was given, when it was not (the page says so above everything else);
 * `baselineCases` reads the baseline's own results of the cases the comparison found changed,
 * which their details set beside this run's.
 */
export function htmlFile(
  options: FileReportOptions & {
    notCompared?: () => string | undefined;
    baselineCases?: (comparison: Comparison) => BaselineCases | undefined;
  },
): Reporter {
  return {
    async onRunEnd({ artifact, log }) {
      const [{ buildReportModel }, { renderReportHtml }] = await Promise.all([
        import('./html-model.ts'),
        import('./html-page.ts'),
      ]);
      const why = artifact.comparison === undefined ? options.notCompared?.() : undefined;
      const { comparison } = artifact;
      const base = comparison && options.baselineCases?.(comparison);
      const model = buildReportModel(artifact, (run) => log.cases(run), comparison, why, base);
      const html = renderReportHtml(model);
      await writeReport(options, (path) => writeFileAtomic(path, html));
    },
  };
}
