/** A scratch project of one suite written inline, for tests that spell the suite out. */
import { scratch, writeFiles } from './cli.ts';

/**
 * A scratch project whose evals.yaml has one suite, `s`, made of `settings` (YAML lines of the
 * suite, indented as its keys), with `files` written beside it.
 */
export function suiteProject(settings: string[], files: Record<string, string> = {}): string {
  const dir = scratch();
  writeFiles(dir, {
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: s',
      ...settings.map((l) => `    ${l}`),
      '',
    ].join('\n'),
    ...files,
  });
  return dir;
}
