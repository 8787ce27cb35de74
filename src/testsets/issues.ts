import type { Issue } from '../shared/errors.ts';
import type { TestsetRow } from '../types/index.ts';

/** Stable codes of every problem the testset readers and identity checks report. */
export type TestsetIssueCode =
  | 'testset.not-found'
  | 'testset.format'
  | 'testset.read'
  | 'testset.csv-syntax'
  | 'testset.csv-header'
  | 'testset.csv-columns'
  | 'testset.json-syntax'
  | 'testset.json-shape'
  | 'testset.duplicate-key'
  | 'testset.inexact-number'
  | 'testset.too-deep'
  | 'testset.row-type'
  | 'testset.meta'
  | 'testset.dedup-conflict'
  | 'testset.hash-field-missing'
  | 'testset.hash-invalid'
  | 'testset.duplicate-id'
  | 'testset.duplicate-row'
  | 'testset.meta-lookalike'
  | 'testset.too-many-issues'
  | 'testset.encoding';

/** What a reader returns: every row, or every problem found. */
export type TestsetParseResult = { ok: true; rows: TestsetRow[] } | { ok: false; issues: Issue[] };

/**
 * More problems than this in one file are summarised: a CSV with a systematic mistake (a wrong
 * delimiter, a shifted column) would otherwise print one line per row of a 200,000-row file.
 */
export const MAX_ISSUES = 50;

/** Collects a file's problems, keeping the first {@link MAX_ISSUES} and counting the rest. */
export class IssueList {
  readonly #issues: Issue[] = [];
  #dropped = 0;

  constructor(readonly file: string) {}

  /** Records a problem; `col` 0 means the column is unknown. */
  add(code: TestsetIssueCode, line: number, col: number, message: string): void {
    if (this.#issues.length >= MAX_ISSUES) {
      this.#dropped++;
      return;
    }
    this.#issues.push({ code, file: this.file, line, col, path: '', message });
  }

  /** True when nothing has been reported. */
  get empty(): boolean {
    return this.#issues.length === 0;
  }

  /** The problems, plus one summary issue when some were left out. */
  toArray(): Issue[] {
    if (this.#dropped === 0) return [...this.#issues];
    const more: Issue = {
      code: 'testset.too-many-issues',
      file: this.file,
      line: 0,
      col: 0,
      path: '',
      message: `${this.#dropped} more problem${this.#dropped === 1 ? '' : 's'} in this file not shown`,
    };
    return [...this.#issues, more];
  }
}
