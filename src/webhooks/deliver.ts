/**
 * One delivery attempt over HTTP(S). The connection goes to the address the guard checked
 * (a `lookup` that answers only that address), while TLS still verifies the certificate
 * for the URL's host name. Redirects are not followed (a 3xx is a failed attempt), and a
 * slow or endless answer cannot hold a worker: the whole attempt — connect, send, answer —
 * has one deadline, and at most RESPONSE_CAP_BYTES of the answer are read.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { resolvePublicAddress, UrlRefused, type Resolver } from './url-guard.js';

/** Enough for any error page worth keeping a line of; the rest is not read. */
export const RESPONSE_CAP_BYTES = 64 * 1024;

export interface AttemptRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
  readonly allowPrivate: boolean;
  readonly resolve?: Resolver;
}

export type AttemptResult =
  | { readonly ok: true; readonly status: number }
  | { readonly ok: false; readonly status: number | null; readonly error: string };

export async function attemptDelivery(request: AttemptRequest): Promise<AttemptResult> {
  const url = new URL(request.url);
  const controller = new AbortController();
  const deadline = setTimeout(() => controller.abort(), request.timeoutMs);
  try {
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    const pinned = await raceAbort(resolvePublicAddress(hostname, request.allowPrivate, request.resolve), controller.signal);
    const lookup: LookupFunction = (_name, options, callback) => {
      if (options.all) (callback as (err: null, addresses: { address: string; family: number }[]) => void)(null, [pinned]);
      else callback(null, pinned.address, pinned.family);
    };
    const status = await send(url, request, lookup, controller.signal);
    return status >= 200 && status < 300 ? { ok: true, status } : { ok: false, status, error: describeStatus(status) };
  } catch (error) {
    if (error instanceof UrlRefused) return { ok: false, status: null, error: error.message };
    if (controller.signal.aborted) return { ok: false, status: null, error: `no answer within ${request.timeoutMs / 1000} s` };
    return { ok: false, status: null, error: `the request failed: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  } finally {
    clearTimeout(deadline);
  }
}

function send(url: URL, request: AttemptRequest, lookup: LookupFunction, signal: AbortSignal): Promise<number> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<number>((resolve, reject) => {
    let status: number | undefined;
    // The answer is read to its end (up to the cap) within the deadline; its status is all we keep.
    const finish = () => (status === undefined ? reject(new Error('the connection closed before an answer')) : resolve(status));
    const outgoing = client.request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'translate-service-webhooks', ...request.headers },
        lookup,
        signal,
        // No connection reuse: each attempt resolves and pins anew.
        agent: false,
      },
      (response) => {
        status = response.statusCode ?? 0;
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > RESPONSE_CAP_BYTES) response.destroy();
        });
        response.on('end', finish);
        response.on('close', finish);
        response.on('error', finish);
      },
    );
    outgoing.on('error', (error) => (status === undefined ? reject(error) : resolve(status)));
    outgoing.end(request.body);
  });
}

function describeStatus(status: number): string {
  if (status >= 300 && status < 400) return `answered ${status}; redirects are not followed`;
  return `answered ${status}`;
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
