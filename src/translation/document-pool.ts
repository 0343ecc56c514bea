/**
 * A small pool of worker threads that detect, extract and render documents off the event
 * loop. A document is pinned to the worker that extracted it (its template lives there)
 * until `release()`. Workers start lazily, are unref'd while they have nothing in flight
 * (an idle pool never keeps the process alive) and exit after a quiet spell with no
 * documents held, so an idle server holds no extra threads.
 *
 * Untrusted documents are bounded here (docs/decisions/0011-every-document-in-a-bounded-worker.md):
 * - time: a worker busy with one message (a prepare, or one target's render) longer than
 *   `timeLimitMs` is terminated, and that message is refused with 422
 *   document_too_complex;
 * - memory: each worker's heap is capped (`resourceLimits`); a message that runs it out
 *   is refused the same way;
 * - the other documents that were waiting on, or pinned to, a worker that had to go are
 *   not at fault: they are prepared again on another worker and carry on;
 * - a worker busy with one document does not hold the others up: while every worker is
 *   busy and the pool is below `maxSize`, another one starts.
 */
import { availableParallelism } from 'node:os';
import type { ResourceLimits, Worker } from 'node:worker_threads';
import { Turns } from '../event-loop/turns.js';
import { scriptBeside, startWorkerScript } from '../event-loop/worker-script.js';
import { ServiceError } from '../errors.js';
import { DEFAULT_DOCUMENT_LIMITS, type DocumentLimits, type Format } from '../formats/format.js';
import {
  WORKER_READY,
  deserializeError,
  type DocumentWorkerData,
  type PreparedMessage,
  type WorkerReply,
  type WorkerRequest,
} from './document-messages.js';
import type { Segment } from '../segments/segment.js';
import { unpackSegments } from './packed-segments.js';
import { runLimited } from './run-limited.js';
import { columnInTurns } from './string-column.js';
import type { PreparedDocument, RenderRequest } from './prepared-document.js';

const WORKER_SCRIPT = scriptBeside(import.meta.url, 'document-worker');
const startWorker = (resourceLimits: ResourceLimits, workerData: DocumentWorkerData) =>
  startWorkerScript(WORKER_SCRIPT, { resourceLimits, workerData });

/** Renders in flight per document: keeps the worker busy without cloning every target's strings at once. */
const RENDERS_IN_FLIGHT = 2;

export const DEFAULT_TIME_LIMIT_MS = 3_000;
export const DEFAULT_MEMORY_LIMIT_MB = 256;
/** Nice steps below the main thread (decision 0129): 10 leaves a busy worker about a tenth of a contended core. */
export const DEFAULT_WORKER_NICENESS = 10;

export interface DocumentPoolOptions {
  /** Worker threads kept while there is work; default: one per core beyond the main thread's, 1–4. */
  readonly size?: number;
  /** Worker threads at most, when every one is busy; default: size + 1. */
  readonly maxSize?: number;
  /** A worker with no document and nothing in flight exits after this long. */
  readonly idleMs?: number;
  /** One message (a prepare, or one target's render) may keep a worker busy this long. */
  readonly timeLimitMs?: number;
  /** Old-generation heap of each worker, in MiB. */
  readonly memoryLimitMb?: number;
  /** How many nice steps below the main thread each worker runs (0: the same priority). */
  readonly niceness?: number;
}

export interface DocumentPoolStats {
  readonly workers: number;
  /** Documents whose templates are held in a worker (prepared and not yet released). */
  readonly documents: number;
  /** Requests sent and not yet answered. */
  readonly pending: number;
  /** Workers terminated for a document that ran past the time or memory limit. */
  readonly replaced: number;
}

