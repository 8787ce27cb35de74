/**
 * The `model` target: one chat completion per case from an OpenAI-compatible API, through the
 * judges' client (the same cache, retries, per-host cap, and usage and cost accounting). With a
 * JSON response format the output is the parsed reply; a reply that is not the JSON asked for
 * is a case error that keeps the reply's text as the output.
 */
import { resolve } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { ajvClasses } from '../shared/ajv-module.ts';
import type { JudgeSettings, ModelTargetConfig, PromptSource } from '../config/types.ts';
import { callUsage, hasUsage, type PriceTable } from '../judge/usage.ts';
import type { ChatMessage, ChatRequest, JudgeClient } from '../judge/types.ts';
import { expandGrid } from '../plan/grid.ts';
import { describeTarget } from '../config/target.ts';
import type { Checked, Issue } from '../shared/errors.ts';
import { describeJsonError } from '../shared/json-syntax.ts';
import { promptFileText } from '../shared/prompt-text.ts';
import { textOutput } from '../shared/line-ends.ts';
import { roundedIntegerNotes, withNote } from '../shared/rounded-integers.ts';
import { utf8Issue } from '../testsets/encoding.ts';
import type { FnArgs, Target, TargetOutput } from '../types/index.ts';
import { textInput, type Rendered, type TargetInput } from './inputs.ts';
import { replyText } from './model-reply.ts';
import { unreadableReason } from '../shared/unreadable.ts';
import { readRegularFileBytes } from '../shared/regular-file.ts';

/** Model clients of the run, shared with the judges. */
export interface ModelClients {
  /** A client for these connection settings, sharing the run's cache and per-host cap. */
  client(settings: JudgeSettings): JudgeClient;
  /** `defaults.judge.prices`: what a call costs, by model. */
  prices: PriceTable | undefined;
}

/** What building a model target needs from the suite it belongs to. */
export interface ModelTargetSetup {
  /** The config's folder: prompt files are relative to it. */
  dir: string;
  grid: Readonly<Record<string, readonly unknown[]>>;
  models: ModelClients | undefined;
  /** The issue at a path of the suite. */
  issueAt(...path: (string | number)[]): Issue;
  /** Says something about the run once (a reply's integer past 2^53); default silent. */
  warn?: (message: string) => void;
}

const asIs = (text: string): string => text;

/**
 * Builds the target; the problems are every prompt file that cannot be read for some grid point
 * (of every message), and a response schema that does not compile.
 */
