/**
 * A suite's `target:` (what produces each case's output when there is no `function:`): the rules
 * the schema cannot say, and the typed `TargetConfig` built from a target that passed them.
 */
import { isRecord } from '../shared/is-record.ts';
import { hasTemplates, parseTemplatePath, templateExpressions } from '../shared/templates.ts';
import { parseDuration } from '../shared/duration.ts';
import { refusedShellTemplates, refusedTemplateMessage } from '../shared/shell-contexts.ts';
import { maskUrlCredentials } from '../shared/secrets.ts';
import { strings, templatedStrings, templateProblems } from './template-check.ts';
import { checkUrlCredentials, checkUrlPort } from './url-credentials.ts';
import { checkHeaders, type AddProblem } from './header-check.ts';
import type {
  CommandTargetConfig,
  ConfigPath,
  HttpTargetConfig,
  ModelTargetConfig,
  PromptSource,
  TargetConfig,
} from './types.ts';

/** Retries of an HTTP target after a 429, a 5xx or a dropped connection, unless `maxRetries:` says. */
export const DEFAULT_HTTP_RETRIES = 2;

type Add = AddProblem;

/** The rules of a suite's `target:` beyond the schema. */
export function checkTarget(suite: Record<string, unknown>, path: ConfigPath, add: Add): void {
  if (suite.output !== undefined && (suite.function !== undefined || suite.target !== undefined)) {
    add(
      'suite.output-and-target',
      [...path, 'output'],
      'output: names the testset column of recorded outputs, which a suite with function: or target: does not read: give one or the other',
    );
  }
  const target = suite.target;
  if (!isRecord(target)) return;
  const at: ConfigPath = [...path, 'target'];
  if (suite.function !== undefined) {
    add(
      'suite.target-and-function',
      at,
      'a suite has function: (code that produces the output) or target: (a model, an HTTP endpoint or a command), not both',
    );
  }
  for (const [valuePath, text] of strings(target, at)) {
    // A JSON Schema under responseFormat is data, not a template.
    if (valuePath[at.length] === 'responseFormat') continue;
    for (const message of templateProblems(text)) add('target.template', valuePath, message);
    for (const expression of templateExpressions(text)) {
      const root = expression.trim().split(/[.[]/, 1)[0] ?? '';
      if (root === 'output') {
        add(
          'target.template-root',
          valuePath,
          `template {{ ${expression.trim()} }} names the output, which the target is producing: a target's templates see case and params`,
        );
      }
    }
  }
  if (target.type === 'model') checkModel(target, at, add);
  if (target.type === 'http') checkHttp(target, at, add);
  if (target.type === 'command') checkCommand(target, at, add);
}

/** Methods fetch sends no body with (it throws instead); of those the schema allows, GET. */
const BODYLESS_METHODS = new Set(['GET']);

function checkHttp(target: Record<string, unknown>, at: ConfigPath, add: Add): void {
  checkUrlCredentials(target.url, [...at, 'url'], 'header', add);
  checkUrlPort(target.url, [...at, 'url'], add);
  checkHeaders(target.headers, at, 'target.header', add);
  if (typeof target.output === 'string') {
    const output = outputPath(target.output);
    if ('error' in output) add('target.output', [...at, 'output'], output.error);
  }
  if (
    target.body !== undefined &&
    typeof target.method === 'string' &&
    BODYLESS_METHODS.has(target.method)
  ) {
    add(
      'target.body-not-allowed',
      at,
      `a ${target.method} request cannot carry a body: send it with method: POST (or leave method: out), or move the values into the URL's query (?q={{ case.question }})`,
      'body',
    );
  }
}

function checkModel(target: Record<string, unknown>, at: ConfigPath, add: Add): void {
  checkUrlCredentials(target.baseUrl, [...at, 'baseUrl'], 'api-key', add);
  checkUrlPort(target.baseUrl, [...at, 'baseUrl'], add);
  checkHeaders(target.headers, at, 'target.header', add);
  for (const key of ['baseUrl', 'apiKey', 'headers'] as const) {
    for (const valuePath of templatedStrings(target[key], [...at, key])) {
      const named = key === 'headers' ? `header ${String(valuePath.at(-1))}` : key;
      add(
        'target.setting-template',
        valuePath,
        `a model target's ${named} is not a template: the connection is set up once for the suite, so {{ … }} here would be sent as written; templates are read in model, prompt and messages only. To call two servers or with two keys, write a suite for each`,
      );
    }
  }
  if (target.prompt !== undefined && target.messages !== undefined) {
    add(
      'target.prompt-and-messages',
      [...at, 'messages'],
      'a model target takes prompt: (one user message) or messages: (a list), not both',
    );
  } else if (target.prompt === undefined && target.messages === undefined) {
    add(
      'target.no-prompt',
      at,
      'a model target needs prompt: (a template, or { file: prompts/answer.md }) or messages: (a list of { role, content })',
    );
  }
  for (const [filePath, file] of promptFiles(target, at)) {
    for (const expression of templateExpressions(file)) {
      if (!expression.trim().startsWith('params')) {
        add(
          'target.prompt-file-template',
          filePath,
          `a prompt file's path may name the grid point ({{ params.prompt }}), not {{ ${expression.trim()} }}: the file is read once per grid point, not per case`,
        );
      }
    }
  }
}

/**
 * The keys of an http target's `output:` path (`data.answer`, `choices.0.message.content`,
 * `data.items[1].text`, `data["a key"]`: the paths of templates, without their root), or why it
 * is not one.
 */
export function outputPath(text: string): { keys: string[] } | { error: string } {
  if (templateExpressions(text).length > 0) {
    return {
      error: `output: is a path read as written, not a template, so ${JSON.stringify(text)} cannot name a field per case or grid point: give the path itself (data.answer), or leave output: out and let an evaluator read the field ({{ output.data.answer }})`,
    };
  }
  // `json` and `text` are a command target's output formats. Written on an http target, `json`
  // would read a field named json, which answers seldom have: the answer is parsed already when
  // its content-type says JSON. (`text` is a common field name, so it stays a path.)
  if (text.trim().toLowerCase() === 'json') {
    return {
      error: `expected a path into the JSON answer, such as data.answer, found ${JSON.stringify(text)}, which is a command target's output format: an http target's answer is parsed as JSON already when its content-type says so, so leave output: out for the whole answer; to read a field named ${text}, write output: '[${JSON.stringify(text)}]'`,
    };
  }
  const parsed = parseTemplatePath(text.startsWith('[') ? `x${text}` : `x.${text}`);
  if ('error' in parsed) {
    return {
      error: `expected a path into the JSON answer, such as data.answer, choices.0.message.content, data.items[1].text or data["a key"], found ${JSON.stringify(text)}`,
    };
  }
  return { keys: parsed.keys };
}

/** The `file:` values of a model target's prompt and messages, with their config paths. */
function promptFiles(target: Record<string, unknown>, at: ConfigPath): [ConfigPath, string][] {
  const files: [ConfigPath, string][] = [];
  if (isRecord(target.prompt) && typeof target.prompt.file === 'string') {
    files.push([[...at, 'prompt', 'file'], target.prompt.file]);
  }
  if (Array.isArray(target.messages)) {
    target.messages.forEach((message: unknown, i) => {
      if (
        isRecord(message) &&
        isRecord(message.content) &&
        typeof message.content.file === 'string'
      )
        files.push([[...at, 'messages', i, 'content', 'file'], message.content.file]);
    });
  }
  return files;
}

function checkCommand(target: Record<string, unknown>, at: ConfigPath, add: Add): void {
  if (typeof target.run === 'string' && target.shell !== true) {
    add(
      'target.run-string',
      [...at, 'run'],
      'run: as one string is a shell command line: give an argument list such as [python, agent.py, "{{case.question}}"], or set shell: true',
    );
  }
  if (target.shell === true) checkShellTemplates(target.run, [...at, 'run'], add);
  for (const name of isRecord(target.env) ? Object.keys(target.env) : []) {
    // The system reads an environment entry up to its first `=` as the name.
    const why =
      name === ''
        ? 'its name is empty'
        : name.includes('\0')
          ? 'a name cannot hold a NUL character'
          : name.includes('=')
            ? `a name cannot hold "=" (the system reads a name up to its first "=", so the program would see ${JSON.stringify(name.slice(0, name.indexOf('=')))} instead)`
            : undefined;
    if (why !== undefined) {
      const message = `environment variable ${JSON.stringify(name)} cannot be set: ${why}`;
      add('target.env-name', [...at, 'env'], message, name);
    }
  }
  if (typeof target.cwd === 'string' && hasTemplates(target.cwd)) {
    add(
      'target.setting-template',
      [...at, 'cwd'],
      'cwd: is not a template: the working folder is set once for the suite, so {{ … }} here would be read as part of a folder name; to run in a folder per grid point, change to it in a shell line (shell: true, run: \'cd "{{ params.dir }}" && ./agent.sh\')',
    );
  }
}

/**
 * Each template of a shell command line that cannot be quoted where it sits ($(…), a
 * here-document, …), at the `run` string or the list item that holds it.
 */
function checkShellTemplates(run: unknown, at: ConfigPath, add: Add): void {
  const words = typeof run === 'string' ? [run] : Array.isArray(run) ? run : [];
  if (!words.every((word): word is string => typeof word === 'string')) return;
  // The line is the words joined by spaces, as it is run; `starts` maps it back to them.
  const starts: number[] = [];
  let length = 0;
  for (const word of words) {
    starts.push(length);
    length += word.length + 1;
  }
  for (const refused of refusedShellTemplates(words.join(' '))) {
    const word = starts.findLastIndex((start) => start <= refused.index);
    add(
      'target.shell-template',
      typeof run === 'string' ? at : [...at, word],
      refusedTemplateMessage(refused),
    );
  }
}

/** A `target:` as the schema checked it. */
export type RawTarget = Record<string, unknown> & { type: 'model' | 'http' | 'command' };

/** The typed target of a suite whose `target:` passed the schema and the rules. */
export function buildTarget(raw: RawTarget): TargetConfig {
  if (raw.type === 'model') return buildModel(raw, ['target']);
  if (raw.type === 'http') return buildHttp(raw);
  return buildCommand(raw);
}

function buildModel(raw: Record<string, unknown>, at: ConfigPath): ModelTargetConfig {
  type Role = ModelTargetConfig['messages'][number]['role'];
  const messages: ModelTargetConfig['messages'] =
    raw.prompt !== undefined
      ? [{ role: 'user', content: promptSource(raw.prompt, [...at, 'prompt']) }]
      : (raw.messages as { role: Role; content: unknown }[]).map((message, i) => ({
          role: message.role,
          content: promptSource(message.content, [...at, 'messages', i, 'content']),
        }));
  const format = raw.responseFormat;
  const built: ModelTargetConfig = {
    kind: 'model',
    model: raw.model as string,
    messages,
    responseFormat:
      format === undefined || format === 'text'
        ? 'text'
        : format === 'json'
          ? 'json'
          : { schema: format as Record<string, unknown> },
  };
  if (typeof raw.baseUrl === 'string') built.baseUrl = raw.baseUrl;
  if (typeof raw.apiKey === 'string') built.apiKey = raw.apiKey;
  if (isRecord(raw.headers)) built.headers = raw.headers as Record<string, string>;
  if (typeof raw.temperature === 'number') built.temperature = raw.temperature;
  if (typeof raw.maxTokens === 'number') built.maxTokens = raw.maxTokens;
  if (typeof raw.seed === 'number') built.seed = raw.seed;
  if (typeof raw.timeout === 'string') built.timeoutMs = parseDuration(raw.timeout) ?? undefined;
  if (typeof raw.maxRetries === 'number') built.maxRetries = raw.maxRetries;
  if (raw.allowEmptyOutput === true) built.allowEmptyOutput = true;
  return built;
}

function promptSource(value: unknown, at: ConfigPath): PromptSource {
  return isRecord(value)
    ? { file: value.file as string, at: [...at, 'file'] }
    : { text: value as string, at };
}

/**
 * The template strings of a target, with their paths from the suite (`target.url`), for the
 * checks that need the testset (fields no row has). A prompt file's content is read at binding.
 */
export function targetTemplateStrings(target: TargetConfig): [ConfigPath, string][] {
  const at: ConfigPath = ['target'];
  switch (target.kind) {
    case 'function':
    case 'recorded':
      return [];
    case 'model':
      return [
        [[...at, 'model'], target.model],
        ...target.messages.flatMap(({ content }): [ConfigPath, string][] =>
          'text' in content ? [[content.at, content.text]] : [],
        ),
      ];
    case 'http':
      return [
        [[...at, 'url'], target.url],
        ...Object.entries(target.headers).map(([name, value]): [ConfigPath, string] => [
          [...at, 'headers', name],
          value,
        ]),
        ...strings(target.body, [...at, 'body']),
      ];
    case 'command':
      return [
        ...(typeof target.run === 'string'
          ? [[[...at, 'run'], target.run] as [ConfigPath, string]]
          : target.run.map((arg, i): [ConfigPath, string] => [[...at, 'run', i], arg])),
        ...Object.entries(target.env).map(([name, value]): [ConfigPath, string] => [
          [...at, 'env', name],
          value,
        ]),
      ];
  }
}

function buildHttp(raw: Record<string, unknown>): HttpTargetConfig {
  const built: HttpTargetConfig = {
    kind: 'http',
    url: raw.url as string,
    method:
      (raw.method as HttpTargetConfig['method'] | undefined) ??
      (raw.body === undefined ? 'GET' : 'POST'),
    headers: (raw.headers as Record<string, string> | undefined) ?? {},
    maxRetries: (raw.maxRetries as number | undefined) ?? DEFAULT_HTTP_RETRIES,
  };
  if (raw.body !== undefined) built.body = raw.body;
  if (typeof raw.output === 'string') built.output = raw.output;
  if (raw.allowEmptyOutput === true) built.allowEmptyOutput = true;
  return built;
}

function buildCommand(raw: Record<string, unknown>): CommandTargetConfig {
  const built: CommandTargetConfig = {
    kind: 'command',
    run: raw.run as string[] | string,
    shell: raw.shell === true,
    env: (raw.env as Record<string, string> | undefined) ?? {},
    output: raw.output === 'json' ? 'json' : 'text',
  };
  if (typeof raw.cwd === 'string') built.cwd = raw.cwd;
  if (raw.allowEmptyOutput === true) built.allowEmptyOutput = true;
  return built;
}

/**
 * What a target is, in a few words for plans and messages: `function ./app.ts#answer`,
 * `model gpt-4o-mini`, `POST https://staging.example.com/answer`, `command python agent.py`.
 * URLs are shown without their query, which may carry a key, and without the user and password
 * of their user part. `scrub` removes the run's secrets from a command line before it is cut
 * short: a cut would otherwise keep a secret's first characters, too few to recognise after.
 */
export function describeTarget(
  target: TargetConfig,
  scrub: (text: string) => string = (text) => text,
): string {
  switch (target.kind) {
    case 'function':
      return `function ${target.module}${target.isolation === 'worker' ? ' (in worker threads)' : ''}`;
    case 'recorded':
      return 'recorded outputs';
    case 'model':
      return `model ${target.model}${target.baseUrl === undefined ? '' : ` at ${shownUrl(target.baseUrl)}`}`;
    case 'http':
      return `${target.method} ${shownUrl(target.url)}`;
    case 'command': {
      const line = scrub(typeof target.run === 'string' ? target.run : target.run.join(' '));
      return `command ${line.length > 60 ? `${line.slice(0, 59)}…` : line}`;
    }
  }
}

/** `url` as a description shows it: no query (which may carry a key), no credentials. */
export function shownUrl(url: string): string {
  const query = url.search(/[?#]/);
  return maskUrlCredentials(query < 0 ? url : url.slice(0, query));
}
