/**
 * Many strings as they cross between the main thread and a document worker: end to end in
 * one string, with where each ends. Structured cloning writes and revives an array of
 * strings one string at a time, on the sending thread and on the receiving one, each in a
 * single step; for 200,000 segments those two steps were the main thread's longest
 * (docs/event-loop.md). One string and one typed array are copied whole instead. The main
 * thread joins and splits its columns taking turns with other requests.
 */
import type { Turns } from '../event-loop/turns.js';

export interface StringColumn {
  /** The strings, end to end. */
  readonly text: string;
  /** ends[i]: where the i-th string ends in `text` (it starts where the one before ends). */
  readonly ends: Uint32Array;
}

/** Strings joined per step: a join of this many short strings is a small part of a turn. */
const STRINGS_PER_STEP = 256;

/** The column of `strings` (on a worker thread, where a turn's length does not matter). */
export function columnOf(strings: readonly string[]): StringColumn {
  const ends = new Uint32Array(strings.length);
  let end = 0;
  for (let i = 0; i < strings.length; i++) ends[i] = end += strings[i]!.length;
  return { text: strings.join(''), ends };
}

/** columnOf on the main thread: the strings joined a few hundred at a time, taking turns. */
export async function columnInTurns(strings: readonly string[], turns: Turns): Promise<StringColumn> {
  const ends = new Uint32Array(strings.length);
  const pieces: string[] = [];
  let end = 0;
  for (let start = 0; start < strings.length; start += STRINGS_PER_STEP) {
    const stop = Math.min(start + STRINGS_PER_STEP, strings.length);
    for (let i = start; i < stop; i++) ends[i] = end += strings[i]!.length;
    pieces.push(strings.slice(start, stop).join(''));
    if (turns.due()) await turns.yield();
  }
  return { text: pieces.join(''), ends };
}

/** The i-th string of `column`. */
export function stringAt(column: StringColumn, i: number): string {
  return column.text.slice(i === 0 ? 0 : column.ends[i - 1]!, column.ends[i]!);
}

/** Every string of `column` (on a worker thread). */
export function stringsOf(column: StringColumn): string[] {
  return Array.from(column.ends, (_, i) => stringAt(column, i));
}
