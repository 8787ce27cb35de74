/**
 * docs/statistics.md opens with a worked example: `evals compare` on the quickstart before and
 * after breaking three answers. Its figures had drifted from what the build prints (the q-value,
 * the `could detect ±…` and the cases needed had all changed), so a reader checking them against
 * their own run found them wrong. Here the example is run for real: the quickstart
 * (examples/quickstart) runs as BASE, the three answers the doc names are broken in a copy of its
 * atlas and it runs again as HEAD, and every line of the doc's block must be a line `evals
 * compare` prints, in order, as must every figure the paragraph under it quotes.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { repoRoot, runCli, scratch } from './helpers/cli.ts';

const DOC = join(repoRoot, 'docs', 'statistics.md');
const COMMAND = '$ npx evals compare base.json head.json';

/** The three answers the doc breaks: each country's capital becomes its biggest city. */
const BROKEN: [string, string][] = [
  ["Canada: 'Ottawa'", "Canada: 'Toronto'"],
  ["Brazil: 'Brasília'", "Brazil: 'Rio de Janeiro'"],
  ["Morocco: 'Rabat'", "Morocco: 'Casablanca'"],
];

/** The doc's block after `COMMAND`, its lines up to the `…` that stands for the rest. */
function docBlock(doc: string): { lines: string[]; after: string } {
  const start = doc.indexOf(COMMAND);
  assert.ok(start >= 0, `docs/statistics.md shows ${COMMAND}`);
  const end = doc.indexOf('```', start);
  const lines = doc.slice(start, end).split('\n').slice(1);
  const more = lines.findIndex((line) => line.startsWith('\u2026'));
  // The paragraph under the block, up to the next list.
  const after = doc.slice(end + 3, doc.indexOf('How to read a row', end));
  return { lines: more < 0 ? lines.filter(Boolean) : lines.slice(0, more), after };
}

let printed = '';

before(async () => {
  const dir = scratch();
  cpSync(join(repoRoot, 'examples', 'quickstart'), dir, { recursive: true });
  // The quickstart's evaluator imports evalgate, as a project that installed it does.
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(repoRoot, join(dir, 'node_modules', 'evalgate'), 'dir');
  const base = await runCli(['run', 'evals.yaml', '-o', 'base.json'], { cwd: dir });
  assert.equal(base.code, 0, base.stderr);
  const atlas = join(dir, 'app', 'atlas.ts');
  let text = readFileSync(atlas, 'utf8');
  for (const [from, to] of BROKEN) {
    assert.ok(text.includes(from), `the quickstart's atlas has ${from}`);
    text = text.replace(from, to);
  }
  writeFileSync(atlas, text);
  const head = await runCli(['run', 'evals.yaml', '-o', 'head.json'], { cwd: dir });
  assert.equal(head.code, 1, head.stderr);
  const compared = await runCli(['compare', 'base.json', 'head.json'], { cwd: dir });
  assert.equal(compared.code, 0, compared.stderr);
  printed = compared.stdout;
});

describe("docs/statistics.md's worked example", () => {
  it('is what evals compare prints, line for line', () => {
    const { lines } = docBlock(readFileSync(DOC, 'utf8'));
    assert.ok(lines.length >= 10, lines.join('\n'));
    const out = printed.split('\n');
    const at = out.indexOf(lines[0] ?? '');
    assert.ok(at >= 0, `the output has the doc's first line:\n${printed}`);
    assert.deepEqual(out.slice(at, at + lines.length), lines);
  });

  it('quotes in the paragraph under it only figures the build printed', () => {
    const { after } = docBlock(readFileSync(DOC, 'utf8'));
    // The figures of the output (not the config's `minPassRate: 0.9`).
    const quoted = [...after.matchAll(/`([^`]*)`/g)]
      .map((m) => m[1] ?? '')
      .filter((q) => /\u00b1|cases needed|[pq] = \d/.test(q));
    // The power figures at least: they are what drifted.
    assert.ok(
      quoted.some((q) => q.startsWith('could detect')),
      after,
    );
    assert.ok(
      quoted.some((q) => / cases needed /.test(q)),
      after,
    );
    for (const figure of quoted) assert.ok(printed.includes(figure), `printed: ${figure}`);
  });
});
