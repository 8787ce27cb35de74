/**
 * What is wrong with a URL's port for fetch. A port past 65535 (`http://127.0.0.1:99999/x`): the
 * URL parser refuses such a URL without saying why, so a message built on that ("not an http://
 * URL", "not a valid URL") would send the user looking at the scheme; this names the port instead.
 * A port on the Fetch standard's list of bad ports (`http://127.0.0.1:6000/x`): fetch refuses to
 * connect to it ("bad port"), so every call would fail though the server is up and answers curl.
 */

/** The highest port a URL may name. */
const MAX_PORT = 65535;

/**
 * The "bad ports" of the Fetch standard (section "Port blocking"), as of its 2025 edition: ports
 * of other protocols (mail, ftp, ssh, irc, X11, …) that fetch never connects to, so that a page
 * cannot talk to those services. Port 0 is the latest addition; older fetch fails to connect to
 * it all the same.
 */
const BAD_PORTS: ReadonlySet<number> = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102,
  103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465,
  512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993,
  995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668,
  6669, 6679, 6697, 10080,
]);

/**
 * The port of an http(s) URL's authority: after an optional user part (up to its last `@`),
 * after a host or a bracketed IPv6 address, digits up to the path, query, fragment or end.
 */
const PORT =
  /^\s*https?:\/\/(?:[^/?#\\]*@)?(?:\[[^\]/?#\\]*\]|[^/?#\\:@[\]]*):(\d+)(?=[/?#\\]|\s*$)/i;

/** Why the port of `url` cannot be, or null when it has none or one in range (bad or not). */
export function urlPortRangeProblem(url: string): string | null {
  const digits = PORT.exec(url)?.[1];
  if (digits === undefined || Number(digits) <= MAX_PORT) return null;
  return `port ${digits.replace(/^0+(?=\d)/, '')} is out of range: expected a port from 0 to ${MAX_PORT}`;
}

/** Why fetch will not connect to the port of `url`, or null when it has none or one it allows. */
export function blockedPortProblem(url: string): string | null {
  const digits = PORT.exec(url)?.[1];
  if (digits === undefined) return null;
  const port = Number(digits);
  if (!BAD_PORTS.has(port)) return null;
  return `port ${port} is blocked by fetch: it is on the Fetch standard's list of bad ports (ports of other services, such as 22 for ssh or 6000 for X11), which fetch refuses to connect to whatever listens there; serve the endpoint on another port (such as 8080)`;
}

/** Why the port of `url` cannot be used: out of range, or blocked by fetch; else null. */
export function urlPortProblem(url: string): string | null {
  return urlPortRangeProblem(url) ?? blockedPortProblem(url);
}
