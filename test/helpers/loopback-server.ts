/**
 * A real HTTP server on 127.0.0.1 for the tests of one file: listening before them, on a port
 * the system picks, and stopped after them, its open connections closed first (a test may leave
 * one hanging on purpose).
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';

/** The server, and where it listens once the file's tests start. */
export interface LoopbackServer {
  server: Server;
  /** `http://127.0.0.1:PORT`; empty before the tests start. */
  base: string;
}

/** Registers the file's `before` and `after` hooks that start and stop a server of `handler`. */
export function useLoopbackServer(handler: RequestListener): LoopbackServer {
  const served: LoopbackServer = { server: createServer(handler), base: '' };
  before(async () => {
    await new Promise<void>((resolve) => served.server.listen(0, '127.0.0.1', resolve));
    served.base = `http://127.0.0.1:${(served.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    served.server.closeAllConnections();
    await new Promise<void>((resolve) => served.server.close(() => resolve()));
  });
  return served;
}