/** The worker went away for another document's sake: the request may be placed again. */
class WorkerGone extends Error {
  constructor() {
    super('the document worker was replaced');
    this.name = 'WorkerGone';
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  readonly worker: Worker;
  /** In the order sent; the worker answers in that order, so the first is the one it is busy with. */
  readonly pending: Map<number, Pending>;
  readonly documents: Set<number>;
  idleTimer?: NodeJS.Timeout;
  /** Fires when the message at the head of `pending` has run past the time limit. */
  watchdog?: NodeJS.Timeout;
  watched?: number;
  /** The worker has loaded its modules: start-up time is not held against a document. */
  ready: boolean;
  gone: boolean;
}

interface Placement {
  readonly slot: Slot;
  readonly doc: number;
  readonly prepared: Omit<PreparedMessage, 'segments'> & { readonly segments: readonly Segment[] };
}

export function defaultPoolSize(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

export class DocumentPool {
  readonly size: number;
  readonly maxSize: number;
  readonly timeLimitMs: number;
  readonly memoryLimitMb: number;
  readonly niceness: number;
  private readonly idleMs: number;
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private replaced = 0;
  private closed = false;

  constructor(options: DocumentPoolOptions = {}) {
    this.size = options.size ?? defaultPoolSize();
    this.maxSize = Math.max(this.size, options.maxSize ?? this.size + 1);
    this.idleMs = options.idleMs ?? 30_000;
    this.timeLimitMs = options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
    this.memoryLimitMb = options.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB;
    this.niceness = options.niceness ?? DEFAULT_WORKER_NICENESS;
  }

  stats(): DocumentPoolStats {
    let documents = 0;
    let pending = 0;
    for (const slot of this.slots) {
      documents += slot.documents.size;
      pending += slot.pending.size;
    }
    return { workers: this.slots.length, documents, pending, replaced: this.replaced };
  }

  /**
   * Detects (when `format` is omitted) and extracts in a worker; rejects with the adapter's
   * error, or 422 document_too_complex past `limits`, the time limit or the memory limit.
   */
  async prepare(
    content: string,
    format: Format | undefined,
    limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS,
  ): Promise<PreparedDocument> {
    const placement = await this.place(content, format, limits);
    return this.handle(placement, () => this.place(content, format, limits));
  }

  /** Terminates every worker; in-flight requests reject. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.slice().map((slot) => this.retire(slot, new Error('the document pool was closed'))));
  }

  /** Prepares on the best worker; once more on another if that worker is replaced meanwhile. */
  private async place(content: string, format: Format | undefined, limits: DocumentLimits): Promise<Placement> {
    for (let attempt = 1; ; attempt++) {
      if (this.closed) throw new Error('the document pool is closed');
      const slot = this.pick();
      const doc = this.nextId++;
      slot.documents.add(doc);
      try {
        const message = { id: this.nextId++, op: 'prepare', doc, content, limits, ...(format ? { format } : {}) } as const;
        const reply = (await this.send(slot, message)) as PreparedMessage;
        return { slot, doc, prepared: Object.assign({}, reply, { segments: await unpackSegments(reply.segments) }) };
      } catch (error) {
        this.release(slot, doc);
        if (!(error instanceof WorkerGone) || attempt >= 2) throw asPlainError(error);
      }
    }
  }

  private handle(first: Placement, placeAgain: () => Promise<Placement>): PreparedDocument {
    let released = false;
    let placement: Promise<Placement> = Promise.resolve(first);
    let current = first;
    let replacing: Placement | undefined;
    const pool = this;
    /** One target's render; if the worker holding the template was replaced, prepare again elsewhere and retry once. */
    const renderOne = async ({ target, translations: strings }: RenderRequest): Promise<string> => {
      const translations = await columnInTurns(strings, new Turns());
      for (let attempt = 1; ; attempt++) {
        const at = await placement;
        if (released) throw new Error('the document was released before rendering');
        try {
          return (await pool.send(at.slot, { id: pool.nextId++, op: 'render', doc: at.doc, target, translations })) as string;
        } catch (error) {
          if (!(error instanceof WorkerGone) || attempt >= 2) throw asPlainError(error);
          if (replacing !== at) {
            replacing = at;
            placement = placeAgain().then((next) => {
              if (released) pool.release(next.slot, next.doc);
              current = next;
              return next;
            });
          }
        }
      }
    };
    return {
      format: first.prepared.format,
      segments: first.prepared.segments,
      tokenCounts: first.prepared.tokenCounts,
      ...(first.prepared.detection ? { detection: first.prepared.detection } : {}),
      ...(first.prepared.sourceLanguage ? { sourceLanguage: first.prepared.sourceLanguage } : {}),
      async renderAll(requests: readonly RenderRequest[]) {
        const out: Record<string, string> = {};
        // A few renders in flight: each answer is its own macrotask on this thread, so other
        // requests run between targets, and only a couple of targets' strings are in transit.
        await runLimited(requests, RENDERS_IN_FLIGHT, async (request) => {
          if (released) throw new Error('the document was released before rendering');
          out[request.key] = await renderOne(request);
        });
        return out;
      },
      release() {
        if (released) return;
        released = true;
        pool.release(current.slot, current.doc);
      },
    };
  }

  /**
   * A worker with nothing in flight (holding documents costs it no time); else a new one
   * while below maxSize; else the one with the fewest messages waiting.
   */
  private pick(): Slot {
    let idle: Slot | undefined;
    let leastBusy: Slot | undefined;
    for (const slot of this.slots) {
      if (slot.pending.size === 0 && (!idle || slot.documents.size < idle.documents.size)) idle = slot;
      if (!leastBusy || slot.pending.size < leastBusy.pending.size) leastBusy = slot;
    }
    if (idle) return idle;
    if (leastBusy && this.slots.length >= this.maxSize) return leastBusy;
    return this.spawn();
  }

  private spawn(): Slot {
    const worker = startWorker({ maxOldGenerationSizeMb: this.memoryLimitMb }, { niceness: this.niceness });
    const slot: Slot = { worker, pending: new Map(), documents: new Set(), ready: false, gone: false };
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      if (reply === WORKER_READY) {
        slot.ready = true;
        this.watch(slot);
        return;
      }
      const waiter = slot.pending.get(reply.id);
      if (!waiter) return;
      slot.pending.delete(reply.id);
      this.settle(slot);
      if (reply.ok) waiter.resolve(reply.result);
      else waiter.reject(deserializeError(reply.error));
    });
    // A worker that dies takes its templates with it. Out of memory: the message it was
    // busy with is refused as too complex; anything else that crashes it is a plain failure.
    worker.on('error', (error: Error & { code?: string }) => {
      const culprit =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new ServiceError(
              'document_too_complex',
              `The document is too complex to process: it needs more than the ${this.memoryLimitMb} MiB of memory a document may use; simplify or split it.`,
            )
          : error;
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') this.replaced++;
      void this.retire(slot, culprit, true);
    });
    worker.on('exit', (code) => void this.retire(slot, new Error(`a document worker exited (code ${code})`)));
    this.slots.push(slot);
    return slot;
  }

