/**
 * What a network failure's system code means for the one who must fix it. `connect
 * ECONNREFUSED 127.0.0.1:8080` names the address but not what to check; a user new to the tool
 * (or to sockets) reads the hint instead. Only codes whose cause is nearly always the same have
 * one: a reset or a broken pipe has too many causes to guess at. And what a 404 from a base URL
 * with no path may mean.
 */
const HINTS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'nothing accepts connections there: is the server running, on that host and port?',
  ENOTFOUND: 'the host name does not resolve: check its spelling, or the network',
  EAI_AGAIN: 'the host name could not be resolved just now: the network or its DNS',
  ENETUNREACH: 'the network to that host is unreachable: is this machine offline?',
  EHOSTUNREACH: 'that host is unreachable from here',
  UND_ERR_CONNECT_TIMEOUT:
    'the host did not accept the connection in time: a firewall, or the wrong host or port',
};

/** `; hint` for a failure of system code `code`, or nothing. */
export function networkHint(code: string | undefined): string {
  const hint = code === undefined ? undefined : HINTS[code];
  return hint === undefined ? '' : `; ${hint}`;
}

/**
 * Why a 404 may not be about the model: a base URL with no path (`http://localhost:8000`) misses
 * the `/v1` under which vLLM, LiteLLM, Ollama and OpenAI itself serve the API. '' otherwise.
 */
export function noPathHint(server: string, shown: (url: string) => string): string {
  let path: string;
  try {
    path = new URL(server).pathname;
  } catch {
    return '';
  }
  if (path !== '/' && path !== '') return '';
  const root = server.replace(/\/+$/, '');
  return `; the base URL ${shown(root)} has no path, and OpenAI-compatible servers (vLLM, LiteLLM, Ollama) serve the API under one: try ${shown(root)}/v1`;
}
