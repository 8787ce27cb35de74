/**
 * The checks that read a config value's templates without resolving them go through the one
 * template lexer, so an escaped `\{{` is the literal `{{` there as everywhere else: an http
 * URL's credentials and shape are checked on the text it sends, a module evaluator's options
 * say what an escape does there, and a Windows path whose one backslash escapes a template
 * (`C:\out\{{ case.id }}`) is warned about. Every test here fails where a check finds `{{`
 * itself.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { escapedTemplateWarnings } from '../src/config/escape-warnings.ts';
import { formatConfigPath } from '../src/config/config-path.ts';
import { parseConfig } from '../src/config/load.ts';
import { urlCredentialsProblem } from '../src/shared/url-problems.ts';
import { parseYaml } from '../src/config/yaml-source.ts';
import { builtinEvaluators } from '../src/evaluators/registry.ts';
import { isWholeTemplate, sampleText } from '../src/shared/templates.ts';
import { urlShapeProblem } from '../src/targets/http.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

// Strings are written as the program sees them: '\\{{' is one backslash, then `{{`.

/** A project whose evals.yaml is `lines`. */
function project(lines: string[]): string {
  const dir = scratch();
  writeFiles(dir, { 'evals.yaml': [...lines, ''].join('\n') });
  return dir;
}

/** A suite over one inline case, with an http target at `url` (a single-quoted YAML string). */
function httpSuite(id: string, url: string): string[] {
  return [
    `  - id: ${id}`,
    '    testset: { cases: [ { id: a, pw: p } ] }',
    `    target: { type: http, url: '${url}' }`,
  ];
}

/** `file:line:col path` of each line of `stderr` that matches `pattern`. */
function placesOf(stderr: string, pattern: RegExp): string[] {
  return stderr
    .split('\n')
    .filter((line) => pattern.test(line))
    .map((line) => /(evals\.yaml:\d+:\d+)\s+(\S+):/.exec(line)?.slice(1).join(' ') ?? line);
}

describe('an http URL is checked as the text it sends', () => {
  it('reads each escape as {{ and stands in for each template with a word', () => {
    const url = 'http://h/\\{{ a }}/{{ case.b }}/\\\\{{case.c}}?x={{';
    assert.equal(sampleText(url, 'x'), 'http://h/{{ a }}/x/\\x?x={{');
    assert.equal(isWholeTemplate(' {{ case.url }} '), true);
    assert.equal(isWholeTemplate('\\{{ case.url }}'), false);
    assert.equal(isWholeTemplate('{{ case.a }}{{ case.b }}'), false);
    // A literal `{{port}}` is no port; an escaped password is a password.
    assert.match(urlShapeProblem('http://127.0.0.1:\\{{port}}/ok') ?? '', /expected an http/);
    assert.equal(urlShapeProblem('http://127.0.0.1:8080/{{case.q}}'), null);
    assert.match(urlCredentialsProblem('http://u:\\{{pw}}@h/', 'header') ?? '', /credentials/);
    assert.equal(urlCredentialsProblem('http://u:\\\\{{case.pw}}@h/', 'header'), null);
  });

  it('refuses credentials written with an escape, as with a template, and not a backslash before a template', async () => {
    const dir = project([
      'version: 1',
      'suites:',
      ...httpSuite('escaped', 'http://admin:\\{{pw}}@127.0.0.1:18080/ok'),
      ...httpSuite('templated', 'http://admin:{{case.pw}}@127.0.0.1:18080/ok'),
      // A backslash, then the value: `\` ends the host part, so there is no user part.
      ...httpSuite('backslash', 'http://admin:\\\\{{case.pw}}@127.0.0.1:18080/ok'),
    ]);
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2, result.stdout + result.stderr);
    assert.deepEqual(placesOf(result.stderr, /credentials/), [
      'evals.yaml:5:32 suites[0].target.url',
      'evals.yaml:8:32 suites[1].target.url',
    ]);
    // The escaped one is shown as written, masked.
    assert.match(result.stderr, /"http:\/\/admin:\*\*\*@127\.0\.0\.1:18080\/ok" has credentials/);
  });

  it('refuses a URL whose escaped {{ leaves it no http URL, and keeps accepting templates', async () => {
    const dir = project([
      'version: 1',
      'suites:',
      ...httpSuite('port', 'http://127.0.0.1:\\{{port}}/ok'),
      ...httpSuite('query', 'http://127.0.0.1:18080/ok?t=\\{{ t }}&q={{ case.id }}'),
      ...httpSuite('whole', '{{ case.id }}'),
      ...httpSuite('scheme', 'ftp://127.0.0.1/{{ case.id }}'),
      ...httpSuite('port-template', 'http://127.0.0.1:{{ case.id }}/ok'),
      ...httpSuite('last-label', 'http://example.{{ case.id }}/ok'),
    ]);
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2, result.stdout + result.stderr);
    // A template where a port goes, or a host's last label, can be one: only the escape and the
    // scheme are refused.
    assert.deepEqual(placesOf(result.stderr, /expected an http/), [
      'evals.yaml:5:32 suites[0].target.url',
      'evals.yaml:14:32 suites[3].target.url',
    ]);
  });
});

