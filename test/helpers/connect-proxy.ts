/**
 * A forwarding proxy on 127.0.0.1 as a runner's HTTPS_PROXY would be: it tunnels `CONNECT
 * host:port` (how undici's ProxyAgent sends every request, http or https), and records each
 * tunnel it was asked for. Host names given in `names` (reserved `.test` names, which no resolver
 * knows) lead to 127.0.0.1, so a request for one gets through only by this proxy.
 */
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ConnectProxy {
  /** `http://127.0.0.1:PORT`, for HTTPS_PROXY and HTTP_PROXY. */
  url: string;
  /** Each `host:port` a client asked to be tunnelled to, in order. */
  tunnels: string[];
  close(): Promise<void>;
}

export async function startConnectProxy(names: readonly string[]): Promise<ConnectProxy> {
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((_req, res) => {
    res.writeHead(405, { 'content-type': 'text/plain' }).end('this proxy only tunnels (CONNECT)');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    tunnels.push(target);
    const at = target.lastIndexOf(':');
    const host = target.slice(0, at);
    const port = Number(target.slice(at + 1));
    if (!(host === '127.0.0.1' || names.includes(host)) || !(port > 0)) {
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      return;
    }
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
