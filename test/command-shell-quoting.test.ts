/**
 * `shell: true` command lines: each template's value travels in an environment variable that
 * the line refers to where the template sits (unquoted, inside '…', inside "…"), so a real
 * /bin/sh receives exactly the value whatever it holds; templates where the context is not sure
 * ($(…), backticks, ${…}, $((…)), here-documents) are refused when the config loads.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { refusedShellTemplates, shellReference } from '../src/shared/shell-contexts.ts';
import { textPieces } from '../src/shared/templates.ts';
import { shellLine, shellValueName } from '../src/targets/inputs.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';

/** Values that are shell syntax in one context or another; `touch` ones leave a marker if run. */
const VALUES = [
  "'",
  '"',
  "it's",
  '$(touch PWNED_dollar)',
  '`touch PWNED_tick`',
  '\\',
  'a\\\\b\\',
  '\\$(touch PWNED_bs)',
  'x; touch PWNED_semi; echo y',
  "'; touch PWNED_sq; '",
  '"; touch PWNED_dq; "',
  '\'"$(touch PWNED_mix)"\'',
  'line one\nline two\n',
  '*',
  '~',
  '~/x',
  '',
  '$HOME ${HOME} $1 !',
  'tab\there',
];

/** The three contexts, as `printf` command lines that frame the value in brackets. */
const LINES = {
  unquoted: "printf '[%s]' {{case.v}}",
  single: "printf '[%s]' '{{case.v}}'",
  double: 'printf \'[%s]\' "{{case.v}}"',
} as const;

/** Files in `dir` a value's `touch` would have made. */
function markers(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.startsWith('PWNED'));
}

describe('shell: true quotes each value for where its template sits', () => {
  it("the repro configs: a template inside the user's own quotes stays literal", async () => {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml': [
        'version: 1',
        'suites:',
        '  - id: v',
        '    testset: { cases: [ {a: "x; touch PWNED_single; echo y"} ] }',
        `    target: { type: command, shell: true, run: "echo '{{case.a}}'" }`,
        '  - id: w',
        '    testset: { cases: [ {a: "x $(touch PWNED_double) y"} ] }',
        '    target: { type: command, shell: true, run: "echo \\"{{case.a}}\\"" }',
        '  - id: q',
        `    testset: { cases: [ {a: "it's"} ] }`,
        `    target: { type: command, shell: true, run: "echo '{{case.a}}'" }`,
        '',
      ].join('\n'),
    });
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const outputs = artifactCases(dir).map((run) => run.cases[0]!.output);
    assert.deepEqual(outputs, [
      'x; touch PWNED_single; echo y',
      'x $(touch PWNED_double) y',
      "it's",
    ]);
    assert.deepEqual(markers(dir), []);
  });

  for (const [context, line] of Object.entries(LINES)) {
    it(`${context}: /bin/sh receives exactly each value, and none of it runs`, async () => {
      const rows = VALUES.map((v, i) => ({ i, v }));
      const dir = jsonlProject(rows, [
        'target:',
        '  type: command',
        '  shell: true',
        `  run: ${JSON.stringify(line)}`,
      ]);
      const result = await runInProcess(['run', '-o', 'results.json'], dir);
      assert.equal(result.code, 0, result.stderr + result.stdout);
      const cases = artifactCases(dir)[0]!.cases;
      assert.equal(cases.length, VALUES.length);
      for (const c of cases) {
        assert.equal(c.error ?? null, null, `${JSON.stringify(c.data.v)}: ${c.error}`);
        assert.equal(c.output, `[${c.data.v as string}]`);
      }
      assert.deepEqual(markers(dir), []);
    });
  }

  it('one line with the value in all three contexts, and after a $(…) and a here-document', () => {
    const dir = scratch();
    const line = [
      "printf '%s|' {{case.v}} '{{case.v}}' \"{{case.v}}\" \"$(echo ')')\" {{case.v}}",
      "cat <<'EOF'",
      'it\'s $(touch PWNED_heredoc) `here`"',
      'EOF',
      'printf "<%s>" "{{case.v}}"',
    ].join('\n');
    const shells = ['/bin/sh', ...(existsSync('/bin/bash') ? ['/bin/bash'] : [])];
    for (const shell of shells) {
      for (const v of VALUES) {
        const { text, values } = shellLine(line);
        const rendered = values.render({ testCase: { v }, params: {} });
        assert.ok(rendered.ok);
        const env = { ...process.env, ...rendered.value };
        const ran = spawnSync(shell, ['-c', text], { cwd: dir, encoding: 'utf8', env });
        assert.equal(ran.status, 0, `${shell} ${JSON.stringify(v)}: ${ran.stderr}`);
        assert.equal(
          ran.stdout,
          `${v}|${v}|${v}|)|${v}|it's $(touch PWNED_heredoc) \`here\`"\n<${v}>`,
          `${shell} ${JSON.stringify(v)}`,
        );
      }
    }
    assert.deepEqual(markers(dir), []);
  });

  /** Lines that once made their value run: the scan misread `((`, $'…' under dash, an `esac`. */
  const REVIEWED = [
    '((cat <<EOF) | tr a-z A-Z)\nQ: {{case.v}}\nEOF',
    '((cat <<E) )\n{{case.v}}\nE',
    "((echo a) # don't\n) ; echo ' ) {{case.v}} '",
    "echo $'\\'' {{case.v}} '",
    'echo "$(case b in a) echo esac;; b) echo {{case.v}};; esac)"',
  ];
  const HOSTILE = ['$(touch PWNED_review)', '; touch PWNED_review ;', 'a|touch PWNED_review'];

  it('never runs a value, whatever context its reference is written for (a misread is harmless)', () => {
    // The value travels in the environment: even a reference written for the wrong context
    // gives wrong text at worst. Every context is tried at every template of each line.
    const dir = scratch();
    const shells = ['/bin/sh', ...(existsSync('/bin/bash') ? ['/bin/bash'] : [])];
    for (const line of REVIEWED) {
      const pieces = textPieces(line);
      for (const context of ['unquoted', 'single', 'double'] as const) {
        let text = pieces[0]!;
        for (let i = 1; i < pieces.length; i++) {
          text += shellReference(shellValueName(i - 1), context) + pieces[i]!;
        }
        for (const shell of shells) {
          for (const v of HOSTILE) {
            const env = { ...process.env, [shellValueName(0)]: v };
            spawnSync(shell, ['-c', text], { cwd: dir, encoding: 'utf8', env, timeout: 10_000 });
            assert.deepEqual(markers(dir), [], `${shell} ${context} ${JSON.stringify(line)} ${v}`);
          }
        }
      }
    }
  });

  it('refuses the templates of those lines where /bin/sh and bash, or the scan, may disagree', () => {
    const where = (line: string): string[] => refusedShellTemplates(line).map((r) => r.where);
    assert.deepEqual(where(REVIEWED[0]!), ['inside a here-document']);
    assert.deepEqual(where(REVIEWED[1]!), ['inside a here-document']);
    // After the ((…) …) subshells close, the template is in single quotes, read right.
    assert.deepEqual(where(REVIEWED[2]!), []);
    assert.deepEqual(where(REVIEWED[3]!), ["after a $'…' holding a backslash"]);
    assert.deepEqual(where(REVIEWED[4]!), ['after a case … esac inside $(…)']);
    assert.deepEqual(where('(( {{case.v}} > 1 ))'), [
      'inside ((…)), which bash reads as arithmetic and /bin/sh as subshells',
    ]);
    // What is still read right: the line whose template is not refused gives the value.
    const { text, values } = shellLine(REVIEWED[2]!);
    const rendered = values.render({ testCase: { v: "it's $(x)" }, params: {} });
    assert.ok(rendered.ok);
    const ran = spawnSync('/bin/sh', ['-c', text], {
      encoding: 'utf8',
      env: { ...process.env, ...rendered.value },
    });
    assert.equal(ran.stdout, "a\n ) it's $(x) \n");
  });

  it('run: [argv] without shell: true is unchanged: quotes in an argument are its text', async () => {
    const dir = jsonlProject(
      [{ v: "a 'b' $(touch PWNED_argv)" }],
      ['target:', '  type: command', `  run: [printf, "%s", "'{{case.v}}'"]`],
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.equal(artifactCases(dir)[0]!.cases[0]!.output, "'a 'b' $(touch PWNED_argv)'");
    assert.deepEqual(markers(dir), []);
  });
});

