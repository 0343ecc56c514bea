/**
 * The messages between the document pool (main thread) and a document worker, and how an
 * error crosses the thread boundary: a ServiceError keeps its code and message (so an
 * unparseable JSON document still answers 400 invalid_request with the same words).
 */
import type { DetectionResult, DocumentLimits, Format, RenderTarget } from '../formats/format.js';
import type { PackedSegments } from './packed-segments.js';
import type { StringColumn } from './string-column.js';
import { ServiceError, type ErrorCode } from '../errors.js';

export type WorkerRequest =
  | {
      readonly id: number;
      readonly op: 'prepare';
      readonly doc: number;
      readonly content: string;
      readonly format?: Format;
      readonly limits: DocumentLimits;
    }
  | {
      readonly id: number;
      readonly op: 'render';
      readonly doc: number;
      readonly target: RenderTarget;
      /** The translation of each segment, in segment order. */
      readonly translations: StringColumn;
    }
  | { readonly op: 'release'; readonly doc: number };

export interface PreparedMessage {
  readonly format: Format;
  readonly segments: PackedSegments;
  readonly detection?: DetectionResult;
  readonly sourceLanguage?: string;
  readonly tokenCounts: Uint32Array;
}

export interface SerializedError {
  readonly name: string;
  readonly message: string;
  readonly code?: ErrorCode;
  readonly stack?: string;
}

export type WorkerReply =
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly error: SerializedError }
  | typeof WORKER_READY;

/** What a document worker is started with. */
export interface DocumentWorkerData {
  /** Nice steps below the main thread (decision 0129). */
  readonly niceness: number;
}

/** A worker's first message: its modules are loaded and it takes work. */
export const WORKER_READY = 'ready';

export function serializeError(error: unknown): SerializedError {
  if (error instanceof ServiceError) return { name: error.name, message: error.message, code: error.code };
  if (error instanceof Error) return { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  return { name: 'Error', message: String(error) };
}

export function deserializeError(error: SerializedError): Error {
  if (error.code !== undefined) return new ServiceError(error.code, error.message);
  const revived = new Error(error.message);
  revived.name = error.name;
  if (error.stack) revived.stack = `${error.stack}\n    (in a document worker thread)`;
  return revived;
}
