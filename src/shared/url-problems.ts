/**
 * What makes a URL fetch cannot use as the root of an API or a request: credentials in its user
 * part (`http://admin:pw@host/`, which fetch refuses to build a request from, so every call
 * would fail with the password in the error), a scheme other than http(s), a port out of range
 * or blocked, text that is no URL. The config checks its values with these (config/
 * url-credentials.ts), the bind and target layers the `OPENAI_BASE_URL` they fall back to, and
 * the SDK's judge classes the base URL of the client they are given, in the same words.
 */
import schema from '../../schemas/evals.schema.json' with { type: 'json' };
import { maskUrlCredentials } from './secrets.ts';
import { sampleText } from './templates.ts';
import { urlPortProblem } from './url-port.ts';

/** The schema's rule for a `baseUrl:` (`^https?://`) and its words when one breaks it. */
const BASE_URL = schema.definitions.judgeSettings.properties.baseUrl;
const HTTP_SCHEME = new RegExp(BASE_URL.pattern);

/** Where credentials go instead: a header, or for an OpenAI-compatible API, its key. */
export type CredentialsInstead = 'header' | 'api-key';

/**
 * Why `url` cannot be used as written (it has a user or password), or null. Templates are stood
 * in for by a plain word and an escaped `\{{` is the `{{` it sends (see `sampleText`); a URL
 * that does not parse is left to the checks of its shape.
 */
export function urlCredentialsProblem(url: string, instead: CredentialsInstead): string | null {
  const sample = sampleText(url, 'x');
  let parsed: URL;
  try {
    parsed = new URL(sample);
  } catch {
    return null;
  }
  if (parsed.username === '' && parsed.password === '') return null;
  // The query may hold a key of its own, and says nothing about this problem. A template whose
  // text a user part cannot hold (a `/`) hides the part from the mask: the stand-in's is shown,
  // and failing that no URL at all.
  const shown = [url, sample]
    .map((text) => text.replace(/[?#][\s\S]*$/, ''))
    .map((text) => ({ text, masked: maskUrlCredentials(text, { keepUser: true }) }))
    .find(({ text, masked }) => masked !== text)?.masked;
  const remedy =
    instead === 'header'
      ? 'headers: { authorization: "Basic …" }'
      : 'apiKey: (or headers: { authorization: "Basic …" })';
  const what = shown === undefined ? 'the URL' : JSON.stringify(shown);
  return `${what} has credentials in its user part, which fetch cannot send (it refuses such a URL): remove them from the URL and send them with ${remedy}`;
}

/**
 * Why the URL an environment variable gives (`OPENAI_BASE_URL` for a model target without
 * `baseUrl:`) cannot be used: credentials in its user part, as for a URL in the config. It is
 * shown with the whole user part masked: a value from the environment is not the config's text,
 * and its user name may well be a token.
 */
export function envUrlCredentialsProblem(variable: string, url: string): string | null {
  if (urlCredentialsProblem(url, 'api-key') === null) return null;
  const shown = maskUrlCredentials(url.replace(/[?#][\s\S]*$/, ''));
  return `the URL in ${variable}, ${JSON.stringify(shown)}, has credentials in its user part, which fetch cannot send (it refuses such a URL): remove them from ${variable} and give the key as apiKey: (or in OPENAI_API_KEY)`;
}

/** A problem of a URL given outside evals.yaml's text, and its code. */
export interface UrlProblem {
  code: 'url.scheme' | 'url.invalid' | 'url.credentials' | 'url.port';
  message: string;
}

/** Whether `url` parses as a URL: fetch refuses one that does not ("not a valid URL"). */
function parses(url: string): boolean {
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}

/**
 * Why `url`, the root of an OpenAI-compatible API given in code (the base URL of a
 * `createJudgeClient` handed to `runTestSuite`), cannot be used, in the words evals.yaml uses
 * for a `baseUrl:` (its schema's, then `checkUrlCredentials`'s and `checkUrlPort`'s), or null. A
 * URL that does not parse at all (a space in its host) is refused too: every call would fail.
 */
export function baseUrlProblem(url: string): UrlProblem | null {
  // Its user part masked, its query (which may hold a key) left out.
  const shown = JSON.stringify(
    maskUrlCredentials(url.replace(/[?#][\s\S]*$/, ''), { keepUser: true }),
  );
  // Leading blanks go: the URL parser fetch uses drops them (a value read from a file).
  if (!HTTP_SCHEME.test(url.trimStart())) {
    return { code: 'url.scheme', message: `${BASE_URL.patternErrorMessage}, found ${shown}` };
  }
  const credentials = urlCredentialsProblem(url, 'api-key');
  if (credentials !== null) return { code: 'url.credentials', message: credentials };
  const port = urlPortProblem(url);
  if (port !== null) return { code: 'url.port', message: port };
  if (parses(url)) return null;
  return {
    code: 'url.invalid',
    message: `${BASE_URL.patternErrorMessage}, found ${shown}, which is not a valid URL`,
  };
}

/**
 * Why the URL an environment variable gives cannot be used, and the code of that problem: its
 * credentials (see `envUrlCredentialsProblem`), a scheme other than http(s) or text that is no
 * URL (`localhost:11434/v1`), or a port past 65535 or one fetch blocks, which would make every
 * call fail ("unknown scheme", "not a valid URL", "bad port").
 */
export function envUrlProblem(variable: string, url: string): UrlProblem | null {
  const credentials = envUrlCredentialsProblem(variable, url);
  if (credentials !== null) return { code: 'url.credentials', message: credentials };
  const shown = JSON.stringify(maskUrlCredentials(url.replace(/[?#][\s\S]*$/, '')));
  // Any case: a scheme is case-insensitive, and fetch takes `HTTPS://` from the environment.
  if (!new RegExp(HTTP_SCHEME.source, 'i').test(url.trimStart())) {
    return {
      code: 'url.scheme',
      message: `the URL in ${variable}, ${shown}, which is not an http:// or https:// URL`,
    };
  }
  const port = urlPortProblem(url);
  if (port !== null) return { code: 'url.port', message: `the URL in ${variable}, whose ${port}` };
  if (parses(url)) return null;
  return {
    code: 'url.invalid',
    message: `the URL in ${variable}, ${shown}, which is not a valid URL`,
  };
}