export async function createModelTarget(
  config: ModelTargetConfig,
  setup: ModelTargetSetup,
): Promise<Checked<Target>> {
  if (setup.models === undefined) {
    return {
      ok: false,
      issues: [
        {
          ...setup.issueAt('target'),
          code: 'target.no-models',
          message: 'a model target needs model access, which this run was not given',
        },
      ],
    };
  }
  const issues: Issue[] = [];
  const messages: { role: ChatMessage['role']; content: PromptText }[] = [];
  for (const message of config.messages) {
    const content = await promptText(message.content, setup);
    if (content.ok) messages.push({ role: message.role, content: content.value });
    else issues.push(...content.issues);
  }
  const schema = config.responseFormat;
  let validate: ValidateFunction | undefined;
  if (typeof schema === 'object') {
    try {
      const { Ajv } = ajvClasses();
      validate = new Ajv({ allErrors: false, strict: false }).compile(schema.schema);
    } catch (error) {
      issues.push({
        ...setup.issueAt('target', 'responseFormat'),
        code: 'target.response-schema',
        message: `not a usable JSON Schema: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }
  if (issues.length > 0) return { ok: false, issues };
  const client = setup.models.client({
    ...(config.baseUrl !== undefined ? { baseUrl: config.baseUrl } : {}),
    ...(config.apiKey !== undefined ? { apiKey: config.apiKey } : {}),
    ...(config.headers !== undefined ? { headers: config.headers } : {}),
    ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
    ...(config.maxRetries !== undefined ? { maxRetries: config.maxRetries } : {}),
  });
  const model = textInput(config.model, asIs);
  const noteRounded = roundedIntegerNotes(
    setup.warn,
    `a JSON reply of the target ${describeTarget(config)}`,
  );
  const prices = setup.models.prices;
  return {
    ok: true,
    value: {
      description: describeTarget(config),
      async call(args): Promise<TargetOutput> {
        const request = chatRequest(config, model.render(args), messages, args);
        if (!request.ok) return { output: null, error: request.error };
        // What was asked goes with every answer, an error's too: it is what a failing case is
        // debugged from (the run scrubs it with the rest of the case).
        return { ...(await answer(request.value, args)), sent: sentText(request.value) };
      },
    },
  };

  async function answer(request: ChatRequest, args: FnArgs): Promise<TargetOutput> {
    // Each trial is its own sample: trials after the first are cached apart from trial 1.
    const result = await client.chat(request, {
      signal: args.signal,
      ...(args.trial !== undefined ? { trial: args.trial } : {}),
    });
    const usage = callUsage(result, request.model, prices);
    if (!result.ok) {
      // A call never sent (its server given up on) used nothing: no usage at all.
      return {
        output: null,
        ...(hasUsage(usage) ? { usage } : {}),
        error: result.error.message,
      };
    }
    // A cached answer took no time now: the case is timed by the call that got it.
    const timed =
      result.recordedLatencyMs !== undefined ? { durationMs: result.recordedLatencyMs } : {};
    const reply = replyText(result.message);
    if (!reply.ok) return { output: null, usage, error: reply.error, ...timed };
    if (config.responseFormat === 'text') {
      // An empty reply is no answer to score, as a command's empty stdout is not (see
      // model-reply.ts), unless the target allows it.
      if (reply.text.trim() === '' && config.allowEmptyOutput !== true) {
        const why = result.message.finishReason;
        const error = `the model's reply is empty (content: ${reply.text === '' ? '""' : 'only white space'}${why === undefined ? '' : `, finish_reason: ${why}`}): no output to score (allowEmptyOutput: true on the target scores it as it is)`;
        return { output: reply.text, usage, error, ...timed };
      }
      // LF line ends, no trailing line breaks: as an http target's text answer and a
      // command's stdout are read (see textOutput).
      return { output: textOutput(reply.text), usage, ...timed };
    }
    const note = noteRounded(reply.text);
    return withNote({ ...parsedReply(reply.text, validate), usage, ...timed }, note);
  }
}

/**
 * A chat request as the case's `sent` shows it: the model, then each message under its role,
 * its content as rendered (a list of parts as JSON).
 */
function sentText(request: ChatRequest): string {
  const messages = request.messages.map((message) => {
    const content =
      typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
    return `[${message.role}]\n${content}`;
  });
  return [`model: ${request.model}`, ...messages].join('\n\n');
}

/** A message's text per case: one template, or one per prompt file the grid points name. */
type PromptText = (args: TemplateArgs) => Rendered<string>;
type TemplateArgs = Parameters<TargetInput<string>['render']>[0];

/**
 * The text of a prompt source. A file's path may name the grid point, so every file the grid
 * can name is read now (a missing one is a problem before anything runs), once; the problems of
 * every grid point come back together.
 */
async function promptText(
  source: PromptSource,
  setup: ModelTargetSetup,
): Promise<Checked<PromptText>> {
  if ('text' in source) {
    const input = textInput(source.text, asIs);
    return { ok: true, value: (args) => input.render(args) };
  }
  const path = textInput(source.file, asIs);
  const files = new Map<string, TargetInput<string>>();
  // Each file read once, and so each problem named once, at the first grid point that names it.
  const seen = new Set<string>();
  const problems = new Set<string>();
  for (const params of expandGrid(setup.grid)) {
    const file = path.render({ testCase: {}, params });
    if (!file.ok) {
      problems.add(file.error);
      continue;
    }
    if (seen.has(file.value)) continue;
    seen.add(file.value);
    // Which grid point named the file, when a template did.
    const named =
      file.value === source.file ? '' : ` (from ${source.file} at ${JSON.stringify(params)})`;
    try {
      // Not a FIFO or a device: opening a FIFO waits for a writer that never comes.
      const bytes = await readRegularFileBytes(
        resolve(setup.dir, file.value),
        Number.MAX_SAFE_INTEGER,
      );
      const encoding = utf8Issue(bytes, file.value);
      if (encoding !== undefined) {
        // `not valid UTF-8 at line …`, or of a foreign encoding `FILE is UTF-16 …`.
        const message =
          encoding.line > 0
            ? `${file.value}${named} is ${encoding.message}`
            : `${encoding.message}${named}`;
        problems.add(`prompt file ${message}`);
      } else {
        files.set(file.value, textInput(promptFileText(bytes.toString('utf8')), asIs));
      }
    } catch (error) {
      const reason =
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? 'does not exist'
          : `cannot be read (${unreadableReason(error) ?? (error as Error).message})`;
      problems.add(`prompt file ${file.value}${named} ${reason}`);
    }
  }
  if (problems.size > 0) {
    const at = setup.issueAt(...source.at);
    return {
      ok: false,
      issues: [...problems].map((message) => ({ ...at, code: 'target.prompt-file', message })),
    };
  }
  return {
    ok: true,
    value: (args) => {
      const file = path.render(args);
      if (!file.ok) return file;
      const input = files.get(file.value);
      // Every grid point's file was read; a point outside the grid is a bug.
      if (input === undefined) throw new Error(`prompt file ${file.value} was not read`);
      return input.render(args);
    },
  };
}

/** The request of one case, or the template that could not be resolved. */
function chatRequest(
  config: ModelTargetConfig,
  model: Rendered<string>,
  messages: readonly { role: ChatMessage['role']; content: PromptText }[],
  args: TemplateArgs,
): Rendered<ChatRequest> {
  if (!model.ok) return model;
  const rendered: ChatMessage[] = [];
  for (const message of messages) {
    const content = message.content(args);
    if (!content.ok) return content;
    rendered.push({ role: message.role, content: content.value });
  }
  const request: ChatRequest = {
    model: model.value,
    messages: rendered,
    temperature: config.temperature ?? 0,
  };
  if (config.maxTokens !== undefined) request.max_tokens = config.maxTokens;
  if (config.seed !== undefined) request.seed = config.seed;
  const format = config.responseFormat;
  if (format === 'json') request.response_format = { type: 'json_object' };
  if (typeof format === 'object') {
    request.response_format = {
      type: 'json_schema',
      json_schema: { name: 'output', schema: format.schema },
    };
  }
  return { ok: true, value: request };
}

/** A JSON reply parsed (and checked against the schema asked for), or the error with the text kept. */
function parsedReply(text: string, validate: ValidateFunction | undefined): TargetOutput {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    // A model a server did not hold to JSON mode often fences its JSON as Markdown: say so.
    const fenced = text.trimStart().startsWith('```')
      ? '; it is wrapped in a Markdown code fence (```): the server did not hold the model to JSON mode (ask for bare JSON in the prompt)'
      : '';
    return {
      output: text,
      error: `the model's reply is not JSON (responseFormat asks for JSON): ${describeJsonError(text, error)}${fenced}`,
    };
  }
  // JSON's null is no answer: scored, it would pass every check that something is not there.
  if (parsed === null && validate === undefined) {
    return { output: null, error: "the model's reply is the JSON null: no output to score" };
  }
  if (validate !== undefined && !validate(parsed)) {
    const first = validate.errors?.[0];
    const where = first?.instancePath ? ` at ${first.instancePath}` : '';
    return {
      output: parsed,
      error: `the model's reply does not match responseFormat's schema${where}: ${first?.message ?? 'invalid'}`,
    };
  }
  return { output: parsed };
}
