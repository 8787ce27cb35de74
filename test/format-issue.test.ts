import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatIssue, type Issue } from '../src/shared/errors.ts';

const atFile = (file: string, message: string, line = 0): Issue => ({
  code: 'x',
  file,
  line,
  col: line > 0 ? 3 : 0,
  path: '',
  message,
});

describe('formatIssue', () => {
  it('puts a position in front of the message', () => {
    assert.equal(formatIssue(atFile('evals.yaml', 'bad', 4)), 'evals.yaml:4:3  bad');
  });

  it('names a whole file once when the message names it as its subject', () => {
    for (const message of [
      'base.json: no such results file',
      '--resume base.json is not a results artifact of this evalgate: /verdict',
      '-o base.json: is a folder, not a file',
    ]) {
      assert.equal(formatIssue(atFile('base.json', message)), message);
    }
  });

  it('keeps the file in front when its name is only a word of the message', () => {
    assert.equal(
      formatIssue(atFile('a', 'not a valid results artifact: /runs')),
      'a  not a valid results artifact: /runs',
    );
    assert.equal(
      formatIssue(atFile('results', 'results of schemaVersion 9 are not read here')),
      'results  results of schemaVersion 9 are not read here',
    );
  });
});
