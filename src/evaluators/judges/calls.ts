/**
 * The model calls of one judge evaluation: structured answers forced through a tool call,
 * embeddings, and the usage they add up to. Every failure — the client's (HTTP, timeout,
 * network, malformed body) or the answer's (a refusal, no tool call, arguments that are not
 * JSON, a choice not offered) — is thrown as an `EvaluationError` carrying the raw text and the
 * usage so far, which the engine records as that evaluation's error; nothing here crashes a run.
 */
import { EvaluationError } from '../../shared/errors.ts';
import type { ChatMessage, ChatReply, JudgeError } from '../../judge/types.ts';
import { addUsage, callUsage, emptyUsage } from '../../judge/usage.ts';
import { oneLine } from '../../shared/one-line.ts';
import type { Usage } from '../../types/index.ts';
import type { MetadataCut } from '../metadata.ts';
import type { BuiltinContext, JudgeContext } from '../types.ts';

/** A judge context whose chat model is known. */
export type ChatJudge = JudgeContext & { model: string };

/** The context's judge, or an error saying the built-in cannot call a model from here. */
function judgeOf(context: BuiltinContext, name: string): JudgeContext {
  if (context.judge === undefined) {
    throw new Error(
      `${name} calls a model: it needs a judge client (run it from evals.yaml or pass one)`,
    );
  }
  return context.judge;
}

/**
 * The judge context of a built-in that needs a chat model, or an error naming the settings to
 * add. Called from `prepare`, so the mistake surfaces once, at load, not on every case.
 */
export function requireChatJudge(context: BuiltinContext, name: string): ChatJudge {
  const judge = judgeOf(context, name);
  if (judge.model === undefined) {
    throw new Error(
      `${name} needs a model: set defaults.judge.model or the evaluator's judge.model`,
    );
  }
  return { ...judge, model: judge.model };
}

/** The judge context of a built-in that needs an embeddings model (see `requireChatJudge`). */
export function requireEmbeddingJudge(
  context: BuiltinContext,
  name: string,
): JudgeContext & { embeddingModel: string } {
  const judge = judgeOf(context, name);
  if (judge.embeddingModel === undefined) {
    throw new Error(
      `${name} needs an embeddings model: set defaults.judge.embeddingModel or the evaluator's judge.embeddingModel`,
    );
  }
  return { ...judge, embeddingModel: judge.embeddingModel };
}

/** A structured answer requested through one forced function call. */
export interface ToolQuestion {
  /** Optional system message. */
  system?: string;
  /** The user message. */
  prompt: string;
  /** The function's name, e.g. `verdict`. */
  tool: string;
  description?: string;
  /** JSON Schema of the arguments (an object schema). */
  parameters: Record<string, unknown>;
}

/** The calls of one evaluation; create one per `score` call and read `usage` at the end. */
export class JudgeCalls {
  #usage: Usage = emptyUsage();
  readonly #judge: JudgeContext;
  readonly #signal: AbortSignal | undefined;
  readonly #cut: MetadataCut;

  /**
   * `cut` cuts what the errors' metadata quotes of an answer (a built-in's, from defineBuiltin,
   * scrubs the run's secrets first: the answer may quote the output, and a cut within a secret
   * would keep its first characters). Required, with no plain-truncating default, so that no
   * caller can forget it and cut a secret in two.
   */
  constructor(judge: JudgeContext, signal: AbortSignal | undefined, cut: MetadataCut) {
    this.#judge = judge;
    this.#signal = signal;
    this.#cut = cut;
  }

  /** Everything the calls so far used (cache hits counted, not priced). */
  get usage(): Usage {
    return this.#usage;
  }

  /**
   * Cuts a text of the judge's answer for metadata (a reason, a claim): the built-in's cut, so
   * the run's secrets are removed before the text is cut (see the constructor).
   */
  get cut(): MetadataCut {
    return this.#cut;
  }

  /** An `EvaluationError` carrying the usage so far, for a judge's own checks of an answer. */
  error(message: string, metadata?: Record<string, unknown>): EvaluationError {
    return new EvaluationError(message, {
      ...(metadata !== undefined ? { metadata } : {}),
      usage: this.#usage,
    });
  }

