/**
 * A Cancellation that fires when the client goes away before the answer is sent. Its
 * AbortSignal, and the 'close' listener behind it, are made on first read of `signal`
 * (translation/cancellation.ts): a request answered from memory makes neither.
 *
 * A class, not an object literal with a getter: V8 gives each such literal a map of its
 * own, which held the getter's closure — and through it the whole request — until the
 * next full collection, promoting every answered request (docs/decisions/0040).
 */
import type { FastifyReply } from 'fastify';
import type { Cancellation } from '../translation/cancellation.js';

class ClientCloseCancellation implements Cancellation {
  #controller: AbortController | undefined;

  constructor(private readonly reply: FastifyReply) {}

  get signal(): AbortSignal {
    if (this.#controller) return this.#controller.signal;
    const controller = (this.#controller = new AbortController());
    const response = this.reply.raw;
    const abortIfUnanswered = (): void => {
      if (!response.writableFinished) controller.abort(new Error('client closed the connection'));
    };
    // Closed before anyone asked (the client left while the request was read): at once.
    if (response.closed) abortIfUnanswered();
    else response.once('close', abortIfUnanswered);
    return controller.signal;
  }
}

export function abortOnClientClose(reply: FastifyReply): Cancellation {
  return new ClientCloseCancellation(reply);
}
