/**
 * The Idempotency-Key of the POST routes that charge or enqueue (CONTRACT §7): the HTTP
 * side of src/idempotency/. Before the handler, a request with a key is answered from the
 * stored first answer (with `Idempotent-Replayed: true`), refused (409/422), or let through
 * holding the key; the answer it then sends is kept, unless it is a 5xx or a 429, which a
 * retry must run again. Routes opt in with `...hooks.idempotent`; their handlers see nothing.
 */
import type {
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onResponseHookHandler,
  onSendHookHandler,
  preHandlerHookHandler,
} from 'fastify';
import type { AppDeps } from '../../deps.js';
import { ServiceError } from '../../errors.js';
import { parseIdempotencyKey, requestFingerprint } from '../../idempotency/key.js';
import type { HeldKey } from '../../idempotency/store.js';
import { wantsEventStream } from '../event-stream.js';
import { userOf } from './auth.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers Server-Sent Events when asked (Accept: text/event-stream). */
    eventStream?: boolean;
  }
  interface FastifyRequest {
    /** Set while this request holds its Idempotency-Key; cleared once the answer is kept or the key freed. */
    idempotency: HeldKey | undefined;
  }
}

export const REPLAYED_HEADER = 'idempotent-replayed';

export interface IdempotencyHooks {
  readonly preHandler: preHandlerHookHandler;
  readonly onSend: onSendHookHandler;
  readonly onResponse: onResponseHookHandler;
}

/** Whether an answer with this status is kept for retries (CONTRACT §7: not 5xx, not 429). */
export function isKept(status: number): boolean {
  return status < 500 && status !== 429;
}

export function idempotencyHooks(deps: AppDeps): IdempotencyHooks {
  const store = deps.idempotency;

  async function claimKey(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const key = parseIdempotencyKey(request.headers['idempotency-key']);
    if (key === undefined) return undefined;
    if (request.routeOptions.config.eventStream === true && wantsEventStream(request)) {
      throw new ServiceError(
        'invalid_request',
        'Idempotency-Key cannot be combined with Accept: text/event-stream: a stream is not stored for replay; drop one of them',
      );
    }
    const fingerprint = requestFingerprint(`${request.method} ${request.routeOptions.url ?? request.url}`, request.body);
    const begun = await store.begin(userOf(request).id, key, fingerprint);
    if (begun.kind === 'owner') {
      request.idempotency = begun.key;
      return undefined;
    }
    const { status, contentType, body } = begun.answer;
    void reply.code(status).header(REPLAYED_HEADER, 'true');
    if (contentType) void reply.header('content-type', contentType);
    return reply.send(body);
  }

  async function keepAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    const held = request.idempotency;
    if (!held) return payload;
    request.idempotency = undefined;
    const status = reply.statusCode;
    try {
      if (isKept(status) && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
        const contentType = reply.getHeader('content-type');
        await held.complete({ status, contentType: typeof contentType === 'string' ? contentType : undefined, body: payload.toString() });
      } else {
        await held.release();
      }
    } catch (error) {
      // The answer still goes out; without its row a retry runs the request again (the
      // key's lease lapses on its own), as it would without a key.
      request.log.error({ err: error }, 'keeping the answer of an Idempotency-Key failed');
    }
    return payload;
  }

  async function freeUnanswered(request: FastifyRequest): Promise<void> {
    const held = request.idempotency;
    if (!held) return;
    request.idempotency = undefined;
    await held.release().catch((error: unknown) => request.log.warn({ err: error }, 'freeing an Idempotency-Key failed; its lease lapses'));
  }

  // Nearly every request has no key: the hooks then call `done` at once, with no promise,
  // no async frame and no microtask turn each (three a request on POST /v1/translate;
  // docs/benchmarks.md, "Request path after the fences"). With a key they return the async
  // path's promise, which Fastify's hook runner awaits as for an async hook.
  function preHandler(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): Promise<FastifyReply | undefined> | undefined {
    if (request.headers['idempotency-key'] === undefined) {
      done();
      return undefined;
    }
    return claimKey(request, reply);
  }

  function onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): Promise<unknown> | undefined {
    if (!request.idempotency) {
      done(null, payload);
      return undefined;
    }
    return keepAnswer(request, reply, payload);
  }

  function onResponse(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): Promise<void> | undefined {
    if (!request.idempotency) {
      done();
      return undefined;
    }
    return freeUnanswered(request);
  }

  return {
    preHandler: preHandler as unknown as preHandlerHookHandler,
    onSend: onSend as unknown as onSendHookHandler,
    onResponse: onResponse as unknown as onResponseHookHandler,
  };
}

