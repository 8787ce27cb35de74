/**
 * The `http` target: one request per case to an endpoint (a staging API, a local server). The
 * URL, headers and body are templates; the output is the whole answer or a path into its JSON.
 * A 429 or 5xx is retried with backoff (honouring `Retry-After`); any other non-2xx answer is a
 * case error carrying the status and the start of the body, with header values scrubbed.
 */
import type { HttpTargetConfig } from '../config/types.ts';
import { timerSleep } from '../judge/abortable-sleep.ts';
import type { Breaker } from '../judge/breaker.ts';
import { notUtf8Message } from '../judge/body-text.ts';
import { abortedError, requestAttempt } from '../judge/post-attempt.ts';
import { withRetries } from '../judge/retry.ts';
import { describeTarget, outputPath } from '../config/target.ts';
import type { Issue, Located } from '../shared/errors.ts';
import { describeJsonError } from '../shared/json-syntax.ts';
import { roundedIntegerNotes, withNote } from '../shared/rounded-integers.ts';
import { createScrubber, maskCredentialsIn, secretsInHeaders } from '../shared/secrets.ts';
import type { Target, TargetOutput } from '../types/index.ts';
import { compileText, sampleText, textPieces } from '../shared/templates.ts';
import { asText, targetInput, textInput, type TargetInput } from './inputs.ts';
import { answerOutput, excerptOf, refuseEmpty } from './http-answer.ts';
import { setOwn } from '../shared/own-key.ts';
import { blockedPortProblem, urlPortProblem } from '../shared/url-port.ts';

/** What building an HTTP target needs besides its config. */
export interface HttpTargetSetup {
  issueAt(...path: (string | number)[]): Issue;
  /** The run's secrets, scrubbed (with this request's header values) from error text. */
  secrets: readonly string[];
  /** Gives up on a server that fails systematically; default none. */
  breaker?: Breaker;
  /** Injected for tests; default the global fetch. */
  fetch?: typeof fetch;
  /** In [0, 1), for backoff jitter; default Math.random. */
  random?: () => number;
  /** Says something about the run once (an answer's integer past 2^53); default silent. */
  warn?: (message: string) => void;
}

