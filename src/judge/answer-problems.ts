/**
 * What is wrong with a 2xx answer a judge or model client cannot use, in words for its error:
 * the error a gateway put in it, or what a chat answer lacks, with the start of what came back.
 */
import { isRecord } from '../shared/is-record.ts';
import { oneLine } from '../shared/one-line.ts';

/**
 * Why a 2xx answer is of no use: the error the server put in it (a gateway's `200 {"error":
 * {"message": "quota exceeded"}}`), else what is missing (`shapeProblem`), with the start of
 * what came back. `json` is already scrubbed of secrets, so no part of one is in the excerpt.
 */
export function malformedDetail(json: unknown, shapeProblem: (json: unknown) => string): string {
  if (isRecord(json)) {
    const error = json.error;
    const message = isRecord(error) ? error.message : error;
    if (typeof message === 'string' && message.trim() !== '') {
      return `with an error: ${oneLine(message).slice(0, 300)}`;
    }
  }
  const text = oneLine(JSON.stringify(json) ?? String(json));
  const excerpt = text.length <= ANSWER_EXCERPT ? text : `${text.slice(0, ANSWER_EXCERPT)}…`;
  return `${shapeProblem(json)}: ${excerpt}`;
}

/** How much of an unusable answer's JSON an error quotes. */
const ANSWER_EXCERPT = 300;

/** What a chat answer lacks, for one `parseChat` refused: `with no choices`, … */
export function chatShapeProblem(json: unknown): string {
  if (!isRecord(json)) return 'with a body that is not a JSON object';
  if (!Array.isArray(json.choices)) return 'without choices';
  const choice: unknown = json.choices[0];
  if (choice === undefined) return 'with no choices (choices is empty)';
  if (!isRecord(choice) || !isRecord(choice.message)) return 'with a choice without a message';
  const content = choice.message.content;
  if (Array.isArray(content)) {
    return content.length === 0
      ? 'with message.content an empty list of parts'
      : 'with message.content a list whose parts are not all objects ({ type: "text", text: … })';
  }
  if (content !== undefined && content !== null && typeof content !== 'string') {
    return `with message.content ${typeof content === 'object' ? 'an object' : `a ${typeof content}`}, not text`;
  }
  return 'without the expected fields';
}
