/**
 * A Cancellation that fires when the client goes away before the answer is sent. Its
 * AbortSignal, and the 'close' listener behind it, are made on first read of `signal`
 * (translation/cancellation.ts): a request answered from memory makes neither.
 */
import type { FastifyReply } from 'fastify';
import type { Cancellation } from '../translation/cancellation.js';

export function abortOnClientClose(reply: FastifyReply): Cancellation {
  let controller: AbortController | undefined;
  return {
    get signal(): AbortSignal {
      if (controller) return controller.signal;
      const made = (controller = new AbortController());
      const response = reply.raw;
      const abortIfUnanswered = (): void => {
        if (!response.writableFinished) made.abort(new Error('client closed the connection'));
      };
      // Closed before anyone asked (the client left while the request was read): at once.
      if (response.closed) abortIfUnanswered();
      else response.once('close', abortIfUnanswered);
      return made.signal;
    },
  };
}
