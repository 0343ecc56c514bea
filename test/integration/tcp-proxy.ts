/**
 * A TCP proxy on 127.0.0.1 that a test can take down (listener closed, every open
 * connection cut) and bring back on the same port: a database outage without touching
 * the shared server.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  readonly port: number;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = createConnection(target);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  const down = async () => {
    const closing = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    for (const s of sockets) s.destroy();
    await closing;
    server = undefined;
  };
  await listen();
  return {
    get port() {
      return port;
    },
    down,
    up: listen,
    close: down,
  };
}
