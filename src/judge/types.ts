/**
 * What goes into and comes out of a judge client: the chat-completions request as the API takes
 * it, and the results `chat` and `embed` hand back. `client.ts` re-exports them; they live apart
 * so the response readers and the request loop can share them without importing the client.
 */

/** A chat message as the chat-completions API takes it. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool' | 'developer';
  content: string | null | Record<string, unknown>[];
  name?: string;
  tool_call_id?: string;
  tool_calls?: Record<string, unknown>[];
}

/** A function the model may (or, with `tool_choice`, must) call. */
export interface ChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

/**
 * A chat-completions request body. `temperature` defaults to 0 (judges should be repeatable);
 * other fields the API accepts (`seed`, `response_format`, …) pass through unchanged.
 */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  tools?: ChatTool[];
  tool_choice?: 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };
  max_tokens?: number;
  [field: string]: unknown;
}

/** One tool call of the answer; `arguments` is the JSON text the model produced. */
export interface ToolCall {
  name: string;
  arguments: string;
}

/** Token counts as the server reported them (0 when it reported none). */
export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
  /**
   * `true` on a successful answer that did not report both counts (no `usage`, or a count
   * missing): the provider billed tokens nobody knows, so the call's cost is unknown.
   */
  unreported?: true;
}

/** Why a call failed; branch on `code`. */
export interface JudgeError {
  code:
    | 'judge.http'
    | 'judge.timeout'
    | 'judge.network'
    | 'judge.malformed'
    | 'judge.too-large'
    | 'judge.aborted';
  message: string;
  /** The HTTP status, for `judge.http` (and a `judge.malformed` 2xx). */
  status?: number;
  /** The first 2 KB of the body, for `judge.malformed` and `judge.http`. */
  raw?: string;
  /**
   * Requests made, including the failing one; 0 for a call that was never sent. For a client
   * call, an attempt its signal stopped before the request went out (waiting for a slot under
   * the host cap) is none.
   */
  attempts?: number;
  /**
   * Why the retries stopped before `maxRetries` (the server asked for a longer wait than any run
   * should sit idle), also the end of `message`: a caller that words its own message keeps it.
   */
  gaveUp?: string;
  /**
   * For a call the client made: the time it took, from the first attempt to the failure, with
   * the retries and backoff waits between them (as `CallMeta.latencyMs`); 0 when nothing was sent.
   */
  latencyMs?: number;
  /**
   * Token counts the server reported with the answers that could not be used (a 200 without the
   * expected fields, an error answer whose JSON body has `usage`), summed over the call's
   * attempts; absent when it reported none, as for a timeout or a dropped socket.
   */
  usage?: ChatUsage;
  /** For `judge.network`: the system's error code (`ECONNREFUSED`, `ENOTFOUND`), when known. */
  networkCode?: string;
}

/** Per-call options. */
export interface CallOptions {
  /** Aborts the call, including a backoff wait; the result is `judge.aborted`. */
  signal?: AbortSignal;
  /**
   * The trial (1-based) of the case this call is for (`trials: N`): trials after the first are
   * cached apart, so each is its own sample. Default: the trial the engine is running (see
   * `inTrial` in `cache.ts`), else none, which is cached as trial 1.
   */
  trial?: number;
  /**
   * For `chat`: whether a reply is an answer worth keeping. One it refuses (a judge's answer
   * that does not fit what it asked) is neither stored in the cache nor served from it, so the
   * next run asks again. A reply without the function call `tool_choice` forced is never kept.
   */
  keep?: (reply: ChatReply) => boolean;
}

/** What a call reports on success, besides its payload. */
export interface CallMeta {
  /** Served from the cache: no request was made. Usage is the original call's. */
  cached: boolean;
  /** From the first attempt to the answer, including backoff waits; 0 for a cache hit. */
  latencyMs: number;
  /** Requests made (0 for a cache hit). */
  attempts: number;
  /**
   * A cache hit's `latencyMs` when the call was made, as its entry recorded it (entries an
   * earlier evalgate wrote recorded none): what a `model` target's cached output took.
   */
  recordedLatencyMs?: number;
}

/** The outcome of {@link JudgeClient.chat}. */
/**
 * The first choice of a chat answer. `refusal` and `finishReason` are kept as the server sent
 * them: a reply with no text is an answer to the client (a judge may have asked for a tool
 * call), and only its reader knows whether no text is an error.
 */
export interface ChatReply {
  content: string | null;
  toolCalls: ToolCall[];
  /** The model's refusal text (OpenAI structured outputs), when it declined. */
  refusal?: string;
  /** Why the model stopped: `stop`, `length`, `tool_calls`, `content_filter`… */
  finishReason?: string;
  /**
   * When `content` came as a list of parts none of which has text: the `type` of each part, in
   * order (`[]` for an empty list), so a reader can say what came instead of text.
   */
  partTypes?: string[];
}

export type ChatResult =
  | ({
      ok: true;
      message: ChatReply;
      usage: ChatUsage;
    } & CallMeta)
  | { ok: false; error: JudgeError };

/** The outcome of {@link JudgeClient.embed}: one vector per input text, in input order. */
export type EmbedResult =
  | ({
      ok: true;
      embeddings: number[][];
      /** `unreported`: the answer had no `usage.prompt_tokens` (see {@link ChatUsage}). */
      usage: { promptTokens: number; unreported?: true };
    } & CallMeta)
  | { ok: false; error: JudgeError };

/** A client; create one per process (or per cap) and share it. */
export interface JudgeClient {
  /** The resolved API root, without a trailing slash. */
  readonly baseUrl: string;
  /** POST `/chat/completions`. */
  chat(request: ChatRequest, options?: CallOptions): Promise<ChatResult>;
  /** POST `/embeddings` with `input: texts`. */
  embed(texts: string[], model: string, options?: CallOptions): Promise<EmbedResult>;
}
