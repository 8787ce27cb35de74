/**
 * Reading what a server answered (a chat completion, embeddings, an error body) and re-checking
 * what the cache holds. Nothing here trusts its input: a field of the wrong shape makes the
 * answer `undefined`, which the client reports as `judge.malformed` (or treats as a cache miss).
 */
import type { CallMeta, ChatReply, ChatResult, ChatUsage, EmbedResult, ToolCall } from './types.ts';
import { isRecord } from '../shared/is-record.ts';
import { oneLine } from '../shared/one-line.ts';

/** What a successful chat call carries besides {@link CallMeta}. */
export type ChatPayload = Omit<Extract<ChatResult, { ok: true }>, keyof CallMeta | 'ok'>;
/** What a successful embeddings call carries besides {@link CallMeta}. */
export type EmbedPayload = Omit<Extract<EmbedResult, { ok: true }>, keyof CallMeta | 'ok'>;

function tokenCount(value: unknown): number {
  return reportedCount(value) ?? 0;
}

/** Reads a chat-completions response; undefined when it has no first choice with a message. */
export function parseChat(json: unknown): ChatPayload | undefined {
  if (!isRecord(json) || !Array.isArray(json.choices)) return undefined;
  const choice: unknown = json.choices[0];
  if (!isRecord(choice) || !isRecord(choice.message)) return undefined;
  const { content: rawContent, tool_calls: rawCalls, refusal } = choice.message;
  const content = contentText(rawContent);
  if (content === undefined) return undefined;
  const toolCalls: ToolCall[] = [];
  if (Array.isArray(rawCalls)) {
    for (const call of rawCalls) {
      if (!isRecord(call) || !isRecord(call.function)) return undefined;
      const { name, arguments: args } = call.function;
      if (typeof name !== 'string') return undefined;
      // Some compatible servers (Ollama) send the arguments as an object, not JSON text.
      toolCalls.push({ name, arguments: typeof args === 'string' ? args : JSON.stringify(args) });
    }
  }
  const message: ChatReply = { content, toolCalls };
  if (typeof refusal === 'string' && refusal !== '') message.refusal = refusal;
  if (typeof choice.finish_reason === 'string') message.finishReason = choice.finish_reason;
  // A list of parts without text (an image, nothing at all) is not `content: null`: say what came.
  if (content === null && Array.isArray(rawContent)) {
    message.partTypes = rawContent.map((part: Record<string, unknown>) => partType(part));
  }
  return { message, usage: answeredUsage(json) };
}

/**
 * A message's text: a string, none (`null` or absent), or a list of parts whose text parts are
 * joined (vLLM, LiteLLM and others may answer in the parts form requests use). Undefined for
 * anything else, which is not a chat answer.
 */
function contentText(content: unknown): string | null | undefined {
  if (content === undefined || content === null) return null;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts: string[] = [];
  for (const part of content) {
    if (!isRecord(part)) return undefined;
    if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
  }
  return texts.length === 0 ? null : texts.join('');
}

/** A part's `type` as sent; a `text` part whose `text` is not a string says so. */
function partType(part: Record<string, unknown>): string {
  const { type } = part;
  if (typeof type !== 'string') return 'no type';
  return type === 'text' ? 'text without a "text" string' : type;
}

/**
 * The token counts of a successful chat answer. One that does not report both (no `usage`, as
 * some compatible servers and proxies answer, or a count missing) is marked `unreported`, its
 * missing counts 0: the provider billed tokens we do not know, so its cost is unknown, not $0.
 */
function answeredUsage(json: Record<string, unknown>): ChatUsage {
  const usage = isRecord(json.usage) ? json.usage : {};
  const promptTokens = reportedCount(usage.prompt_tokens);
  const completionTokens = reportedCount(usage.completion_tokens);
  return {
    promptTokens: promptTokens ?? 0,
    completionTokens: completionTokens ?? 0,
    ...(promptTokens === undefined || completionTokens === undefined ? UNREPORTED : {}),
  };
}

const UNREPORTED = { unreported: true } as const;

/** A token count as reported: a finite number ≥ 0, else undefined (not reported). */
function reportedCount(value: unknown): number | undefined {
  // Beyond 2^53 a count is not a count of tokens but a server's garbage (1e308), and sums of
  // such counts stop being exact or finite; nor is a fraction (1.5), which the artifact's
  // schema refuses as a count.
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : undefined;
}

