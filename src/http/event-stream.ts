/**
 * Server-Sent Events on one reply (CONTRACT §7 "Streaming", docs/streaming.md): opened
 * only when the work has passed its checks — so a refusal before that is the usual JSON
 * error with its status — then one `event:`/`data:` block per event. `data` is one line of
 * JSON (JSON.stringify escapes line breaks), so no event can be split or forged by the
 * text it carries.
 */
import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Whether the caller asked for Server-Sent Events rather than one JSON answer. */
export function wantsEventStream(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  return typeof accept === 'string' && /(^|,)\s*text\/event-stream\s*(;|,|$)/i.test(accept);
}

export class EventStream {
  #stream: PassThrough | undefined;

  constructor(private readonly reply: FastifyReply) {}

  get opened(): boolean {
    return this.#stream !== undefined;
  }

  /** Sends the 200 and its headers; events may follow. */
  open(): void {
    if (this.#stream) return;
    const stream = (this.#stream = new PassThrough());
    // Fastify destroys it when the client goes away; later writes are dropped, not thrown.
    stream.on('error', () => {});
    void this.reply
      .code(200)
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-cache')
      // Proxies that buffer answers (nginx) would hold every event until the end.
      .header('x-accel-buffering', 'no')
      .send(stream);
    // A comment line: the headers leave now, and the client knows the work has begun.
    stream.write(': translating\n\n');
  }

  send(event: string, data: unknown): void {
    this.#stream?.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    this.#stream?.end();
  }
}
