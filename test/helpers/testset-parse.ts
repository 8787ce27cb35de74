/** Reading testset text the way the tests of its formats compare it. */
import { parseTestset, type TestsetFormat } from '../../src/testsets/formats.ts';

/**
 * `line:col message` of each problem (`line:col code message` with `codes`), or the rows' data
 * when the text is read; the file is `file`, else `cases.<format>`.
 */
export function parsedOrIssues(
  text: string,
  format: TestsetFormat,
  options: { file?: string; codes?: boolean } = {},
): string[] | unknown[] {
  const result = parseTestset(text, format, options.file ?? `cases.${format}`);
  if (result.ok) return result.rows.map((row) => row.data);
  return result.issues.map(
    (i) => `${i.line}:${i.col} ${options.codes === true ? `${i.code} ` : ''}${i.message}`,
  );
}
