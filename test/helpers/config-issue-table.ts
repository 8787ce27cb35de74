/** Table-driven checks of invalid configs against the exact issue lines a user sees. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { issueLines } from '../fixtures/config/check.ts';

/** One invalid (or valid) config and the `file:line:col  path: message` lines it must produce. */
export interface Case {
  name: string;
  text: string;
  env?: Record<string, string>;
  issues: string[];
}

/** Registers a `describe(title)` with one test per case, comparing the issue lines exactly. */
export function table(title: string, cases: Case[]): void {
  describe(title, () => {
    for (const c of cases) {
      it(c.name, () => {
        assert.deepEqual(issueLines(c.text, c.env), c.issues);
      });
    }
  });
}
