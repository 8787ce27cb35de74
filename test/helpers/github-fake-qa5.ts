/**
 * A loopback proxy in front of the fake GitHub (`github-server.ts`) for the faults of a network
 * between: a write GitHub stores but whose answer is lost (502), and a request that is never
 * answered. Everything else is forwarded unchanged.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GitHubServer } from './github-server.ts';

/** What the proxy does with one request: forward it, store it but answer 502, or never answer. */
export type Interception = 'forward' | 'store-then-502' | 'hang';

/** The proxy; pass its `url` as `GITHUB_API_URL`. */
export interface GitHubProxy {
  url: string;
  /** The next `times` requests matching `method` and `path` get `what`. */
  intercept(method: string, path: RegExp, what: Interception, times?: number): void;
  /** Forgets the interceptions not used up yet. */
  reset(): void;
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The fake's path for `url` as the proxy received it, or null for one outside the API. GitHub
 * Enterprise Server serves REST below `/api/v3` and GraphQL at `/api/graphql` (its docs, "Forming
 * calls with GraphQL": the one endpoint is `http(s)://HOSTNAME/api/graphql`), beside REST rather
 * than below it (octokit's graphql turns a base URL ending in `/api/v3` into that), and
 * `/api/v3/graphql` is none; the fake serves both from its root.
 */
function forwardedPath(url: string, basePath: string): string | null {
  const path = new URL(url, 'http://127.0.0.1').pathname;
  if (!basePath.endsWith('/v3'))
    return url.startsWith(`${basePath}/`) ? url.slice(basePath.length) : null;
  const graphql = basePath.replace(/\/v3$/, '/graphql');
  if (path === graphql) return `/graphql${url.slice(graphql.length)}`;
  // `/api/v3/graphql` is no GHES endpoint: a client that sends GraphQL there gets a 404.
  if (path === `${basePath}/graphql` || !url.startsWith(`${basePath}/`)) return null;
  return url.slice(basePath.length);
}

/**
 * Starts the proxy on 127.0.0.1 in front of `server`. With `basePath` (`/api/v3`, as GitHub
 * Enterprise Server serves its REST API) the proxy answers only below it and at GHES's GraphQL
 * path (`/api/graphql`), strips them before forwarding, and its `url` and the links it answers
 * with include the base path.
 */
export async function startGitHubProxy(server: GitHubServer, basePath = ''): Promise<GitHubProxy> {
  const rules: { method: string; path: RegExp; what: Interception; remaining: number }[] = [];
  const proxy = createServer((req, res) => {
    void (async () => {
      const method = req.method ?? 'GET';
      const url = req.url ?? '/';
      const forwarded = forwardedPath(url, basePath);
      if (forwarded === null) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
        return;
      }
      const path = new URL(forwarded, 'http://127.0.0.1').pathname;
      const data = await body(req);
      const rule = rules.find((r) => r.remaining > 0 && r.method === method && r.path.test(path));
      if (rule) rule.remaining -= 1;
      if (rule?.what === 'hang') return; // never answered; close() drops the connection
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host',
        ),
      );
      const answer = await fetch(`${server.url}${forwarded}`, {
        method,
        headers,
        redirect: 'manual',
        ...(data.length > 0 ? { body: data } : {}),
      });
      const text = Buffer.from(await answer.arrayBuffer());
      if (rule?.what === 'store-then-502') {
        res.writeHead(502, { 'content-type': 'text/html' }).end('<html>502 Bad Gateway</html>');
        return;
      }
      const out: Record<string, string> = {};
      answer.headers.forEach((value, key) => {
        if (
          !['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(key)
        )
          out[key] = value.replaceAll(server.url, `${proxyUrl}${basePath}`);
      });
      res.writeHead(answer.status, out).end(text);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  return {
    url: `${proxyUrl}${basePath}`,
    intercept(method, path, what, times = 1) {
      rules.push({ method: method.toUpperCase(), path, what, remaining: times });
    },
    reset() {
      rules.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        proxy.close(() => resolve());
        proxy.closeAllConnections();
      }),
  };
}