/** Builds the target; a URL that cannot be one whatever the case holds is the problem. */
export function createHttpTarget(
  config: HttpTargetConfig,
  setup: HttpTargetSetup,
): Located<Target> {
  const shape = urlShapeProblem(config.url);
  if (shape !== null) {
    return {
      ok: false,
      issue: { ...setup.issueAt('target', 'url'), code: 'target.url', message: shape },
    };
  }
  const url = urlInput(config.url);
  const headers = Object.entries(config.headers).map(
    ([name, value]) => [name.toLowerCase(), textInput(value, (text) => text)] as const,
  );
  const body: TargetInput<unknown> | undefined =
    config.body === undefined ? undefined : targetInput(config.body);
  const output = config.output === undefined ? undefined : outputPath(config.output);
  if (output !== undefined && 'error' in output) {
    return {
      ok: false,
      issue: { ...setup.issueAt('target', 'output'), code: 'target.output', message: output.error },
    };
  }
  const path = output === undefined ? undefined : { keys: output.keys, text: config.output ?? '' };
  const fetchFn = setup.fetch ?? ((input, init) => fetch(input, init));
  const random = setup.random ?? Math.random;
  const noteRounded = roundedIntegerNotes(
    setup.warn,
    `an answer of the http target ${describeTarget(config)}`,
    // The answer is scanned whole: with output: a path, the number may be in another field.
    path === undefined ? 'the output' : 'the answer',
  );

  return {
    ok: true,
    value: {
      description: describeTarget(config),
      async call(args): Promise<TargetOutput> {
        const target = url.render(args);
        if (!target.ok) return { output: null, error: target.error };
        const sent: Record<string, string> = {};
        for (const [name, input] of headers) {
          const value = input.render(args);
          if (!value.ok) return { output: null, error: value.error };
          setOwn(sent, name, value.value);
        }
        let payload: string | undefined;
        if (body !== undefined) {
          const value = body.render(args);
          if (!value.ok) return { output: null, error: value.error };
          payload = typeof value.value === 'string' ? value.value : JSON.stringify(value.value);
          sent['content-type'] ??=
            typeof value.value === 'string' ? 'text/plain; charset=utf-8' : 'application/json';
        }
        const scrubber = createScrubber([...setup.secrets, ...secretsInHeaders(sent)]);
        // A URL a template filled may carry credentials: masked wherever a message quotes it.
        const scrub = (text: string): string => scrubber.text(maskCredentialsIn(text));
        const badJson = payload === undefined ? null : stringBodyJsonProblem(payload, sent, scrub);
        if (badJson !== null) {
          return {
            output: null,
            error: `${config.method} ${scrub(target.value)}: ${badJson}`,
          };
        }
        const invalid = renderedUrlProblem(target.value);
        if (invalid !== null) {
          return {
            output: null,
            error: `${config.method} ${JSON.stringify(scrub(target.value))}: ${invalid}`,
          };
        }
        const request = {
          method: config.method,
          url: target.value,
          headers: sent,
          ...(payload !== undefined ? { body: payload } : {}),
        };
        // What the case sent, with every answer (an error's too): the request line and the body,
        // scrubbed as an error quoting them is; not the headers, which hold credentials.
        const said = {
          sent: scrub(
            `${config.method} ${target.value}${payload === undefined ? '' : `\n\n${payload}`}`,
          ),
        };
        // Per-case URLs differ; the server is what fails systematically.
        const server = new URL(target.value).origin;
        const refused = setup.breaker?.refused(server);
        if (refused !== undefined) return { output: null, error: refused.message, ...said };
        const answered = await withRetries(
          () =>
            requestAttempt(request, args.signal, {
              fetch: fetchFn,
              headers: sent,
              timeoutMs: null,
              scrub,
              now: Date.now,
            }),
          {
            maxRetries: config.maxRetries,
            sleep: timerSleep,
            random,
            signal: args.signal,
            aborted: () => abortedError(target.value, config.method),
          },
        );
        if (answered.ok || answered.error.code !== 'judge.aborted') {
          setup.breaker?.record(server, answered.ok ? undefined : answered.error, false);
        }
        if (!answered.ok) {
          const { error } = answered;
          const excerpt =
            error.raw === undefined || error.raw === '' ? '' : `: ${excerptOf(error.raw)}`;
          return {
            output: null,
            ...said,
            error:
              // A refused redirect (3xx) says where it led in its own message, and an error
              // answer whose body broke off (no `raw`) says so in its own.
              error.code === 'judge.http' && (error.status ?? 0) >= 400 && error.raw !== undefined
                ? `${config.method} ${scrub(target.value)} answered ${error.status}${excerpt}${error.gaveUp === undefined ? '' : `; ${error.gaveUp}`}`
                : error.message,
          };
        }
        const { text, contentType, status, notUtf8 } = answered.answer;
        if (notUtf8 === true) {
          // Scored, its U+FFFD would stand for bytes the server sent: kept to look at, not scored.
          return {
            output: text,
            ...said,
            error: notUtf8Message(config.method, scrub(target.value), status, contentType),
          };
        }
        const answeredAs = `${config.method} ${scrub(target.value)} answered ${status}`;
        const answer = answerOutput(text, contentType, path, scrub, answeredAs);
        const output =
          config.allowEmptyOutput === true ? answer : refuseEmpty(answer, answeredAs, path);
        const json = typeof output.output === 'object' || typeof output.output === 'number';
        return { ...(json ? withNote(output, noteRounded(text)) : output), ...said };
      },
    },
  };
}

/**
 * Why a body written as a string of JSON (`'{"q": "{{ case.q }}"}'`, content-type JSON) cannot be
 * sent for this case, or null. Its templates put values in as they are, so one holding a quote
 * or a line break breaks the JSON; the server would refuse it, or guess. A body sent as a YAML
 * value is JSON-encoded whole, and is never checked here.
 */
