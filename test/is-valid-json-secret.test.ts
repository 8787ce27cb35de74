/**
 * `is-valid-json` on an output holding a secret where its JSON goes wrong (`{"key": sk-…}`, a
 * program that printed a key unquoted) put the engine's parse message in the evaluation's
 * metadata, which quotes ten characters of the text at the error: a piece of the secret that
 * scrubbing the finished case cannot recognise, so it reached the artifact and the JUnit file.
 * Found by the response fuzz (scripts/fuzz-command.ts, `secret-bad-json`). The evaluator now
 * says where it goes wrong as evalgate does for any JSON (line, column, what was found), and a
 * word it quotes cut short ends with an ellipsis, which scrubbing recognises.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allText, artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { runCli } from './helpers/cli.ts';
import { describeJsonError } from '../src/shared/json-syntax.ts';

const TOKEN = 'sk-valid-json-SECRET-0123456789abcdef';

describe('is-valid-json on an output that goes wrong at a secret', () => {
  it('records where, with the secret nowhere', async () => {
    const dir = jsonlProject(
      [{ q: 'x' }],
      [
        'target: { type: command, run: [node, print.mjs] }',
        'evaluators:',
        '  - { id: json, use: is-valid-json }',
      ],
      {
        'print.mjs':
          "process.stdin.resume().on('end', () => process.stdout.write('{\"key\": ' + process.env.MY_TOKEN + '}'));\n",
      },
    );
    const result = await runInProcess(['run', '-o', 'results.json', '--junit', 'junit.xml'], dir, {
      MY_TOKEN: TOKEN,
    });
    assert.equal(result.code, 1, result.stdout + result.stderr);
    const evaluation = artifactCases(dir)[0]!.cases[0]!.evaluations[0] as unknown as {
      score: number;
      metadata: { error: string };
    };
    assert.equal(evaluation.score, 0);
    assert.equal(
      evaluation.metadata.error,
      'not valid JSON: line 1, column 9: expected a value, found "[redacted]"',
    );
    const everywhere = `${result.stdout}
${result.stderr}
${allText(dir)}`;
    assert.doesNotMatch(everywhere, /sk-valid/);
  });

  it('a secret late in the word quoted: scrubbed before the word is cut, no piece left', async () => {
    // The word is cut at 20 characters: 12 to 19 of padding left 8 to 1 of the secret, of which
    // scrubbing the finished case knew only 6 or more.
    const dir = jsonlProject(
      Array.from({ length: 8 }, (_, i) => ({ pad: 12 + i })),
      ['function: ./fn.mjs#fn', 'evaluators:', '  - { id: json, use: is-valid-json }'],
      {
        'fn.mjs':
          "export const fn = ({ testCase }) => '{\"key\": 1 ' + 'x'.repeat(testCase.pad) + process.env.MY_TOKEN + '}';\n",
      },
    );
    const r = await runCli(['run', '-o', 'results.json', '--junit', 'junit.xml'], {
      cwd: dir,
      env: { MY_TOKEN: TOKEN },
    });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const errors = artifactCases(dir)[0]!.cases.map(
      (c) => (c.evaluations[0] as unknown as { metadata: { error: string } }).metadata.error,
    );
    for (const error of errors) assert.match(error, /found "x{12,19}[[\]redact]*…"$/, error);
    const everywhere = `${r.stdout}\n${r.stderr}\n${allText(dir)}`;
    assert.doesNotMatch(everywhere, /x{12}s/, 'a piece of the secret after the padding');
  });

  it('a word quoted cut short ends with an ellipsis; a short one is quoted whole', () => {
    assert.match(
      describeJsonError('[abcdefghijklmnopqrstuvwxyz]', new Error()),
      /found "abcdefghijklmnopqrst…"$/,
    );
    assert.match(describeJsonError('[abcdefghij]', new Error()), /found "abcdefghij"$/);
    // A token that goes on past the word (a base64 key's `/`) is marked cut as well.
    assert.match(describeJsonError('[sk-abcdefgh/ijk=]', new Error()), /found "sk-abcdefgh…"$/);
  });
});
