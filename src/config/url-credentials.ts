/**
 * Credentials in a URL's user part (`http://admin:pw@host/`). fetch refuses to build a request
 * from such a URL, so every call would fail, with the password in the error; the config is
 * refused instead, at the value, with the password masked.
 */
import { maskUrlCredentials } from '../shared/secrets.ts';
import { sampleText } from '../shared/templates.ts';
import { blockedPortProblem, urlPortProblem, urlPortRangeProblem } from '../shared/url-port.ts';
import type { ConfigPath } from './types.ts';

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
 * Adds a `url.credentials` problem at `path` when `url` (a string, else nothing is checked) has
 * credentials.
 */
export function checkUrlCredentials(
  url: unknown,
  path: ConfigPath,
  instead: CredentialsInstead,
  add: (code: string, path: ConfigPath, message: string) => void,
): void {
  const problem = typeof url === 'string' ? urlCredentialsProblem(url, instead) : null;
  if (problem !== null) add('url.credentials', path, problem);
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

/**
 * Adds a `url.port` problem at `path` when `url` (a string, else nothing is checked) names a
 * port past 65535 or one fetch blocks. For the range, a template stands in as a number, which a
 * port in range is (`:{{params.port}}9999` is too long whatever it holds); a port with a template
 * in it is checked for fetch's block per case, when its value is known.
 */
export function checkUrlPort(
  url: unknown,
  path: ConfigPath,
  add: (code: string, path: ConfigPath, message: string) => void,
): void {
  if (typeof url !== 'string') return;
  const problem =
    urlPortRangeProblem(sampleText(url, '0')) ?? blockedPortProblem(sampleText(url, 'x'));
  if (problem !== null) add('url.port', path, problem);
}

/**
 * Why the URL an environment variable gives cannot be used, and the code of that problem: its
 * credentials (see `envUrlCredentialsProblem`), or a port past 65535 or one fetch blocks, which
 * would make every call fail ("not a valid URL", "bad port").
 */
export function envUrlProblem(
  variable: string,
  url: string,
): { code: 'url.credentials' | 'url.port'; message: string } | null {
  const credentials = envUrlCredentialsProblem(variable, url);
  if (credentials !== null) return { code: 'url.credentials', message: credentials };
  const port = urlPortProblem(url);
  return port === null
    ? null
    : { code: 'url.port', message: `the URL in ${variable}, whose ${port}` };
}