function stringBodyJsonProblem(
  payload: string,
  headers: Record<string, string>,
  scrub: (text: string) => string,
): string | null {
  const type = headers['content-type'];
  if (type === undefined || !/\bjson\b/i.test(type)) return null;
  try {
    JSON.parse(payload);
    return null;
  } catch (error) {
    // Placed in the body as sent, what it quotes scrubbed, as an answer is (see answerOutput).
    return `the body is not valid JSON once its templates are filled in, though its content-type (${scrub(type)}) says it is: ${describeJsonError(payload, error, scrub)}; write body: as YAML (body: { question: "{{ case.q }}" }), which is sent as JSON with each value escaped`;
  }
}

/**
 * The URL of a target per case. A template in the scheme or the host and port (`{{ case.url }}`,
 * `{{ case.base }}/answer`, `http://{{ case.host }}/answer`) puts its value as it is: it is
 * where to send the request, which percent-encoding would break (`http%3A%2F%2F…`). A template
 * after that, in the path, query or fragment, is one piece of it, percent-encoded.
 */
function urlInput(url: string): TargetInput<string> {
  const pieces = textPieces(url);
  const asIs: boolean[] = [];
  let before = '';
  for (const piece of pieces.slice(0, -1)) {
    before += piece;
    asIs.push(ORIGIN_SO_FAR.test(before));
    before += 'x';
  }
  const compiled = compileText(url, (value, i) =>
    asIs[i] === true ? asText(value) : encodeURIComponent(asText(value)),
  );
  return {
    render: ({ testCase, params }) => compiled({ case: testCase, params, output: undefined }),
  };
}

/** Text that has not yet passed a URL's scheme, host and port. */
const ORIGIN_SO_FAR = /^\s*(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*)?$/;

/** What is wrong with a URL a case's templates made, or null when it is an http(s) URL. */
function renderedUrlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    const port = urlPortProblem(url);
    if (port !== null) return `not a valid URL: its ${port}`;
    return /^\s*[A-Za-z][A-Za-z0-9+.-]*:/.test(url)
      ? 'not a valid URL (its host, port or characters are not those of a URL)'
      : 'not a valid URL: it has no scheme; expected http://… or https://…';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return `not an http:// or https:// URL (its scheme is ${parsed.protocol})`;
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return 'the URL has credentials in its user part, which fetch cannot send (it refuses such a URL): send them in a header, such as authorization: "Basic …"';
  }
  return blockedPortProblem(url);
}

/**
 * Why `url` cannot be an http(s) URL whatever its templates resolve to, or null. Templates are
 * stood in for by a word or a number and an escaped `\{{` is the `{{` it sends (see `sampleText`); a
 * URL that starts with a template (`{{ case.url }}`, `{{ case.base }}/answer`) is only known per
 * case.
 */
export function urlShapeProblem(url: string): string | null {
  const pieces = textPieces(url);
  if (pieces.length > 1 && pieces[0]?.trim() === '') return null;
  // A word stands in where a host's last label is (`api.{{params.tld}}`, which a number would
  // make an IPv4 address), a number where a port is (`:{{params.port}}`); either will do.
  const isHttp = (text: string): boolean =>
    isHttpUrl(sampleText(text, 'x')) || isHttpUrl(sampleText(text, '0'));
  if (isHttp(url)) return null;
  const found = `expected an http:// or https:// URL, found ${JSON.stringify(url)}`;
  // `localhost:8080/ask` reads as a URL of scheme `localhost:`: say what is missing.
  const schemeless = !url.includes('://') && !/^\s*https?:/i.test(url);
  const withScheme = `http://${url.trim()}`;
  return schemeless && isHttp(withScheme)
    ? `${found}, which has no scheme: write ${JSON.stringify(withScheme)} (or https://)`
    : found;
}

/** Whether `text` parses as an http(s) URL. */
function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
