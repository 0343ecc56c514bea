/**
 * A document worker thread: extracts documents and keeps each one's template until the
 * pool releases it, renders it once per target on request. Token counts for the chunk
 * planner are computed here too, so the main thread does none of a large document's
 * parsing, counting or rendering.
 */
import { parentPort } from 'node:worker_threads';
import type { ExtractedDocument } from '../formats/format.js';
import { detectFormat, getAdapter } from '../formats/index.js';
import { countTokens } from '../tokens.js';
import { serializeError, type PreparedMessage, type WorkerReply, type WorkerRequest } from './document-messages.js';

const port = parentPort;
if (!port) throw new Error('document-worker runs only as a worker thread');

const documents = new Map<number, ExtractedDocument>();

function handle(message: Exclude<WorkerRequest, { op: 'release' }>): unknown {
  if (message.op === 'prepare') {
    const detection = message.format === undefined ? detectFormat(message.content) : undefined;
    const document = getAdapter(message.format ?? detection!.format).extract(message.content);
    documents.set(message.doc, document);
    const prepared: PreparedMessage = {
      format: document.format,
      segments: document.segments,
      tokenCounts: document.segments.map((segment) => countTokens(segment.text)),
      ...(detection ? { detection } : {}),
    };
    return prepared;
  }
  const document = documents.get(message.doc);
  if (!document) throw new Error(`document ${message.doc} is not held by this worker`);
  return document.render(message.translations, message.target);
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
