/**
 * The curl habit: an http target's `body: '{"q": "{{ case.q }}"}'`, JSON written as one
 * string. A string body is sent as text (`content-type: text/plain`), which a JSON API reads as
 * no body at all (a 415, a 422, or an empty request object), and a value holding a quote or a
 * line break makes it invalid JSON. It is valid config, so it is a warning, not an error; with a
 * `content-type` header the author chose how it is sent, and the value is checked per case.
 */
import { isRecord } from '../shared/is-record.ts';
import { isWholeTemplate } from '../shared/templates.ts';
import type { RuleProblem } from './rules.ts';

/** Text that reads as a JSON object or array: what the string's author meant to send. */
const LOOKS_LIKE_JSON = /^\s*(\{[\s\S]*\}|\[[\s\S]*\])\s*$/;

/**
 * One `target.body-json-string` warning per http target of `data` (the config as read) whose
 * `body` is a string that reads as JSON and whose `headers` give no `content-type`, at its body.
 */
export function jsonStringBodyWarnings(data: unknown): RuleProblem[] {
  const warnings: RuleProblem[] = [];
  const suites = isRecord(data) && Array.isArray(data.suites) ? data.suites : [];
  suites.forEach((suite: unknown, i) => {
    if (!isRecord(suite) || !isRecord(suite.target)) return;
    const { type, body, headers } = suite.target;
    if (type !== 'http' || typeof body !== 'string' || !LOOKS_LIKE_JSON.test(body)) return;
    // `body: "{{ case.payload }}"` sends the value with its type: an object goes as JSON.
    if (isWholeTemplate(body)) return;
    const named = isRecord(headers) ? Object.keys(headers) : [];
    if (named.some((name) => name.toLowerCase() === 'content-type')) return;
    warnings.push({
      code: 'target.body-json-string',
      path: ['suites', i, 'target', 'body'],
      message:
        'body: is one string, so it is sent as text (content-type: text/plain), though it reads as JSON: a JSON API may not read it, and a value holding a quote or a line break breaks it. Write the body as YAML (body: { q: "{{ case.q }}" }), sent as JSON with each value escaped, or give headers: { content-type: application/json }',
    });
  });
  return warnings;
}
