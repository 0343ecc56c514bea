/**
 * A document's segments as they cross from a document worker to the main thread: in
 * columns — the texts in one string (string-column.ts), the kinds and flags in typed
 * arrays, the few contexts and notes with their indexes — rather than one object each.
 * Structured cloning revives every object, and every string of an array, on the receiving
 * thread in one step; for 200,000 segments that was the main thread's longest
 * (docs/event-loop.md). The objects are rebuilt here on the main thread, taking turns with
 * other requests.
 */
import { Turns } from '../event-loop/turns.js';
import { SEGMENT_KINDS, type PluralMessage, type Segment, type SegmentKind } from '../segments/segment.js';
import { columnOf, stringAt, type StringColumn } from './string-column.js';

/** Strings only some segments have: which ones, and theirs in the same order. */
export interface SparseColumn {
  readonly at: Uint32Array;
  readonly values: StringColumn;
}

export interface PackedSegments {
  readonly texts: StringColumn;
  /** Each segment's kind, as its index in SEGMENT_KINDS. */
  readonly kinds: Uint8Array;
  /** 1 where the segment must stay on one line. */
  readonly singleLine: Uint8Array;
  readonly ctx: SparseColumn;
  readonly notes: SparseColumn;
  /** The few segments with counted messages: [index, its messages]. */
  readonly plurals: readonly (readonly [number, readonly PluralMessage[]])[];
  /** Only when some segment's id is not `s` and its position from 1 (no adapter does that today). */
  readonly ids?: StringColumn;
}

const KIND_INDEX = new Map<SegmentKind, number>(SEGMENT_KINDS.map((kind, i) => [kind, i]));

export function packSegments(segments: readonly Segment[]): PackedSegments {
  const kinds = new Uint8Array(segments.length);
  const singleLine = new Uint8Array(segments.length);
  const plurals: [number, readonly PluralMessage[]][] = [];
  let ordinalIds = true;
  segments.forEach((segment, i) => {
    kinds[i] = KIND_INDEX.get(segment.kind)!;
    if (segment.singleLine) singleLine[i] = 1;
    if (segment.plurals) plurals.push([i, segment.plurals]);
    if (segment.id !== `s${i + 1}`) ordinalIds = false;
  });
  return {
    texts: columnOf(segments.map((segment) => segment.text)),
    kinds,
    singleLine,
    ctx: sparseColumnOf(segments, (segment) => segment.ctx),
    notes: sparseColumnOf(segments, (segment) => segment.note),
    plurals,
    ...(ordinalIds ? {} : { ids: columnOf(segments.map((segment) => segment.id)) }),
  };
}

function sparseColumnOf(segments: readonly Segment[], valueOf: (segment: Segment) => string | undefined): SparseColumn {
  const at: number[] = [];
  const values: string[] = [];
  segments.forEach((segment, i) => {
    const value = valueOf(segment);
    if (value === undefined) return;
    at.push(i);
    values.push(value);
  });
  return { at: Uint32Array.from(at), values: columnOf(values) };
}

/** The segments again, with the ids every adapter gives them (`s1`, `s2`, … in document order). */
export async function unpackSegments(packed: PackedSegments, turns = new Turns()): Promise<Segment[]> {
  const plurals = new Map(packed.plurals);
  const segments = new Array<Segment>(packed.kinds.length);
  let nextCtx = 0;
  let nextNote = 0;
  for (let i = 0; i < segments.length; i++) {
    const segment: { -readonly [K in keyof Segment]: Segment[K] } = {
      id: packed.ids ? stringAt(packed.ids, i) : `s${i + 1}`,
      text: stringAt(packed.texts, i),
      kind: SEGMENT_KINDS[packed.kinds[i]!]!,
    };
    if (packed.ctx.at[nextCtx] === i) segment.ctx = stringAt(packed.ctx.values, nextCtx++);
    if (packed.notes.at[nextNote] === i) segment.note = stringAt(packed.notes.values, nextNote++);
    if (packed.singleLine[i] === 1) segment.singleLine = true;
    const counted = plurals.get(i);
    if (counted) segment.plurals = counted;
    segments[i] = segment;
    if (turns.due()) await turns.yield();
  }
  return segments;
}
