/**
 * What a `model` target makes of a chat reply. A reply with no text is an answer to the judges'
 * client (a judge may have asked for a tool call), but not to a target: scored as the empty
 * string it would pass every check that looks for something NOT to be there ("must not
 * apologise", a maximum length). So no text is a case error saying what came back instead.
 */
import type { ChatReply } from '../judge/types.ts';
import { oneLine } from '../shared/one-line.ts';

export type ReplyText = { ok: true; text: string } | { ok: false; error: string };

/** How much of a refusal or of a tool call's arguments the error quotes. */
const QUOTED_CHARS = 200;
/** How many tool calls the error names. */
const NAMED_CALLS = 3;

export function replyText(reply: ChatReply): ReplyText {
  const { content, toolCalls, refusal, finishReason } = reply;
  if (refusal !== undefined) return failed(`the model refused: ${quote(refusal)}`);
  // A filtered reply may carry the text written before the filter stopped it: not the answer.
  if (finishReason === 'content_filter') {
    return failed(
      "the provider's content filter stopped the reply (finish_reason: content_filter)",
    );
  }
  if (content !== null && content !== '') return { ok: true, text: content };
  if (toolCalls.length > 0) {
    const named = toolCalls
      .slice(0, NAMED_CALLS)
      .map((call) => `${call.name}(${quote(call.arguments)})`);
    const more = toolCalls.length - named.length;
    const calls = `${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
    const what = toolCalls.length === 1 ? 'a tool call' : `${toolCalls.length} tool calls`;
    return failed(`the model answered with ${what} and no text: ${calls}`);
  }
  if (finishReason === 'length') {
    return failed(
      'the reply reached the token limit before any text (finish_reason: length): raise maxTokens',
    );
  }
  // An empty string the model chose to send is a reply (a target refuses it as an answer
  // unless `allowEmptyOutput`, see model.ts); a missing one is not.
  if (content === '') return { ok: true, text: '' };
  const why = finishReason === undefined ? '' : `, finish_reason: ${finishReason}`;
  return failed(`the model's reply has no text (content: ${noText(reply.partTypes)}${why})`);
}

/** How many distinct part types the error names. */
const NAMED_TYPES = 5;

/**
 * What came as content instead of text: `null` (or none), `an empty list`, or `a list of 2
 * parts, none with text (image_url, input_audio)`.
 */
function noText(partTypes: readonly string[] | undefined): string {
  if (partTypes === undefined) return 'null';
  if (partTypes.length === 0) return 'an empty list';
  const distinct = [...new Set(partTypes)];
  const named = distinct.slice(0, NAMED_TYPES).map((type) => quote(type).slice(0, 60));
  const more = distinct.length - named.length;
  const parts = partTypes.length === 1 ? '1 part' : `${partTypes.length} parts`;
  return `a list of ${parts}, none with text (${named.join(', ')}${more > 0 ? `, ${more} more` : ''})`;
}

function failed(error: string): ReplyText {
  return { ok: false, error };
}

function quote(text: string): string {
  const line = oneLine(text);
  return line.length > QUOTED_CHARS ? `${line.slice(0, QUOTED_CHARS)}…` : line;
}