describe('shell: true refuses templates where no quoting keeps them literal', () => {
  const refused: [string, string[], RegExp][] = [
    ['$(…)', ['  run: echo $(cat {{case.v}})'], /is inside a \$\(…\) command substitution/],
    ['$(…) in "…"', ['  run: echo "$(echo \'{{case.v}}\')"'], /inside a \$\(…\) command/],
    ['backticks', ['  run: echo `echo {{case.v}}`'], /inside a `…` command substitution/],
    // `$${` is a literal `${` once the config's own ${VAR} substitution is done.
    ['${…}', ['  run: echo "$${HOME:-{{case.v}}}"'], /inside a \$\{…\} parameter expansion/],
    ['$((…))', ['  run: echo $(( {{case.v}} + 1 ))'], /inside a \$\(\(…\)\) arithmetic/],
    ['here-document', ['  run: |', '    cat <<EOF', '    {{case.v}}', '    EOF'], /here-document/],
    ['after a backslash', ['  run: echo \\\\{{case.v}}'], /right after a backslash/],
  ];
  for (const [name, run, where] of refused) {
    it(`inside ${name}: validate exits 2 at the run value, naming the template`, async () => {
      const dir = jsonlProject(
        [{ v: 'x; touch PWNED' }],
        ['target:', '  type: command', '  shell: true', ...run],
      );
      const result = await runInProcess(['validate'], dir);
      assert.equal(result.code, 2, result.stdout + result.stderr);
      // The run value is on the config's line 8, after `    run: ` (column 12).
      assert.match(
        result.stderr,
        /evals\.yaml:8:12 +suites\[0\]\.target\.run: template \{\{ case\.v \}\} is /,
      );
      assert.match(result.stderr, where);
      assert.match(result.stderr, /move it out, into an argument of its own, or into env:/);
      assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
      const ran = await runInProcess(['run', '-o', 'results.json'], dir);
      assert.equal(ran.code, 2);
      assert.equal(existsSync(`${dir}/results.json`), false);
      assert.deepEqual(markers(dir), []);
    });
  }

  it('in a run: list with shell: true, the item holding the template is named', async () => {
    const dir = jsonlProject(
      [{ v: 'a' }],
      ['target:', '  type: command', '  shell: true', '  run: [echo, ok, "$(cat {{case.v}})"]'],
    );
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /evals\.yaml:8:\d+ +suites\[0\]\.target\.run\[2\]: template/);
  });
});
