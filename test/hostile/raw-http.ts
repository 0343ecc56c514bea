/** Raw HTTP/1.1 over a socket, for what fetch will not send: bad bytes, slow bodies, no Host. */
import { connect } from 'node:net';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** Milliseconds from connecting to the server closing the connection (or the response being whole). */
  readonly elapsedMs: number;
}

/**
 * Writes `head` (and then each of `chunks` after `chunkDelayMs`), reads until the server
 * closes the connection or `timeoutMs` passes, and parses the first response.
 */
export function rawRequest(
  port: number,
  head: string | Buffer,
  options: { chunks?: readonly string[]; chunkDelayMs?: number; timeoutMs?: number } = {},
): Promise<RawResponse> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${options.timeoutMs ?? 10_000} ms; got ${Buffer.concat(received).toString('latin1').slice(0, 300)}`));
    }, options.timeoutMs ?? 10_000);
    let sending: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      socket.write(head);
      const chunks = [...(options.chunks ?? [])];
      const next = () => {
        const chunk = chunks.shift();
        if (chunk === undefined || socket.destroyed) return;
        socket.write(chunk);
        sending = setTimeout(next, options.chunkDelayMs ?? 100);
      };
      sending = setTimeout(next, options.chunkDelayMs ?? 100);
    });
    socket.on('data', (data) => received.push(data));
    socket.on('error', () => {}); // a reset after the answer is fine; the answer is judged below
    socket.on('close', () => {
      clearTimeout(timer);
      if (sending) clearTimeout(sending);
      const text = Buffer.concat(received).toString('utf8');
      const match = /^HTTP\/1\.1 (\d{3})[^\r\n]*\r\n([\s\S]*?)\r\n\r\n([\s\S]*)$/.exec(text);
      if (!match) return reject(new Error(`not an HTTP response: ${JSON.stringify(text.slice(0, 300))}`));
      const headers: Record<string, string> = {};
      for (const line of match[2]!.split('\r\n')) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let body = match[3]!;
      if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
      resolve({ status: Number(match[1]), headers, body, elapsedMs: performance.now() - started });
    });
  });
}

function dechunk(text: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const lineEnd = text.indexOf('\r\n', at);
    if (lineEnd < 0) return out;
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (!size) return out;
    out += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}
