/**
 * `describeValue` ("found …" in messages) cuts a long string inside an object or array at the
 * room its JSON has left, then scrubs the whole text, then cuts that to 80 characters. The inner
 * cut came before the scrub: a secret at it kept its first characters, and the secrets replaced
 * before it (`[redacted]` is shorter) brought those into the 80 shown. Every string is now
 * scrubbed before it is cut. Every offset of the secret around the inner cut is tried.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeValue } from '../src/shared/errors.ts';
import { createScrubber } from '../src/shared/secrets.ts';
import { leaksIn } from './helpers/secret-fuzz.ts';

const SECRETS = [
  'Aa1Bb2Cc3Dd4Ee5Ff6Gg7Hh8Ii9Jj0',
  'Kk1Ll2Mm3Nn4Oo5Pp6Qq7Rr8Ss9Tt0',
  'Zq9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0',
] as const;

describe('describeValue of a value holding secrets', () => {
  it('shows no piece of one cut inside an object or an array, wherever it falls', () => {
    const scrub = createScrubber(SECRETS).text;
    const [a, b, c] = SECRETS;
    const shown: [string, string][] = [];
    for (let pad = 0; pad < 140; pad++) {
      const tail = `${'x'.repeat(pad)}${c}`;
      shown.push([`object, pad ${pad}`, describeValue({ a, b, c: tail }, scrub)]);
      shown.push([`array, pad ${pad}`, describeValue([a, b, tail], scrub)]);
      shown.push([`nested, pad ${pad}`, describeValue({ a, n: { b, c: tail } }, scrub)]);
    }
    assert.deepEqual(leaksIn(shown, SECRETS), []);
    // Shown at all: the cut falls within the 80 characters for some offsets.
    assert.ok(
      shown.some(([, text]) => /"c":"x+\.\.\./.test(text) || /"c":"x*\[redacted\]/.test(text)),
    );
  });
});
