/**
 * An http target's `url:` written without its scheme (`localhost:8080/ask`, which a URL parser
 * reads as the scheme `localhost:`) is refused at its line and column saying what is missing and
 * what to write, not only that it is no http URL. A URL that is wrong in another way keeps the
 * plain message.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

async function validate(url: string): Promise<{ code: number; stderr: string }> {
  const dir = jsonlProject([{ q: 'a' }], ['target:', '  type: http', `  url: "${url}"`]);
  const result = await runInProcess(['validate'], dir);
  return { code: result.code, stderr: result.stderr };
}

describe('an http url with no scheme', () => {
  it('is refused saying to write http:// in front', async () => {
    const { code, stderr } = await validate('localhost:8080/ask?q={{ case.q }}');
    assert.equal(code, 2, stderr);
    assert.match(
      stderr,
      /^error: evals\.yaml:\d+:\d+ +suites\[0\]\.target\.url: expected an http:\/\/ or https:\/\/ URL, found "localhost:8080\/ask\?q=\{\{ case\.q \}\}", which has no scheme: write "http:\/\/localhost:8080\/ask\?q=\{\{ case\.q \}\}" \(or https:\/\/\)$/m,
    );
  });

  it('is not said of a URL with another scheme', async () => {
    const { code, stderr } = await validate('ftp://example.com/x');
    assert.equal(code, 2, stderr);
    assert.match(stderr, /found "ftp:\/\/example\.com\/x"$/m);
  });
});
