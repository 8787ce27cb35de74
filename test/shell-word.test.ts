/**
 * The one quoting of every command evals prints to paste (src/shared/shell-word.ts): plain words
 * as they are, others single-quoted, and a path that starts with `-` written `./-…` so that no
 * command reads it as an option.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pathWord, shellQuote, shellWord } from '../src/shared/shell-word.ts';

describe('shell words of printed commands', () => {
  it('leaves a plain word as it is and single-quotes the rest', () => {
    assert.equal(shellWord('results/run-1.json'), 'results/run-1.json');
    assert.equal(shellWord('key=a,b:c@1%'), 'key=a,b:c@1%');
    assert.equal(shellWord('my results.json'), "'my results.json'");
    assert.equal(shellWord("it's"), `'it'\\''s'`);
    assert.equal(shellQuote('$HOME'), "'$HOME'");
  });

  it('writes a path that starts with "-" as ./-…, quoted when it must be', () => {
    assert.equal(pathWord('-r.json'), './-r.json');
    assert.equal(pathWord('-my r.json'), "'./-my r.json'");
    assert.equal(pathWord('out/-r.json'), 'out/-r.json');
  });
});
