/**
 * Secrets and their removal from text that leaves the process. A secret is the value of an
 * environment variable whose name says it is one (`OPENAI_API_KEY`, `GITHUB_TOKEN`, …), a value
 * the config puts in an `apiKey` or a header, or a credential in a URL's user part or query.
 * Servers echo them (in errors and in answers) and programs print them, so every case result,
 * cache entry and error text is scrubbed before anything is cut to length or written.
 */
import { escapedSecretsScrub } from './escaped-secrets.ts';
import { oneLine } from './one-line.ts';
import { hasTemplates, literalValue } from './templates.ts';

/** What a scrubbed secret becomes. */
export const REDACTED = '[redacted]';

/**
 * Values shorter than this are not treated as secrets: a short default such as `local` or
 * `ollama` would otherwise vanish from every output, and real keys are much longer.
 */
export const MIN_SECRET_LENGTH = 8;

/** A part of a truncation's end this long or longer is removed when it starts a secret. */
const MIN_PARTIAL = 6;

/** Names of environment variables that hold secrets. */
const SECRET_NAME =
  /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE)/i;

/** Query parameters that carry credentials (`?api-key=…`, `?token=…`, `?sig=…`). */
const SECRET_PARAM = /(key|token|secret|password|auth|sig|signature|credential|code)/i;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** Headers whose values are not secrets, and would be odd to see redacted in an answer. */
const PLAIN_HEADERS = new Set(['accept', 'content-type', 'user-agent']);

/**
 * The secret values of request headers: every value but those of plain headers (and templates,
 * which are resolved per case), and the token of a `Bearer <token>` value on its own, since a
 * server may echo the token alone.
 */
export function secretsInHeaders(headers: Readonly<Record<string, string>> | undefined): string[] {
  const found: string[] = [];
  for (const [name, written] of Object.entries(headers ?? {})) {
    if (PLAIN_HEADERS.has(name.toLowerCase()) || hasTemplates(written)) continue;
    // What is sent: an escaped `\{{` goes out as `{{`.
    const value = sentText(written);
    found.push(value);
    const [, scheme = '', token] = /^\s*(bearer|basic|token)\s+(\S+)\s*$/i.exec(value) ?? [];
    if (token === undefined) continue;
    found.push(token);
    // A server may echo the credentials it decoded: `user:password`, and the password alone.
    if (scheme.toLowerCase() === 'basic') found.push(...basicCredentials(token));
  }
  return found;
}

/** The `user:password` a Basic authorization's token encodes, and its password; none if not. */
function basicCredentials(token: string): string[] {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(token)) return [];
  const pair = Buffer.from(token, 'base64').toString('utf8');
  const colon = pair.indexOf(':');
  // Not text (bytes decoded as U+FFFD), or no pair: nothing a server would echo as such.
  if (colon < 0 || pair.includes('\uFFFD')) return [];
  return [pair, pair.slice(colon + 1)];
}

/** The values of the secret-named variables of `env`. */
export function secretsInEnv(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(env).flatMap(([name, value]) => {
    if (value === undefined) return [];
    if (isSecretName(name)) return [value];
    // A URL with credentials (OPENAI_BASE_URL, a proxy's URL): those are secrets whatever the name.
    return userPart(value) === null ? [] : secretsInUrl(value);
  });
}

/**
 * `text` with the user part of every URL in it masked (`http://***@host/`): for messages that
 * hold a URL, and errors that quote one, whose credentials may be too short to scrub.
 */
export function maskCredentialsIn(text: string): string {
  return text.includes('@') ? text.replace(URL_USER_PART, '$1***@') : text;
}

