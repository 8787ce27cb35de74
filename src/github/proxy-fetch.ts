/**
 * A fetch for one URL that goes through the runner's proxy or not as that URL's own host says,
 * by GitHub's toolkit (`@actions/http-client`: HTTPS_PROXY or HTTP_PROXY by the URL's scheme,
 * NO_PROXY, loopback always direct). `@actions/github` decides once, for the API host, and uses
 * that for every request of its octokit: right for the API, wrong for the storage host an
 * artifact download is redirected to, which NO_PROXY may treat otherwise.
 */
import { HttpClient } from '@actions/http-client';
import { fetch as undiciFetch } from 'undici';

/** undici's fetch with the proxy (or none) chosen for `url`, typed as the global fetch. */
export function proxyFetchFor(url: string): typeof globalThis.fetch {
  // The toolkit's proxy agent is undici's, so it goes with undici's fetch, as @actions/github does.
  const dispatcher = new HttpClient().getAgentDispatcher(url);
  const fetchFor = (input: string | URL, init?: Record<string, unknown>) =>
    undiciFetch(input, { ...init, dispatcher });
  return fetchFor as unknown as typeof globalThis.fetch;
}
