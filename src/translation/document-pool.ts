/**
 * A small pool of worker threads that extract and render large documents off the event
 * loop. A document is pinned to the worker that extracted it (its template lives there)
 * until `release()`. Workers start lazily, are unref'd while they have nothing in flight
 * (an idle pool never keeps the process alive) and exit after a quiet spell with no
 * documents held, so an idle server holds no extra threads.
 */
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Format } from '../formats/format.js';
import {
  deserializeError,
  type PreparedMessage,
  type WorkerReply,
  type WorkerRequest,
} from './document-messages.js';
import type { PreparedDocument, RenderRequest } from './prepared-document.js';

/** The worker script beside this module, with this module's extension: `.js` from dist/, `.ts` under tsx. */
const WORKER_URL = new URL(`./document-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

function startWorker(): Worker {
  if (WORKER_URL.pathname.endsWith('.js')) return new Worker(WORKER_URL);
  // Under tsx (tests, benches): a worker inherits execArgv, but Node 20 runs no `--import`
  // preload in worker threads, so the worker registers tsx's loader itself first.
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_URL.href)}); })`;
  return new Worker(bootstrap, { eval: true });
}

/** Renders in flight per document: keeps the worker busy without cloning every target's strings at once. */
const RENDERS_IN_FLIGHT = 2;

export interface DocumentPoolOptions {
  /** Worker threads at most; default: one per core beyond the main thread's, 1–4. */
  readonly size?: number;
  /** A worker with no document and nothing in flight exits after this long. */
  readonly idleMs?: number;
}

export interface DocumentPoolStats {
  readonly workers: number;
  /** Documents whose templates are held in a worker (prepared and not yet released). */
  readonly documents: number;
  /** Requests sent and not yet answered. */
  readonly pending: number;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  readonly worker: Worker;
  readonly pending: Map<number, Pending>;
  readonly documents: Set<number>;
  idleTimer?: NodeJS.Timeout;
  gone: boolean;
}

export function defaultPoolSize(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

export class DocumentPool {
  readonly size: number;
  private readonly idleMs: number;
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private closed = false;

  constructor(options: DocumentPoolOptions = {}) {
    this.size = options.size ?? defaultPoolSize();
    this.idleMs = options.idleMs ?? 30_000;
  }

  stats(): DocumentPoolStats {
    let documents = 0;
    let pending = 0;
    for (const slot of this.slots) {
      documents += slot.documents.size;
      pending += slot.pending.size;
    }
    return { workers: this.slots.length, documents, pending };
  }

  /** Detects (when `format` is omitted) and extracts in a worker; rejects with the adapter's error. */
  async prepare(content: string, format: Format | undefined): Promise<PreparedDocument> {
    if (this.closed) throw new Error('the document pool is closed');
    const slot = this.pick();
    const doc = this.nextId++;
    slot.documents.add(doc);
    let prepared: PreparedMessage;
    try {
      prepared = (await this.send(slot, { id: this.nextId++, op: 'prepare', doc, content, ...(format ? { format } : {}) })) as PreparedMessage;
    } catch (error) {
      this.release(slot, doc);
      throw error;
    }
    return this.handle(slot, doc, prepared);
  }

  /** Terminates every worker; in-flight requests reject. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.splice(0).map((slot) => this.retire(slot, new Error('the document pool was closed'))));
  }

  private handle(slot: Slot, doc: number, prepared: PreparedMessage): PreparedDocument {
    let released = false;
    const pool = this;
    return {
      format: prepared.format,
      segments: prepared.segments,
      tokenCounts: prepared.tokenCounts,
      ...(prepared.detection ? { detection: prepared.detection } : {}),
      async renderAll(requests: readonly RenderRequest[]) {
        const out: Record<string, string> = {};
        let next = 0;
        // A few renders in flight: each answer is its own macrotask on this thread, so other
        // requests run between targets, and only a couple of targets' strings are in transit.
        const lane = async (): Promise<void> => {
          while (next < requests.length) {
            if (released) throw new Error('the document was released before rendering');
            const { key, target, translations } = requests[next++]!;
            out[key] = (await pool.send(slot, { id: pool.nextId++, op: 'render', doc, target, translations })) as string;
          }
        };
        await Promise.all(Array.from({ length: Math.min(RENDERS_IN_FLIGHT, requests.length) }, lane));
        return out;
      },
      release() {
        if (released) return;
        released = true;
        pool.release(slot, doc);
      },
    };
  }

  /** The least loaded worker; a new one while the pool is below size and every worker is in use. */
  private pick(): Slot {
    const load = (slot: Slot) => slot.documents.size + slot.pending.size;
    let best: Slot | undefined;
    for (const slot of this.slots) if (!best || load(slot) < load(best)) best = slot;
    if (best && (load(best) === 0 || this.slots.length >= this.size)) return best;
    return this.spawn();
  }

  private spawn(): Slot {
    const worker = startWorker();
    const slot: Slot = { worker, pending: new Map(), documents: new Set(), gone: false };
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      const waiter = slot.pending.get(reply.id);
      if (!waiter) return;
      slot.pending.delete(reply.id);
      this.settle(slot);
      if (reply.ok) waiter.resolve(reply.result);
      else waiter.reject(deserializeError(reply.error));
    });
    // A crashed worker takes its documents with it: fail what waits on it, start afresh next time.
    worker.on('error', (error) => void this.retire(slot, error));
    worker.on('exit', (code) => void this.retire(slot, new Error(`a document worker exited (code ${code})`)));
    this.slots.push(slot);
    return slot;
  }

  private send(slot: Slot, message: Extract<WorkerRequest, { id: number }>): Promise<unknown> {
    if (slot.gone) return Promise.reject(new Error('the document worker holding this document has exited'));
    return new Promise((resolve, reject) => {
      slot.pending.set(message.id, { resolve, reject });
      this.settle(slot);
      slot.worker.postMessage(message);
    });
  }

  private release(slot: Slot, doc: number): void {
    if (!slot.documents.delete(doc)) return;
    if (!slot.gone) slot.worker.postMessage({ op: 'release', doc } satisfies WorkerRequest);
    this.settle(slot);
  }

  /** Ref while answers are awaited; unref when idle; retire after a quiet spell with nothing held. */
  private settle(slot: Slot): void {
    if (slot.gone) return;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    if (slot.pending.size > 0) {
      slot.worker.ref();
      return;
    }
    slot.worker.unref();
    if (slot.documents.size === 0) {
      slot.idleTimer = setTimeout(() => void this.retire(slot, new Error('idle')), this.idleMs);
      slot.idleTimer.unref();
    }
  }

  private async retire(slot: Slot, reason: Error): Promise<void> {
    if (slot.gone) return;
    slot.gone = true;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    for (const waiter of slot.pending.values()) waiter.reject(reason);
    slot.pending.clear();
    slot.documents.clear();
    await slot.worker.terminate();
  }
}
