/**
 * A document's segments as they cross from a document worker to the main thread: in
 * columns (arrays of strings and a typed array) rather than one object each. Structured
 * cloning revives every object on the receiving thread in one go; for 200,000 segments
 * that was the longest stall of the main thread (docs/event-loop.md), while arrays of
 * strings clone in a fraction of it. The objects are rebuilt here on the main thread,
 * taking turns with other requests.
 */
import { Turns } from '../event-loop/turns.js';
import type { PluralMessage, Segment, SegmentKind } from '../segments/segment.js';

export interface PackedSegments {
  readonly texts: readonly string[];
  readonly kinds: readonly SegmentKind[];
  /** 1 where the segment must stay on one line. */
  readonly singleLine: Uint8Array;
  /** Absent entries are segments without one. */
  readonly ctx: readonly (string | undefined)[];
  readonly notes: readonly (string | undefined)[];
  /** The few segments with counted messages: [index, its messages]. */
  readonly plurals: readonly (readonly [number, readonly PluralMessage[]])[];
  /** Only when some segment's id is not `s` and its position from 1 (no adapter does that today). */
  readonly ids?: readonly string[];
}

export function packSegments(segments: readonly Segment[]): PackedSegments {
  const singleLine = new Uint8Array(segments.length);
  const plurals: [number, readonly PluralMessage[]][] = [];
  let ordinalIds = true;
  segments.forEach((segment, i) => {
    if (segment.singleLine) singleLine[i] = 1;
    if (segment.plurals) plurals.push([i, segment.plurals]);
    if (segment.id !== `s${i + 1}`) ordinalIds = false;
  });
  return {
    texts: segments.map((segment) => segment.text),
    kinds: segments.map((segment) => segment.kind),
    singleLine,
    ctx: segments.map((segment) => segment.ctx),
    notes: segments.map((segment) => segment.note),
    plurals,
    ...(ordinalIds ? {} : { ids: segments.map((segment) => segment.id) }),
  };
}

/** The segments again, with the ids every adapter gives them (`s1`, `s2`, … in document order). */
export async function unpackSegments(packed: PackedSegments, turns = new Turns()): Promise<Segment[]> {
  const plurals = new Map(packed.plurals);
  const segments = new Array<Segment>(packed.texts.length);
  for (let i = 0; i < segments.length; i++) {
    const segment: { -readonly [K in keyof Segment]: Segment[K] } = { id: packed.ids?.[i] ?? `s${i + 1}`, text: packed.texts[i]!, kind: packed.kinds[i]! };
    const ctx = packed.ctx[i];
    if (ctx !== undefined) segment.ctx = ctx;
    const note = packed.notes[i];
    if (note !== undefined) segment.note = note;
    if (packed.singleLine[i] === 1) segment.singleLine = true;
    const counted = plurals.get(i);
    if (counted) segment.plurals = counted;
    segments[i] = segment;
    if (turns.due()) await turns.yield();
  }
  return segments;
}
