/**
 * A large answer leaves in slices, one a turn (issue 37; docs/event-loop.md).
 *
 * Written as one string, a translated document of several MiB is measured
 * (`Buffer.byteLength`) and encoded to UTF-8 inside one socket write, all in one turn: in
 * the profile of 10,000 XLIFF units into two targets that turn held a health check for
 * 75 ms of CPU, most of the 100 ms bound. Past LARGE_ANSWER_CHARS the serialized answer is
 * handed to Node as a stream instead, which encodes SLICE_CHARS of it in each turn and lets
 * other requests run between slices. The answer goes out with chunked transfer encoding
 * and no Content-Length; its bytes are the same.
 *
 * An answer kept for an Idempotency-Key is left whole: its hook stores the string.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';

/** Below this, one write costs less than a slice's turn is worth. */
export const LARGE_ANSWER_CHARS = 1024 * 1024;
const SLICE_CHARS = 128 * 1024;

export function largeAnswersInSlices(app: FastifyInstance): void {
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (typeof payload !== 'string' || payload.length <= LARGE_ANSWER_CHARS || request.idempotency) return done(null, payload);
    done(null, new AnswerInSlices(payload));
  });
}

/** `text` as a stream of UTF-8 slices, each encoded in a turn of its own. */
export class AnswerInSlices extends Readable {
  private at = 0;

  /** The whole answer, for whoever reads answers in an onSend hook (the tests' answer check). */
  constructor(readonly text: string) {
    super();
  }

  override _read(): void {
    // Deferred: pushed at once, the slices would all be encoded in the turn that started
    // the write, as long as the socket takes them.
    setImmediate(() => this.pushSlice());
  }

  private pushSlice(): void {
    const { text } = this;
    if (this.at >= text.length) {
      this.push(null);
      return;
    }
    let end = Math.min(text.length, this.at + SLICE_CHARS);
    // Never between the two halves of a surrogate pair: each slice is encoded alone.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    const slice = Buffer.from(text.slice(this.at, end), 'utf8');
    this.at = end;
    this.push(slice);
  }
}
