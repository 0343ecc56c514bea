/**
 * A document worker thread: extracts documents and keeps each one's template until the
 * pool releases it, renders it once per target on request. Token counts for the chunk
 * planner are computed here too, so the main thread does none of a document's parsing,
 * counting or rendering. The pool watches the time each message takes and the thread's
 * heap is capped (resourceLimits), so a hostile document costs a worker, not the process.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThreadPriority } from '../event-loop/thread-priority.js';
import type { ExtractedDocument } from '../formats/format.js';
import { Tokenizer } from '../tokens.js';
import {
  WORKER_READY,
  serializeError,
  type DocumentWorkerData,
  type PreparedMessage,
  type WorkerReply,
  type WorkerRequest,
} from './document-messages.js';
import { asTooComplex, extractDocument } from './extract-document.js';
import { packSegments } from './packed-segments.js';
import { stringsOf } from './string-column.js';

const port = parentPort;
if (!port) throw new Error('document-worker runs only as a worker thread');

// A document is background work next to the requests the main thread answers: where the
// cores are contended, the main thread goes first (decision 0129).
lowerThisThreadPriority((workerData as DocumentWorkerData | undefined)?.niceness ?? 0);

// This entry point is the thread's composition root: its parts live as long as the thread.
const tokenizer = new Tokenizer();
/** The templates this worker holds, until the pool releases them. */
const documents = new Map<number, ExtractedDocument>();

function handle(message: Exclude<WorkerRequest, { op: 'release' }>): unknown {
  if (message.op === 'prepare') {
    const { document, detection } = extractDocument(message.content, message.format, message.limits);
    documents.set(message.doc, document);
    const prepared: PreparedMessage = {
      format: document.format,
      segments: packSegments(document.segments),
      tokenCounts: Uint32Array.from(document.segments, (segment) => tokenizer.countTokens(segment.text)),
      ...(detection ? { detection } : {}),
      ...(document.sourceLanguage ? { sourceLanguage: document.sourceLanguage } : {}),
    };
    return prepared;
  }
  const document = documents.get(message.doc);
  if (!document) throw new Error(`document ${message.doc} is not held by this worker`);
  return asTooComplex(() => document.render(stringsOf(message.translations), message.target));
}

port.on('message', (message: WorkerRequest) => {
  if (message.op === 'release') {
    documents.delete(message.doc);
    return;
  }
  let reply: WorkerReply;
  try {
    reply = { id: message.id, ok: true, result: handle(message) };
  } catch (error) {
    reply = { id: message.id, ok: false, error: serializeError(error) };
  }
  port.postMessage(reply);
});
port.postMessage(WORKER_READY);
