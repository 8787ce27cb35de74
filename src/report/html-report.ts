/**
 * The HTML report of a run (`evals run --report FILE`, and the Action's `report` input), as a
 * reporter: at the end it reads every case back from the run's log and writes the page. The
 * page's script (a few hundred kilobytes) is loaded only when a report is written.
 */
import { writeFileAtomic } from '../shared/write-file-atomic.ts';
import { writeReport, type FileReportOptions } from './file-reports.ts';
import type { Reporter } from './reporter.ts';

/** Writes the self-contained HTML report. */
export function htmlFile(options: FileReportOptions): Reporter {
  return {
    async onRunEnd({ artifact, log }) {
      const [{ buildReportModel }, { renderReportHtml }] = await Promise.all([
        import('./html-model.ts'),
        import('./html-page.ts'),
      ]);
      const html = renderReportHtml(buildReportModel(artifact, (run) => log.cases(run)));
      await writeReport(options, (path) => writeFileAtomic(path, html));
    },
  };
}