/** The scheme and user part of a URL anywhere in a text (`https://user:pw@`). */
const URL_USER_PART = /\b([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^\s/\\?#@]+@/g;

/**
 * A URL's user part, `user:password` in `http://user:password@host/`: the text between the
 * scheme's slashes and the last `@` before the path, query or fragment (as the WHATWG URL
 * parser reads it), with the text before and after it; null when there is none.
 */
function userPart(
  url: string,
): { before: string; user: string; password: string | null; after: string } | null {
  const match = /^(\s*[A-Za-z][A-Za-z0-9+.-]*:[/\\]*)([^/\\?#]*)@/.exec(url);
  if (match === null) return null;
  const [whole, before = '', userinfo = ''] = match;
  const after = url.slice(whole.length);
  const colon = userinfo.indexOf(':');
  return colon < 0
    ? { before, user: userinfo, password: null, after }
    : { before, user: userinfo.slice(0, colon), password: userinfo.slice(colon + 1), after };
}

/**
 * `url` with its user part masked, or `url` itself when it has none. `keepUser` keeps the user
 * name in front of a masked password (`http://admin:***@host/`), for a message the config's
 * author reads; otherwise the whole part goes (`http://***@host/`). A lone user name is always
 * masked: it is usually a token (`https://TOKEN@host/`).
 */
export function maskUrlCredentials(url: string, options: { keepUser?: boolean } = {}): string {
  const part = userPart(url);
  if (part === null) return url;
  const shown = options.keepUser === true && part.password !== null ? `${part.user}:***` : '***';
  return `${part.before}${shown}@${part.after}`;
}

/**
 * The credential values of `url`: the user and password of its user part and the values of
 * credential parameters in its query, each as written and percent-decoded (a template's own
 * `{{ }}` left alone: it is resolved per case).
 */
export function secretsInUrl(url: string): string[] {
  const found: string[] = [];
  const add = (written: string): void => {
    if (hasTemplates(written)) return;
    const value = sentText(written);
    found.push(value);
    try {
      const decoded = decodeURIComponent(value);
      if (decoded !== value) found.push(decoded);
    } catch {
      // Not valid percent-encoding: the raw value is what travels.
    }
  };
  const part = userPart(url);
  // Both: a token is often the user name, with a dummy password (`TOKEN:x-oauth-basic@`).
  if (part !== null) {
    add(part.user);
    if (part.password !== null) {
      add(part.password);
      // The pair too, as a client sends it in a Basic authorization (base64 of `user:password`).
      add(`${part.user}:${part.password}`);
    }
  }
  const query = url.indexOf('?');
  if (query < 0) return found;
  for (const pair of url.slice(query + 1).split(/[&#]/)) {
    const [name = '', value = ''] = pair.split('=', 2);
    if (SECRET_PARAM.test(name)) add(value);
  }
  return found;
}

/** Removes secrets from text. `none` is the scrubber of a run without secrets. */
export interface Scrubber {
  /** `text` with every secret replaced by {@link REDACTED}. */
  text: (text: string) => string;
  /**
   * JSON text (a case line, a cache entry) with every secret replaced, as it appears inside a
   * JSON string (escaped) as well as raw; a secret cut short by a truncation (`sk-abc123… (40
   * more characters)`) is removed too.
   */
  json: (text: string) => string;
  /** True when there is nothing to scrub (so callers can skip work). */
  readonly empty: boolean;
  /**
   * The length in UTF-8 bytes of the longest text it replaces (0: none): how much more than it
   * shows a caller that cuts a stream must keep, so that it scrubs before it cuts.
   */
  readonly longestBytes: number;
  /** The secrets it removes (see {@link createScrubber}), for a scrubber that adds its own. */
  readonly values: readonly string[];
}

/**
 * Values declared secret for the whole process, whatever their names: the GitHub Action declares
 * the values its config reads from the environment, and its token, as it masks them in the log,
 * so that everything it writes and posts is scrubbed of the same values (see
 * `action/run-evals.ts`). Every scrubber made after a declaration removes them.
 */
const declared = new Set<string>();

/** Declares `value` a secret of this process (see {@link declared}). */
export function declareSecret(value: string): void {
  declared.add(value);
}

/**
 * A scrubber for `secrets` and the values declared with {@link declareSecret} (duplicates and
 * values under {@link MIN_SECRET_LENGTH} ignored).
 */
export function createScrubber(secrets: Iterable<string>): Scrubber {
  const values = [...new Set([...secrets, ...declared])].filter(
    (s) => s.length >= MIN_SECRET_LENGTH,
  );
  // Longest first: a secret that contains another is replaced whole.
  values.sort((a, b) => b.length - a.length);
  if (values.length === 0) return NO_SECRETS;
  const forms = new Set<string>();
  const encoded = new Set<string>();
  for (const value of values) {
    for (const written of [value, ...oneLineForms(value)]) {
      forms.add(written);
      const escaped = JSON.stringify(written).slice(1, -1);
      forms.add(escaped);
      // PHP's json_encode, by default, also writes `/` as `\/` (a key's base64 holds `/`).
      if (escaped.includes('/')) forms.add(escaped.replaceAll('/', '\\/'));
      forms.add(encodeURIComponent(written));
    }
    for (const form of base64Forms(value)) encoded.add(form);
  }
  const ordered = [...forms].sort((a, b) => b.length - a.length);
  // Every form, longest first, so a form that contains another is replaced whole.
  const all = [...new Set([...forms, ...encoded])].sort((a, b) => b.length - a.length);
  const escaped = escapedSecretsScrub(values, REDACTED);
  const replaceAll = (text: string): string => {
    let out = text;
    for (const form of all) if (out.includes(form)) out = out.split(form).join(REDACTED);
    // A secret written with escapes JSON does not need (`\u0041`), which decoding gives back.
    return escaped(out);
  };
  return {
    empty: false,
    values,
    longestBytes: Math.max(...all.map((form) => Buffer.byteLength(form, 'utf8'))),
    text: replaceAll,
    json(text) {
      let out = replaceAll(text);
      // Text cut before it was scrubbed ends a secret's first characters with an ellipsis.
      if (out.includes('…')) {
        for (const form of ordered) {
          for (let k = form.length - 1; k >= MIN_PARTIAL; k--) {
            const cut = `${form.slice(0, k)}…`;
            if (out.includes(cut)) out = out.split(cut).join(`${REDACTED}…`);
            const tail = `…${form.slice(form.length - k)}`;
            if (out.includes(tail)) out = out.split(tail).join(`…${REDACTED}`);
          }
        }
      }
      return out;
    },
  };
}

/**
 * A multi-line secret (a PEM private key, a multi-line environment value) as the one-line
 * reports show it: each line break with the spaces around it one space (`oneLine`), or every run
 * of white space one space. Text put on one line before it was scrubbed would keep such a secret
 * whole otherwise, and a cut of it would keep its start. None for a secret on one line.
 */
function oneLineForms(value: string): string[] {
  if (!/[\r\n]/.test(value)) return [];
  const forms = [oneLine(value), value.trim().replace(/\s+/g, ' ')];
  return forms.filter((form) => form.length >= MIN_SECRET_LENGTH && form !== value);
}

/**
 * The base64 forms of `value` (its UTF-8 bytes), in the standard alphabet and the URL-safe one
 * (`-_`, no padding): the whole value encoded on its own (`Basic <base64 of user:password>`), and
 * for each of the three places its first byte can take in a 3-byte group of a longer text
 * encoded (a server's error body that quotes a key, base64-encoded), the characters that encode
 * its bytes alone. Those leave out at most 2 bytes at either end, whose characters also depend
 * on the bytes next to them. Each is at least 8 characters long for a secret of 8 bytes.
 */
function base64Forms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const standard = [bytes.toString('base64')];
  for (let skip = 0; skip < 3; skip++) {
    const whole = Math.floor((bytes.length - skip) / 3) * 3;
    if (whole >= 6) standard.push(bytes.subarray(skip, skip + whole).toString('base64'));
  }
  const urlSafe = standard.map((form) =>
    form.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_'),
  );
  return [...standard, ...urlSafe];
}

/** The scrubber of a run without secrets (made before anything is declared). */
export const NO_SECRETS: Scrubber = {
  text: (t) => t,
  json: (t) => t,
  empty: true,
  longestBytes: 0,
  values: [],
};

/** A constant text as it is sent: its escaped `\{{` read as `{{` (see `literalValue`). */
export function sentText(text: string): string {
  const value = literalValue(text);
  return typeof value === 'string' ? value : text;
}
