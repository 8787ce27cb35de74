/**
 * A URL's port past 65535 (`http://127.0.0.1:99999/x`). The URL parser refuses such a URL
 * without saying why, so a message built on that ("not an http:// URL", "not a valid URL")
 * would send the user looking at the scheme; this names the port instead.
 */

/** The highest port a URL may name. */
const MAX_PORT = 65535;

/**
 * The port of an http(s) URL's authority: after an optional user part (up to its last `@`),
 * after a host or a bracketed IPv6 address, digits up to the path, query, fragment or end.
 */
const PORT =
  /^\s*https?:\/\/(?:[^/?#\\]*@)?(?:\[[^\]/?#\\]*\]|[^/?#\\:@[\]]*):(\d+)(?=[/?#\\]|\s*$)/i;

/** Why the port of `url` cannot be, or null when it has none or one in range. */
export function urlPortProblem(url: string): string | null {
  const digits = PORT.exec(url)?.[1];
  if (digits === undefined || Number(digits) <= MAX_PORT) return null;
  return `port ${digits.replace(/^0+(?=\d)/, '')} is out of range: expected a port from 0 to ${MAX_PORT}`;
}
