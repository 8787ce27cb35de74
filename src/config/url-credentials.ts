/**
 * Credentials in a URL's user part, and ports fetch cannot use, refused in the config at the
 * value (the problems themselves: shared/url-problems.ts).
 */
import { sampleText } from '../shared/templates.ts';
import { blockedPortProblem, urlPortRangeProblem } from '../shared/url-port.ts';
import { urlCredentialsProblem, type CredentialsInstead } from '../shared/url-problems.ts';
import type { ConfigPath } from './types.ts';

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