/** Reads an embeddings response; undefined unless it has exactly `count` numeric vectors. */
export function parseEmbeddings(json: unknown, count: number): EmbedPayload | undefined {
  if (!isRecord(json) || !Array.isArray(json.data) || json.data.length !== count) return undefined;
  const embeddings: number[][] = new Array<number[]>(count);
  for (const [position, item] of json.data.entries()) {
    if (!isRecord(item) || !Array.isArray(item.embedding)) return undefined;
    const index = typeof item.index === 'number' ? item.index : position;
    if (!item.embedding.every((x) => typeof x === 'number')) return undefined;
    if (index < 0 || index >= count || embeddings[index] !== undefined) return undefined;
    embeddings[index] = item.embedding;
  }
  const promptTokens = reportedCount(isRecord(json.usage) ? json.usage.prompt_tokens : undefined);
  return {
    embeddings,
    usage: { promptTokens: promptTokens ?? 0, ...(promptTokens === undefined ? UNREPORTED : {}) },
  };
}

/** Re-checks a cached chat entry, so a hand-edited or stale file is a miss, not a crash. */
export function cachedChat(value: unknown): ChatPayload | undefined {
  if (!isRecord(value) || !isRecord(value.message) || !isRecord(value.usage)) return undefined;
  const { content, toolCalls } = value.message;
  if (content !== null && typeof content !== 'string') return undefined;
  if (!Array.isArray(toolCalls)) return undefined;
  const calls: ToolCall[] = [];
  for (const call of toolCalls) {
    if (!isRecord(call) || typeof call.name !== 'string' || typeof call.arguments !== 'string') {
      return undefined;
    }
    calls.push({ name: call.name, arguments: call.arguments });
  }
  const message: ChatReply = { content, toolCalls: calls };
  if (typeof value.message.refusal === 'string') message.refusal = value.message.refusal;
  if (typeof value.message.finishReason === 'string') {
    message.finishReason = value.message.finishReason;
  }
  const { partTypes } = value.message;
  if (Array.isArray(partTypes) && partTypes.every((t) => typeof t === 'string')) {
    message.partTypes = partTypes;
  }
  return {
    message,
    usage: {
      promptTokens: tokenCount(value.usage.promptTokens),
      completionTokens: tokenCount(value.usage.completionTokens),
      ...(value.usage.unreported === true ? UNREPORTED : {}),
    },
  };
}

/** Re-checks a cached embeddings entry of `count` vectors, as {@link cachedChat} does. */
export function cachedEmbeddings(value: unknown, count: number): EmbedPayload | undefined {
  if (!isRecord(value) || !Array.isArray(value.embeddings) || !isRecord(value.usage)) {
    return undefined;
  }
  const { embeddings } = value;
  if (embeddings.length !== count) return undefined;
  if (!embeddings.every((v) => Array.isArray(v) && v.every((x) => typeof x === 'number'))) {
    return undefined;
  }
  return {
    embeddings: embeddings,
    usage: {
      promptTokens: tokenCount(value.usage.promptTokens),
      ...(value.usage.unreported === true ? UNREPORTED : {}),
    },
  };
}

/**
 * `: <message>` from an OpenAI-style `{ error: { message } }` body, else a short excerpt; either
 * scrubbed with `scrub` before it is put on one line and cut. The message is scrubbed once
 * decoded, whatever the body was scrubbed with before: a server may escape characters a JSON
 * string need not escape (PHP writes `/` as `\/`, others `A` as `\u0041`), which hides a secret
 * from a scrub of the body's text, and decoding gives it back whole.
 */
export function errorDetail(text: string, scrub: (text: string) => string): string {
  try {
    const json = JSON.parse(text) as unknown;
    if (isRecord(json) && isRecord(json.error) && typeof json.error.message === 'string') {
      return `: ${oneLine(scrub(json.error.message)).slice(0, 300)}`;
    }
  } catch {
    // not JSON: fall through to the excerpt
  }
  const excerpt = oneLine(scrub(text)).slice(0, 200);
  return excerpt === '' ? '' : `: ${excerpt}`;
}

/**
 * The token counts an answer that could not be used still reported (a 2xx without the expected
 * fields, or an error answer whose JSON body has `usage`), if it reported any.
 */
export function reportedUsage(json: unknown): ChatUsage | undefined {
  if (!isRecord(json) || !isRecord(json.usage)) return undefined;
  const promptTokens = reportedCount(json.usage.prompt_tokens);
  const completionTokens = reportedCount(json.usage.completion_tokens);
  if (promptTokens === undefined && completionTokens === undefined) return undefined;
  return { promptTokens: promptTokens ?? 0, completionTokens: completionTokens ?? 0 };
}

/** The sum of two token counts; `undefined` is none. */
export function addTokens(
  a: ChatUsage | undefined,
  b: ChatUsage | undefined,
): ChatUsage | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
  };
}