  /** The error of a call the client gave up on, with its code, status, attempts and raw body. */
  #failed(what: string, error: JudgeError): EvaluationError {
    const { code, status, raw, attempts } = error;
    return this.error(`${what} failed: ${error.message}`, {
      code,
      ...(status !== undefined ? { status } : {}),
      ...(attempts !== undefined ? { attempts } : {}),
      ...(raw !== undefined ? { raw } : {}),
    });
  }

  /**
   * Asks `model` and returns the parsed arguments of the forced call. Throws an
   * `EvaluationError` (metadata `raw`: the answer's text) when the call fails or the answer
   * has no such call or its arguments are not a JSON object.
   */
  async ask(
    model: string,
    question: ToolQuestion,
    fits?: (args: Record<string, unknown>) => boolean,
  ): Promise<Record<string, unknown>> {
    const messages: ChatMessage[] = [];
    if (question.system !== undefined) messages.push({ role: 'system', content: question.system });
    messages.push({ role: 'user', content: question.prompt });
    const result = await this.#judge.client.chat(
      {
        model,
        messages,
        temperature: this.#judge.temperature,
        tools: [
          {
            type: 'function',
            function: {
              name: question.tool,
              ...(question.description !== undefined ? { description: question.description } : {}),
              parameters: question.parameters,
            },
          },
        ],
        tool_choice: { type: 'function', function: { name: question.tool } },
      },
      {
        ...(this.#signal ? { signal: this.#signal } : {}),
        ...(fits !== undefined
          ? { keep: (reply: ChatReply) => keepsFit(reply, question, fits) }
          : {}),
      },
    );
    this.#usage = addUsage(this.#usage, callUsage(result, model, this.#judge.prices));
    if (!result.ok) throw this.#failed('judge call', result.error);
    const call = result.message.toolCalls.find((c) => c.name === question.tool);
    const { content, refusal } = result.message;
    // A refusal is an answer of its own: named and quoted, as a `model` target names it.
    if (call === undefined && refusal !== undefined && refusal !== '') {
      // Scrubbed, then put on one line, then cut: cut first, a secret's first characters would
      // stay in the message; put on one line first, a multi-line secret would not be recognised.
      throw this.error(`the judge refused: ${this.#cut(refusal, QUOTED_CHARS, oneLine)}`, {
        refusal: this.#cut(refusal),
        raw: content ?? '',
      });
    }
    if (call === undefined) {
      throw this.error(`the judge answered without calling ${question.tool}`, {
        raw: content ?? '',
      });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(call.arguments);
    } catch {
      throw this.error(`the judge's ${question.tool} arguments are not JSON`, {
        raw: call.arguments,
      });
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw this.error(`the judge's ${question.tool} arguments are not a JSON object`, {
        raw: call.arguments,
      });
    }
    return parsed as Record<string, unknown>;
  }

  /**
   * {@link ask}, its arguments read by `read` (their value, or what is wrong with them): an
   * answer that does not fit is the evaluation's error, and is never cached, so that a re-run
   * asks again instead of replaying it.
   */
  async askRead<T extends object>(
    model: string,
    question: ToolQuestion,
    read: (args: Record<string, unknown>) => T | string,
  ): Promise<T> {
    const answered = await this.ask(model, question, (args) => typeof read(args) !== 'string');
    const value = read(answered);
    if (typeof value === 'string') {
      throw this.error(`the judge's ${question.tool} arguments do not fit: ${value}`, {
        raw: this.#cut(JSON.stringify(answered), 2000),
      });
    }
    return value;
  }

  /**
   * Asks for one of `choices` with a reason (`verdict(reason, choice)`; the reason first, so
   * the model explains before it decides). Throws when the answer is not one of them.
   */
  async choose(
    model: string,
    question: { system?: string; prompt: string; choices: readonly string[] },
  ): Promise<{ choice: string; reason: string }> {
    const args = await this.ask(model, {
      ...(question.system !== undefined ? { system: question.system } : {}),
      prompt: question.prompt,
      tool: 'verdict',
      description: 'Record your verdict: a short reason, then exactly one of the choices.',
      parameters: {
        type: 'object',
        properties: {
          reason: { type: 'string', description: 'Why, in one or two sentences.' },
          choice: { type: 'string', enum: [...question.choices] },
        },
        required: ['reason', 'choice'],
        additionalProperties: false,
      },
    });
    const { reason } = args;
    const choice = offeredChoice(args.choice, question.choices);
    if (choice === null) {
      throw this.error(choiceRefused(args.choice, question.choices), {
        raw: JSON.stringify(args),
      });
    }
    return { choice, reason: typeof reason === 'string' ? reason : '' };
  }

  /** One embedding per text, in order. Throws an `EvaluationError` when the call fails. */
  async embed(model: string, texts: string[]): Promise<number[][]> {
    const result = await this.#judge.client.embed(
      texts,
      model,
      this.#signal ? { signal: this.#signal } : {},
    );
    this.#usage = addUsage(this.#usage, callUsage(result, model, this.#judge.prices));
    if (!result.ok) throw this.#failed('embeddings call', result.error);
    return result.embeddings;
  }
}

/** How much of a refusal the error quotes (the metadata keeps more). */
const QUOTED_CHARS = 200;

/**
 * The offered choice the judge named, or null. A JSON number or boolean whose text is exactly a
 * choice counts as that choice: many servers send a digit-like enum value (`"3"`) as the number
 * 3. Nothing else is read loosely: a choice differing in case or spaces is not offered.
 */
function offeredChoice(choice: unknown, choices: readonly string[]): string | null {
  const text =
    typeof choice === 'string'
      ? choice
      : typeof choice === 'number' || typeof choice === 'boolean'
        ? String(choice)
        : null;
  return text !== null && choices.includes(text) ? text : null;
}

/** Why the judge's choice is not one of `choices`, naming a near miss as one. */
function choiceRefused(choice: unknown, choices: readonly string[]): string {
  const offered = choices.map((c) => JSON.stringify(c)).join(', ');
  if (choice === undefined || choice === null) {
    return `the judge returned no choice (expected one of ${offered})`;
  }
  const chose = `the judge chose ${JSON.stringify(choice)}, not one of ${offered}`;
  if (typeof choice !== 'string') return chose;
  const loose = (text: string): string => text.trim().toLowerCase();
  const near = choices.find((c) => loose(c) === loose(choice));
  return near === undefined
    ? chose
    : `${chose}: choices are matched exactly, case and spaces included (the nearest is ${JSON.stringify(near)})`;
}

/** Whether `reply` calls `question.tool` with arguments that are a JSON object `fits` accepts. */
function keepsFit(
  reply: ChatReply,
  question: ToolQuestion,
  fits: (args: Record<string, unknown>) => boolean,
): boolean {
  const call = reply.toolCalls.find((c) => c.name === question.tool);
  if (call === undefined) return false;
  try {
    const args: unknown = JSON.parse(call.arguments);
    return (
      typeof args === 'object' &&
      args !== null &&
      !Array.isArray(args) &&
      fits(args as Record<string, unknown>)
    );
  } catch {
    return false;
  }
}
