/**
 * The summary's widths through a pipe (160 columns, or COLUMNS): a refused connection's hint is
 * not what is left out at 160 (the error goes on two lines, split after a whole part); an id the
 * user wrote is whole when the line has room, while a content hash stays short; gate lines are
 * cut to a narrow width too, their numbers kept. The real CLI against a closed loopback port.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { runCli, scratch } from './helpers/cli.ts';
import { freePort } from './helpers/free-port.ts';
import { fixedWarnedProject } from './helpers/fixed-warned-project.ts';
import { gateConditionLine } from '../src/report/gate-line.ts';
import { textWidth } from '../src/shared/text-table.ts';

let dir = '';
let url = '';

before(async () => {
  dir = scratch();
  assert.equal((await runCli(['init', '--template', 'http'], { cwd: dir })).code, 0);
  url = `http://127.0.0.1:${await freePort()}/answer`;
});

const run = (columns?: string) =>
  runCli(['run'], { cwd: dir, env: { COLUMNS: columns, API_URL: url } });

describe('the summary through a pipe', () => {
  it("at 160 columns, keeps the refused connection's hint, on a second line", async () => {
    const r = await run();
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stdout.split('\n');
    for (const line of lines) assert.ok(textWidth(line) <= 160, line);
    const hints = lines.filter((line) =>
      line.includes(
        'nothing accepts connections there: is the server running, on that host and port?',
      ),
    );
    // Under each of the three cases, and in the errors block.
    assert.equal(hints.length, 4, r.stdout);
  });

  it("the errors counted keep the hint too, wrapped as a case's error line is", async () => {
    const r = await run();
    const lines = r.stdout.split('\n');
    const at = lines.indexOf('  errors (identical ones counted once):');
    assert.ok(at >= 0, r.stdout);
    assert.match(lines[at + 1] ?? '', /^ {4}3 \u00d7 error: POST .* failed \(ECONNREFUSED\): .*;$/);
    assert.equal(
      lines[at + 2],
      '      nothing accepts connections there: is the server running, on that host and port?; after 3 attempts',
    );
  });

  it('shows the ids the starter wrote whole when the line has room', async () => {
    const r = await run();
    assert.match(r.stdout, /^ {4}! refund-window {2}testsets\/questions\.csv:2$/m);
    assert.match(r.stdout, /^ {4}! reset-password {2}testsets\/questions\.csv:3$/m);
  });

  it('keeps a content hash id short, its label naming it', async () => {
    const project = await fixedWarnedProject();
    const id = project.ids[0] ?? '';
    assert.ok(
      project.head.stdout.includes(`${id.slice(0, 11)}\u2026  rows.jsonl:1`),
      project.head.stdout,
    );
    assert.ok(!project.head.stdout.includes(id), project.head.stdout);
  });

  it('at 50 columns, cuts the gate lines to fit and keeps their numbers', async () => {
    const r = await run('50');
    const gate = r.stdout.split('\n').filter((line) => line.startsWith('  \u2717 '));
    assert.equal(gate.length, 2, r.stdout);
    for (const line of gate) assert.ok(textWidth(line) <= 50, line);
    assert.match(gate[0] ?? '', /: expected \u2265 0\.9, got 0 /);
    assert.match(gate[1] ?? '', /^ {2}\u2717 judged: expected at least 1.*, got every/);
  });
});

describe('a gate line too long for its width', () => {
  const regressions = {
    name: 'regressions',
    expected: `no significant regression against the baseline (Holm-corrected over ${'x'.repeat(60)})`,
    actual: `h 0.020 \u2192 0.090 (+0.070, lower is better, p = 0.00040, ${'y'.repeat(60)})`,
    passed: false,
  };

  it('keeps a short condition name whole and cuts what was expected and what came', () => {
    const line = gateConditionLine(regressions, 120);
    assert.ok(textWidth(line) <= 120, line);
    assert.match(line, /^regressions: expected no significant regression/);
    assert.match(line, /, got h 0\.020 \u2192 0\.090 \(\+0\.070, lower is better/);
  });

  it('cuts a long condition name in its middle first', () => {
    const name = `evaluators.${'a-very-long-evaluator-id-'.repeat(4)}.mean`;
    const condition = {
      name,
      expected: '\u2265 0.9',
      actual: '0.72 (18 of 25 cases)',
      passed: false,
    };
    const line = gateConditionLine(condition, 80);
    assert.ok(textWidth(line) <= 80, line);
    assert.match(
      line,
      /^evaluators\..*\u2026.*\.mean: expected \u2265 0\.9, got 0\.72 \(18 of 25 cases\)$/,
    );
  });
});
