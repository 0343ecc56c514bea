/**
 * A large answer leaves in slices, one a turn (issue 37; docs/event-loop.md).
 *
 * Written as one string, a translated document of several MiB is measured
 * (`Buffer.byteLength`) and encoded to UTF-8 inside one socket write, all in one turn,
 * which held a health check for most of its bound (decision 0115 has the profile). Past
 * LARGE_ANSWER_CHARS the serialized answer is handed to Node as a stream instead, which
 * encodes SLICE_CHARS of it in each turn and lets other requests run between slices. The answer goes out with chunked transfer encoding
 * and no Content-Length; its bytes are the same.
 *
 * The serializing can be sliced too (decision 0126): a route whose translations are large
 * answers `serializeInTurns(answer)`, which stringifies each long string in a turn of its
 * own, and the parts go out as they are, never joined into one string.
 *
 * An answer kept for an Idempotency-Key is left whole: its hook stores the string.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { yieldFromLongWork } from '../../event-loop/long-work.js';

/** Below this, one write costs less than a slice's turn is worth. */
export const LARGE_ANSWER_CHARS = 1024 * 1024;
const SLICE_CHARS = 128 * 1024;

export function largeAnswersInSlices(app: FastifyInstance): void {
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (payload instanceof SerializedParts) return done(null, request.idempotency ? payload.parts.join('') : new AnswerInSlices(payload.parts));
    if (typeof payload !== 'string' || payload.length <= LARGE_ANSWER_CHARS || request.idempotency) return done(null, payload);
    done(null, new AnswerInSlices([payload]));
  });
}

/** An answer's JSON text in parts, in order: what `serializeInTurns` made, passed on by `serializeAnswer`. */
export class SerializedParts {
  constructor(readonly parts: readonly string[]) {}
}

/**
 * Every answer's body (the serializer reference.ts sets): JSON.stringify, or the parts an
 * answer was already serialized in. Named so that a CPU profile says what it is: as an
 * anonymous closure its samples were once taken for the OpenAPI document being built
 * during a translation (docs/benchmarks.md, issue 37).
 */
export function serializeAnswer(data: unknown): string {
  // Fastify types a serializer's result as a string; the onSend hook above takes the parts.
  return data instanceof SerializedParts ? (data as unknown as string) : JSON.stringify(data);
}

/**
 * `answer` as it is, or serialized in turns when its translations' texts come to more than
 * LARGE_ANSWER_CHARS: stringified in one turn, the tens of MiB of 200,000 segments into 10
 * targets (mostly escapes of a JSON document) held the loop for one stretch, and reading
 * the result then flattened all of it in one more. Typed as the answer, which is what the
 * serializer makes of it.
 */
export function serializedWhenLarge<T extends object>(answer: T, translations: readonly Readonly<Record<string, string>>[]): T | Promise<T> {
  let chars = 0;
  for (const byLanguage of translations) for (const language in byLanguage) chars += byLanguage[language]!.length;
  return chars > LARGE_ANSWER_CHARS ? (serializeInTurns(answer) as Promise<unknown> as Promise<T>) : answer;
}

/** JSON.stringify's text of `value`, each string of SLICE_CHARS or more stringified in a turn of its own. */
export async function serializeInTurns(value: unknown): Promise<SerializedParts> {
  const long: string[] = [];
  // A stand-in no answer's own text can hold: a fresh random id.
  const stub = `${randomUUID()}:`;
  const skeleton = JSON.stringify(value, (_key, field: unknown) =>
    typeof field === 'string' && field.length >= SLICE_CHARS ? `${stub}${long.push(field) - 1}` : field,
  );
  const parts: string[] = [];
  let at = 0;
  for (const stand of skeleton.matchAll(new RegExp(`"${stub}(\\d+)"`, 'g'))) {
    parts.push(skeleton.slice(at, stand.index));
    await yieldFromLongWork();
    parts.push(JSON.stringify(long[Number(stand[1])]));
    at = stand.index + stand[0].length;
  }
  parts.push(skeleton.slice(at));
  return new SerializedParts(parts);
}

/** `parts` as one stream of UTF-8 slices, each encoded in a turn of its own. */
export class AnswerInSlices extends Readable {
  private part = 0;
  private at = 0;

  constructor(private readonly parts: readonly string[]) {
    super();
  }

  /** The whole answer, for whoever reads answers in an onSend hook (the tests' answer check). */
  get text(): string {
    return this.parts.join('');
  }

  override _read(): void {
    // Deferred: pushed at once, the slices would all be encoded in the turn that started
    // the write, as long as the socket takes them.
    yieldFromLongWork().then(
      () => this.pushSlice(),
      (error: unknown) => this.destroy(error as Error),
    );
  }

  private pushSlice(): void {
    const { parts } = this;
    while (this.part < parts.length && this.at >= parts[this.part]!.length) {
      this.part++;
      this.at = 0;
    }
    if (this.part >= parts.length) {
      this.push(null);
      return;
    }
    const text = parts[this.part]!;
    let end = Math.min(text.length, this.at + SLICE_CHARS);
    // Never between the two halves of a surrogate pair: each slice is encoded alone.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    const slice = Buffer.from(text.slice(this.at, end), 'utf8');
    this.at = end;
    this.push(slice);
  }
}
