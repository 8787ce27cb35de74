/**
 * A case's `warnings` (an integer past 2^53 in a JSON output, read as another number) reach the
 * reports beside its output, not only `evals show`: the PR comment's failing-case entry says it
 * briefly (as GitHub renders it, by cmark-gfm), and the JUnit report carries it in the failure's
 * text, or, for a case that passed, in its `<system-out>`. A case whose output held none says none.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { BIG, READ_AS, fixedWarnedProject } from './helpers/fixed-warned-project.ts';
import { renderGfm } from './helpers/gfm.ts';
import { render } from './helpers/markdown-report.ts';
import type { ResultsArtifact } from '../src/types/index.ts';

let dir = '';
let ids: string[] = [];

before(async () => {
  const project = await fixedWarnedProject(['--junit', 'junit.xml']);
  assert.equal(project.head.code, 0, project.head.stderr);
  dir = project.dir;
  ids = project.ids;
});

const NOTE = new RegExp(`the output holds ${BIG}, an integer past 2\\^53 .* read as ${READ_AS}`);

describe("a case's warnings in the reports", () => {
  it("the PR comment's failing-case entry has a warning item under the case", () => {
    const artifact = JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8')) as ResultsArtifact;
    const html = renderGfm(render(artifact));
    const items = [...html.matchAll(/<li>warning: ([^<]*)<\/li>/g)].map((m) => m[1] ?? '');
    assert.equal(items.length, 1, html);
    assert.match(items[0] ?? '', NOTE);
    // Inside the failing case's entry, after its reason.
    const entry = html.slice(html.indexOf(`<code>${ids[0]?.slice(0, 11) ?? '?'}`));
    assert.ok(entry.indexOf('expected &quot;yes&quot;') < entry.indexOf('<li>warning: '), html);
  });

  it("the JUnit report says it in the failure text and in a passing case's system-out", () => {
    const xml = readFileSync(join(dir, 'junit.xml'), 'utf8');
    const testcase = (id: string): string => {
      const at = xml.indexOf(`<testcase name="${id}"`);
      assert.ok(at >= 0, xml);
      return xml.slice(at, xml.indexOf('</testcase>', at) + 1 || xml.indexOf('/>', at) + 2);
    };
    const failing = testcase(ids[0] ?? '');
    assert.match(failing, /<failure [^>]*>[^<]*\n\nwarning: the output holds/);
    assert.match(failing, NOTE);
    const passing = testcase(ids[2] ?? '');
    assert.match(passing, /<system-out>warning: the output holds [^<]*<\/system-out>/);
    assert.match(passing, NOTE);
    // A passing case whose output held none stays an empty testcase.
    assert.doesNotMatch(testcase(ids[3] ?? ''), /system-out/);
  });
});
