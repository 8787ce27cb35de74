/**
 * `shell: true` runs the line through /bin/sh, which is dash on Debian and Ubuntu: bash-only
 * syntax there (`<(…)`, `[[ … ]]`, `{a,b}`, `&>`) fails in confusing ways. Such a line warns
 * when the config loads, at its line:col, on `validate`, `run` and `run --dry-run`, saying what
 * to do; the same text quoted, in a template's value, or POSIX syntax does not warn.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const ROWS = [{ q: 'a' }];

/** A project whose command target runs `line` (YAML single-quoted) with `shell: true`. */
function project(line: string): string {
  return jsonlProject(ROWS, [
    'target:',
    '  type: command',
    '  shell: true',
    `  run: '${line.replaceAll("'", "''")}'`,
    'evaluators: [ { use: contains, with: { values: ["x"] } } ]',
  ]);
}

/** The warnings a command printed for the target's `run:` (line 8 of the config, column 12). */
function bashOnly(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.includes('bash-only'));
}

const BASH_ONLY: Record<string, string> = {
  'process substitution': 'diff <(echo {{ case.q }}) <(echo b) || true',
  '[[ ]]': '[[ -n "{{ case.q }}" ]] && echo yes',
  'brace expansion': 'echo {x,y}-{{ case.q }}',
  'the &> redirection': 'echo {{ case.q }} &> out.txt; cat out.txt',
};

const POSIX: Record<string, string> = {
  'a plain line': 'echo "got {{ case.q }}" | tr a-z A-Z',
  'bash syntax inside quotes': "echo '<(x) [[ y ]] {a,b} &>'",
  'a POSIX test and group': '[ -n "{{ case.q }}" ] && { echo yes; }',
  'a parameter expansion': 'echo "${HOME}" ${HOME}',
};

describe('shell: true with bash-only syntax', () => {
  for (const [what, line] of Object.entries(BASH_ONLY)) {
    it(`warns on ${what} at the run: line, on validate, run and the dry run`, async () => {
      const dir = project(line);
      for (const argv of [['validate'], ['run', '--dry-run'], ['run', '-o', 'out.json']]) {
        const r = await runInProcess(argv, dir, {});
        const warnings = bashOnly(r.stderr);
        assert.equal(warnings.length, 1, `${argv.join(' ')}: ${r.stderr}`);
        const [warning] = warnings;
        assert.match(warning!, /^warning: evals\.yaml:8:12 +suites\[0\]\.target\.run:/);
        assert.match(warning!, /\/bin\/sh, which is dash on Debian and Ubuntu/);
        assert.match(warning!, /run: \[bash, -c, '… "\$1" …', bash, "\{\{ case\.q \}\}"\]/);
      }
    });
  }

  it('names the construct it found', async () => {
    const r = await runInProcess(['validate'], project(BASH_ONLY['process substitution']!), {});
    assert.match(r.stderr, /bash-only syntax \(process substitution <\(…\) \/ >\(…\)\)/);
  });

  it('warns at the list item that holds it when run: is a list', async () => {
    const dir = jsonlProject(ROWS, [
      'target:',
      '  type: command',
      '  shell: true',
      '  run:',
      '    - echo',
      '    - "[[ -n x ]] && echo {{ case.q }}"',
      'evaluators: [ { use: contains, with: { values: ["x"] } } ]',
    ]);
    const r = await runInProcess(['validate'], dir, {});
    const warnings = bashOnly(r.stderr);
    assert.equal(warnings.length, 1, r.stderr);
    assert.match(warnings[0]!, /^warning: evals\.yaml:10:11 +suites\[0\]\.target\.run\[1\]/);
  });

  for (const [what, line] of Object.entries(POSIX)) {
    it(`does not warn on ${what}`, async () => {
      const r = await runInProcess(['validate'], project(line), {});
      assert.deepEqual(bashOnly(r.stderr), [], r.stderr);
    });
  }

  it('does not warn without shell: true (an argument list runs no shell)', async () => {
    const dir = jsonlProject(ROWS, [
      'target: { type: command, run: [echo, "<(x)", "[[", "{a,b}"] }',
      'evaluators: [ { use: contains, with: { values: ["x"] } } ]',
    ]);
    const r = await runInProcess(['validate'], dir, {});
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(bashOnly(r.stderr), [], r.stderr);
  });
});