describe("a module evaluator's options", () => {
  const MODULES = {
    'answer.mjs': 'export const answer = ({ testCase }) => testCase.q;\n',
    'ev.mjs': 'export const ev = () => ({ score: 1 });\n',
  };

  it('refuse an escaped {{, saying the module would get the backslash, apart from a template; text without {{ is fine', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      [
        'function: ./answer.mjs#answer',
        'evaluators:',
        "  - { id: escaped, use: ./ev.mjs#ev, with: { note: 'say \\{{ hi }}' } }",
        "  - { id: templated, use: ./ev.mjs#ev, with: { note: ['{{ case.q }}'] } }",
        "  - { id: unclosed, use: ./ev.mjs#ev, with: { note: 'a {{ b' } }",
        // No {{ in it: handed over as written, backslashes and all.
        "  - { id: plain, use: ./ev.mjs#ev, with: { note: 'C:\\out\\x \\{\\{ \\d+ }}' } }",
      ],
      MODULES,
    );
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2, result.stdout + result.stderr);
    const lines = result.stderr.split('\n').filter((line) => /evaluators\[/.test(line));
    assert.equal(lines.length, 3, result.stderr);
    assert.match(
      lines[0] ?? '',
      /evaluators\[0\]\.with\.note: a custom evaluator receives with: as written: \\\{\{ is not read as a literal \{\{ there \(the module would get the backslash too\)/,
    );
    assert.match(lines[1] ?? '', /evaluators\[1\]\.with\.note\[0\]: templates are resolved/);
    assert.match(lines[2] ?? '', /evaluators\[2\]\.with\.note: templates are resolved/);
  });
});

describe('a backslash path separator before a template', () => {
  const CONFIG = [
    'version: 1',
    'suites:',
    '  - id: s',
    '    testset: { cases: [ { id: a, q: x } ] }',
    '    target:',
    '      type: command',
    '      run:',
    '        - node',
    "        - 'C:\\tools\\{{ case.id }}.mjs'",
    '        - "C:\\\\out\\\\{{case.id}}.txt"',
    "        - 'C:\\out\\\\{{ case.id }}.txt'",
    "        - 'C:/out/{{ case.id }}.txt'",
    "        - 'Show \\{{ case.q }} to the model'",
    "        - 'dir\\{{ name }} and dir\\{{ case.q + 1 }}'",
    '    evaluators:',
    "      - { id: r1, use: regex, with: { pattern: 'id\\{{case.id}}' } }",
    "      - { id: r2, use: regex, with: { pattern: '\\{\\{ case.id \\}\\}' } }",
    "      - { use: is-equals, with: { expected: '..\\prompts\\{{params.p}}.md' } }",
    '',
  ].join('\n');

  /** `line:col path: message` of each warning, placed as the config loader places an issue. */
  function warnings(text: string): string[] {
    const parsed = parseYaml(text);
    assert.ok(parsed.ok);
    return escapedTemplateWarnings(parsed.source.doc.toJS()).map((warning) => {
      const { line, col } = parsed.source.locate(warning.path);
      return `${line}:${col} ${formatConfigPath(warning.path)}: ${warning.message}`;
    });
  }

  it('is valid config, warned about at each value where one backslash escapes a real template', () => {
    const loaded = parseConfig(CONFIG, {
      file: 'evals.yaml',
      absPath: '/nonexistent/evals.yaml',
      env: {},
      builtins: builtinEvaluators,
    });
    assert.ok(loaded.ok, JSON.stringify(loaded));
    const found = warnings(CONFIG);
    assert.deepEqual(
      found.map((warning) => warning.slice(0, warning.indexOf(': '))),
      [
        '9:11 suites[0].target.run[1]',
        '10:11 suites[0].target.run[2]',
        '18:45 suites[0].evaluators[2].with.expected',
      ],
      found.join('\n'),
    );
    assert.equal(
      found[0],
      '9:11 suites[0].target.run[1]: the backslash before {{ case.id }} makes it literal text, not a template (\\{{ writes a literal {{): write \\\\{{ case.id }} for a backslash followed by the value (\\\\\\\\{{ case.id }} inside a double-quoted YAML string), or use / as the path separator',
    );
    assert.match(found[2] ?? '', /before \{\{ params\.p \}\}/);
  });

  it('is printed by validate, run and the dry run, where the value is, and nothing is refused', async () => {
    const dir = scratch();
    writeFiles(dir, { 'evals.yaml': CONFIG });
    for (const argv of [['validate'], ['run', '--dry-run']]) {
      const result = await runInProcess(argv, dir);
      assert.equal(result.code, 0, result.stderr);
      const printed = result.stderr.split('\n').filter((line) => line.startsWith('warning: '));
      assert.deepEqual(
        printed.map((line) => line.slice(0, line.indexOf(': ', 'warning: '.length))),
        [
          'warning: evals.yaml:9:11  suites[0].target.run[1]',
          'warning: evals.yaml:10:11  suites[0].target.run[2]',
          'warning: evals.yaml:18:45  suites[0].evaluators[2].with.expected',
        ],
        result.stderr,
      );
    }
  });
});
