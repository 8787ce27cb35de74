/* eslint-disable no-control-regex -- these tests are about escape sequences and control characters */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { buildArtifact } from '../src/artifact/artifact.ts';
import {
  escapeXmlAttribute,
  escapeXmlText,
  junitSuiteName,
  renderJUnit,
} from '../src/report/junit.ts';
import type { ResultsArtifact, RunResult } from '../src/types/index.ts';
import { caseResult, evaluation, fixtureRuns } from './report-fixture.ts';

function artifactOf(runs: RunResult[]): ResultsArtifact {
  return buildArtifact({
    toolVersion: '0.1.0',
    config: 'evals.yaml',
    configHash: 'h',
    git: null,
    startedAt: new Date('2025-01-01T00:00:00Z'),
    durationMs: 2500,
    interrupted: false,
    runs,
  });
}

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(raw: string): string {
  assert.doesNotMatch(
    raw,
    /&(?!(?:amp|lt|gt|quot|apos|#\d+);)/,
    `bare & in ${JSON.stringify(raw)}`,
  );
  return raw.replace(/&(#\d+|\w+);/g, (_match, entity: string) =>
    entity.startsWith('#')
      ? String.fromCodePoint(Number(entity.slice(1)))
      : (ENTITIES[entity] ?? ''),
  );
}

/**
 * A strict little parser for the subset renderJUnit writes (declaration, elements, attributes,
 * text): it throws on anything malformed, so passing it means the document is well-formed.
 */
function parseXml(xml: string): XmlElement {
  assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n'));
  assert.doesNotMatch(xml, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/);
  const token = /<(\/?)([A-Za-z][\w.-]*)((?:\s+[\w.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  token.lastIndex = xml.indexOf('\n') + 1;
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack = [root];
  while (token.lastIndex < xml.length) {
    const at = token.lastIndex;
    const match = token.exec(xml);
    assert.ok(match, `malformed XML at ${at}: ${JSON.stringify(xml.slice(at, at + 40))}`);
    const [, closing, name, rawAttributes, selfClosing, text] = match;
    const parent = stack.at(-1)!;
    if (text !== undefined) {
      parent.text += decode(text);
    } else if (closing) {
      assert.equal(parent.name, name, 'mismatched closing tag');
      stack.pop();
    } else {
      const attributes: Record<string, string> = {};
      for (const [, key, value] of (rawAttributes ?? '').matchAll(/([\w.-]+)="([^"]*)"/g)) {
        assert.ok(!(key! in attributes), `duplicate attribute ${key}`);
        attributes[key!] = decode(value!);
      }
      const element: XmlElement = { name: name!, attributes, children: [], text: '' };
      parent.children.push(element);
      if (!selfClosing) stack.push(element);
    }
  }
  assert.equal(stack.length, 1, 'unclosed element');
  assert.equal(root.children.length, 1);
  return root.children[0]!;
}

describe('renderJUnit', () => {
  it('writes one testsuite per run and one testcase per case with counts', () => {
    const doc = parseXml(renderJUnit(artifactOf(fixtureRuns())));
    assert.equal(doc.name, 'testsuites');
    assert.deepEqual(doc.attributes, {
      name: 'evalgate',
      tests: '9',
      failures: '5',
      errors: '1',
      // The suites' times summed (83 + 261 ms), not the run's wall time (2.5 s): each suite's
      // is its cases' summed, which concurrent cases can make longer than the wall time.
      time: '0.344',
      timestamp: '2025-01-01T00:00:00.000Z',
    });
    const suites = doc.children;
    assert.deepEqual(
      suites.map((suite) => [
        suite.attributes.name,
        suite.attributes.tests,
        suite.attributes.failures,
        suite.attributes.errors,
      ]),
      [
        ['capitals [model=large, temperature=0]', '2', '0', '0'],
        // Six cases and the gate's testcase: its minPassRate failed, which no case shows.
        ['capitals [model=small, temperature=0]', '7', '5', '1'],
      ],
    );
    // Sum of the case durations (41 + 42 ms).
    assert.equal(suites[0]?.attributes.time, '0.083');

    const cases = suites[1]!.children.filter((child) => child.name === 'testcase');
    // Named by the whole id, which a new row above does not shift; the source in `file`/`line`.
    assert.deepEqual(
      cases.map((c) => [
        c.attributes.name,
        c.attributes.file,
        c.attributes.line,
        c.children.map((child) => child.name).join(),
      ]),
      [
        ['1111abcdef0123456789', 'testsets/capitals.csv', '2', ''],
        ['2222abcdef0123456789', 'testsets/capitals.csv', '3', 'failure'],
        ['3333abcdef0123456789', 'testsets/capitals.csv', '4', 'failure'],
        ['4444abcdef0123456789', 'testsets/capitals.csv', '5', 'error'],
        ['5555abcdef0123456789', undefined, undefined, 'failure'],
        ['6666abcdef0123456789', 'testsets/capitals.csv', '7', 'failure'],
        ['(gate)', undefined, undefined, 'failure'],
      ],
    );
    assert.ok(
      cases.every((c) => c.attributes.classname === 'capitals [model=small, temperature=0]'),
    );

    const failure = cases[1]!.children[0]!;
    assert.equal(failure.attributes.message, 'exact 0 (needs ≥ 1): expected "Paris", got "Lyon"');
    assert.equal(
      failure.text,
      'exact 0 (needs ≥ 1)\n{\n  "expected": "Paris",\n  "actual": "Lyon"\n}',
    );
    const error = cases[3]!.children[0]!;
    assert.equal(error.attributes.message, 'TypeError: boom …');
    assert.equal(error.text, 'TypeError: boom\n    at answer (app/answer.ts:3:9)');
    // A case failed by its pass condition lists what the condition was given.
    assert.equal(cases[4]!.children[0]!.text, 'tone 0.1');
  });

  it('uses the suite id alone when the run has no grid', () => {
    assert.equal(junitSuiteName({ suite: 'capitals', params: {} }), 'capitals');
    assert.equal(junitSuiteName({ suite: 's', params: { a: 'x', b: [1, 2] } }), 's [a=x, b=[1,2]]');
  });

  it('adds a gate testcase when the run fails with every case passing', () => {
    const [passing] = fixtureRuns() as [RunResult];
    passing.verdict = 'fail';
    passing.gate.conditions = [
      { name: 'evaluators.tone.mean', expected: '≥ 0.9', actual: '0.8', passed: false },
    ];
    const suite = parseXml(renderJUnit(artifactOf([passing]))).children[0]!;
    assert.equal(suite.attributes.tests, '3');
    assert.equal(suite.attributes.failures, '1');
    const gate = suite.children.find((child) => child.attributes.name === '(gate)');
    assert.equal(
      gate?.children[0]?.attributes.message,
      'evaluators.tone.mean: expected ≥ 0.9, got 0.8',
    );
  });

  it('names the gate so that no case can take its name: a case with the id "gate" stays apart', () => {
    const [passing] = fixtureRuns() as [RunResult];
    passing.verdict = 'fail';
    passing.gate.conditions = [
      { name: 'minPassRate', expected: '1', actual: '0.9', passed: false },
    ];
    passing.cases[0]!.id = 'gate';
    const suite = parseXml(renderJUnit(artifactOf([passing]))).children[0]!;
    const names = suite.children.filter((c) => c.name === 'testcase').map((c) => c.attributes.name);
    assert.equal(new Set(names).size, names.length, names.join(', '));
    assert.ok(names.includes('gate') && names.includes('(gate)'));
  });

  it("gives each case's file as seen from where the run started, not from the config's folder", () => {
    const [passing] = fixtureRuns() as [RunResult];
    const artifact = { ...artifactOf([passing]), config: 'evals/support.yaml' };
    const source = passing.cases[0]!.source!;
    const suite = parseXml(renderJUnit(artifact)).children[0]!;
    const first = suite.children.find((c) => c.name === 'testcase')!;
    assert.equal(first.attributes.file, `evals/${source.file}`);
    assert.equal(first.attributes.line, String(source.line));
  });

  it('escapes nasty strings everywhere and drops characters XML 1.0 cannot hold', () => {
    const nasty = `<script>alert("x" & 'y')</script> ]]> \u0000\u0001\u001b[31m\ufffe\ud800 tab\tnl\ncr\r 😀 é`;
    const kept = `<script>alert("x" & 'y')</script> ]]> [31m tab\tnl\ncr\r 😀 é`;
    const [, failing] = fixtureRuns() as [RunResult, RunResult];
    failing.suite = nasty;
    failing.params = { [nasty]: nasty };
    failing.testset.revision = nasty;
    failing.cases = [
      caseResult(1, { id: nasty, passed: false, error: nasty, source: { file: nasty, line: 3 } }),
      caseResult(2, {
        passed: false,
        evaluations: [evaluation(nasty, 0, { gte: 1 }, { metadata: { [nasty]: nasty } })],
      }),
    ];
    const xml = renderJUnit(artifactOf([failing]));
    const suite = parseXml(xml).children[0]!;
    assert.equal(suite.attributes.name, `${kept} [${kept}=${kept}]`);
    const properties = suite.children[0]!.children;
    assert.deepEqual(properties[0]?.attributes, { name: 'revision', value: kept });
    assert.deepEqual(properties.at(-1)?.attributes, { name: `param.${kept}`, value: kept });
    const [errored, failed] = suite.children.slice(1);
    assert.equal(errored?.attributes.name, kept);
    assert.equal(errored?.attributes.file, kept);
    assert.equal(errored?.children[0]?.text, kept);
    // The reason (the metadata's first string, `key: value`) follows, on one line.
    const flat = kept.replace(/\s*\r?\n\s*/g, ' ');
    assert.equal(
      failed?.children[0]?.attributes.message,
      `${flat} 0 (needs ≥ 1): ${flat}: ${flat}`,
    );
    // JSON.stringify escapes the control characters in metadata itself; the rest must survive.
    assert.match(failed?.children[0]?.text ?? '', /<script>alert\(\\"x\\" & 'y'\)<\/script>/);
  });

  it('names each case by its whole dedup id, so ids alike in their first characters stay apart', () => {
    const [, failing] = fixtureRuns() as [RunResult, RunResult];
    failing.cases = [1, 2, 3].map((n) =>
      caseResult(n, {
        id: `question-000${n}`,
        passed: n === 3,
        source: { file: 't.csv', line: n + 1 },
      }),
    );
    failing.testset.cases = 3;
    const suite = parseXml(renderJUnit(artifactOf([failing]))).children[0]!;
    const names = suite.children
      .filter((child) => child.name === 'testcase')
      .map((c) => c.attributes.name);
    // Then the gate's testcase: the run's minPassRate failed.
    assert.deepEqual(names, ['question-0001', 'question-0002', 'question-0003', '(gate)']);
  });

  it('escape helpers cover text and attributes', () => {
    assert.equal(escapeXmlText('a<b>&c\r'), 'a&lt;b&gt;&amp;c&#13;');
    assert.equal(escapeXmlAttribute(`"'\t\n`), '&quot;&apos;&#9;&#10;');
    assert.equal(escapeXmlText('\u0007\ud83d\ude00\udc00'), '😀');
  });
});