  private send(slot: Slot, message: Extract<WorkerRequest, { id: number }>): Promise<unknown> {
    if (slot.gone) return Promise.reject(new WorkerGone());
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

  /**
   * Ref while answers are awaited and watch the message the worker is busy with; unref
   * when idle; retire after a quiet spell with nothing held.
   */
  private settle(slot: Slot): void {
    if (slot.gone) return;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    this.watch(slot);
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

  /** Arms the time limit for the message at the head of the worker's queue, when it changed. */
  private watch(slot: Slot): void {
    if (!slot.ready) return;
    const head = slot.pending.keys().next();
    const id = head.done ? undefined : head.value;
    if (id === slot.watched) return;
    if (slot.watchdog) clearTimeout(slot.watchdog);
    slot.watchdog = undefined;
    slot.watched = id;
    if (id === undefined) return;
    slot.watchdog = setTimeout(() => {
      this.replaced++;
      void this.retire(
        slot,
        new ServiceError(
          'document_too_complex',
          `The document is too complex to process: it took longer than the ${this.timeLimitMs} ms a document may take; simplify or split it.`,
        ),
        true,
      );
    }, this.timeLimitMs);
  }

  /**
   * Takes the worker out of the pool and terminates it. The message it was busy with
   * fails with `culprit`; every other waiter gets WorkerGone and is placed again. A worker
   * lost to a document (`replace`) is replaced at once, so that the next document does not
   * wait for a worker to start.
   */
  private async retire(slot: Slot, culprit: Error, replace = false): Promise<void> {
    if (slot.gone) return;
    slot.gone = true;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    if (slot.watchdog) clearTimeout(slot.watchdog);
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    if (replace && !this.closed && this.slots.length < this.size) this.settle(this.spawn());
    let first = true;
    for (const waiter of slot.pending.values()) {
      waiter.reject(first || this.closed ? culprit : new WorkerGone());
      first = false;
    }
    slot.pending.clear();
    slot.documents.clear();
    await slot.worker.terminate();
  }
}

/** WorkerGone twice in a row is not the caller's to handle: a plain failure (500). */
function asPlainError(error: unknown): unknown {
  return error instanceof WorkerGone ? new Error('a document worker stopped twice while holding this document') : error;
}
