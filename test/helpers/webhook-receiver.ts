/**
 * A receiver of webhooks on 127.0.0.1 over real HTTP: records every request (headers and
 * raw body) and answers as the test scripts it — a status, a delay, a huge body, or no
 * answer at all (held until close).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly at: number;
}

export type ReceiverAnswer =
  | { readonly status: number; readonly delayMs?: number; readonly bodyBytes?: number; readonly location?: string }
  | { readonly hang: true };

export interface WebhookReceiver {
  readonly url: string;
  readonly port: number;
  readonly received: ReceivedHook[];
  /** Answers for the next requests, in order; then `fallback`. */
  script(...answers: ReceiverAnswer[]): void;
  fallback(answer: ReceiverAnswer): void;
  /** Resolves once `count` requests in all have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(path = '/hooks'): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const queue: ReceiverAnswer[] = [];
  let fallback: ReceiverAnswer = { status: 204 };
  const waiters: { count: number; resolve: () => void }[] = [];
  const held: ServerResponse[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      for (const waiter of waiters.filter((w) => received.length >= w.count)) waiter.resolve();
      const answer = queue.shift() ?? fallback;
      if ('hang' in answer) {
        held.push(response);
        return;
      }
      setTimeout(() => {
        const headers: Record<string, string> = answer.location ? { location: answer.location } : {};
        response.writeHead(answer.status, headers);
        if (answer.bodyBytes) {
          // Written in pieces, as a big answer arrives.
          const piece = Buffer.alloc(64 * 1024, 'x');
          let left = answer.bodyBytes;
          const write = () => {
            while (left > 0) {
              left -= piece.length;
              if (!response.write(piece)) return void response.once('drain', write);
            }
            response.end();
          };
          response.on('error', () => {});
          write();
        } else response.end();
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    received,
    script: (...answers) => queue.push(...answers),
    fallback: (answer) => (fallback = answer),
    waitFor(count, timeoutMs = 15_000) {
      if (received.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${received.length} of ${count} webhooks arrived`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    async close() {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
