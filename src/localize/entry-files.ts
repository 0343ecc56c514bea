/**
 * A locale file as `sync` sees it when it syncs entry by entry (decision 0077): each
 * entry's key, what its source says (the unit whose hash the lock keeps), where its
 * translation lies (`region`, from the format's adapter), and its block: its lines with
 * the comments right above it (back to a blank line or the entry before) — or, where the
 * adapter names them (`extent`: an Android resource with its comment, a `.stringsdict`
 * key and dict), exactly those lines — and the blank lines before (`gapStart`), which go
 * and come with it. A request sends the source
 * with the blocks of the entries that need nothing cut out; the answer's regions replace
 * the target's, new entries' blocks are put in after the entry before them, removed ones
 * are cut out, and nothing else in the target changes.
 */
import type { Format } from './api.js';
import { getAdapter } from '../formats/index.js';
import type { LocaleEntry } from '../formats/entries/entry.js';
import { mergeJsonEntries, partialJsonDocument } from './json-entry-merge.js';

/**
 * The formats synced entry by entry: their adapters give each entry its `region`.
 * A locale format joins with one line here once its adapter does. (ARB's entries are
 * JSON members, cut and put in by json-entry-merge.ts: decision 0100.)
 */
const ENTRY_FORMATS: ReadonlySet<Format> = new Set<Format>([
  'po',
  'properties',
  'android',
  'strings',
  'stringsdict',
  'arb',
]);

export const isEntryFormat = (format: Format | undefined): boolean => format !== undefined && ENTRY_FORMATS.has(format);

export interface FileEntry {
  readonly key: string;
  /** What the source says: value, plural forms and notes; its hash tells a changed entry. */
  readonly unit: string;
  /** The translation's bytes in the file, and whether it holds one. */
  readonly regionText: string;
  readonly translated: boolean;
  readonly region: readonly [number, number];
  /** Its lines, comments included, to the end of its last line. */
  readonly blockStart: number;
  readonly blockEnd: number;
  /** Where the blank lines before the block start. */
  readonly gapStart: number;
}

/** A file's entries by key, in file order. */
export interface FileEntries extends ReadonlyMap<string, FileEntry> {
  readonly format: Format;
  /** Where an entry goes when none of the file's is left to follow (the adapter's `entriesEnd`: before `</resources>`). */
  readonly entriesEnd: number | undefined;
}

/** The entries of a file in file order, by key (a key met twice keeps its first entry). Throws the adapter's error for a file that does not parse. */
export function readEntryFile(format: Format, text: string): FileEntries {
  const document = getAdapter(format as Parameters<typeof getAdapter>[0]).extract(text) as { entries?: readonly LocaleEntry[]; entriesEnd?: number };
  const entries = (document.entries ?? []).filter((entry) => entry.region !== undefined).sort((a, b) => a.region![0] - b.region![0]);
  const out = Object.assign(new Map<string, FileEntry>(), { format, entriesEnd: document.entriesEnd });
  let previousEnd = 0;
  for (const entry of entries) {
    const [start, end] = entry.region!;
    const lines = linesAround(text, Math.min(start, entry.extent?.[0] ?? start), Math.max(end, entry.extent?.[1] ?? end), entry.extent !== undefined);
    let blockStart = lines[0];
    const blockEnd = lines[1];
    // An entry that knows its lines stops there: above it are the file's own (an XML root's start tag).
    while (entry.extent === undefined && blockStart > previousEnd) {
      const before = lineStart(text, blockStart - 1);
      if (isBlank(text.slice(before, blockStart))) break;
      blockStart = before;
    }
    let gapStart = blockStart;
    while (gapStart > previousEnd) {
      const before = lineStart(text, gapStart - 1);
      if (!isBlank(text.slice(before, gapStart))) break;
      gapStart = before;
    }
    previousEnd = blockEnd;
    if (out.has(entry.key)) continue;
    out.set(entry.key, {
      key: entry.key,
      unit: JSON.stringify([entry.value, entry.forms ?? null, entry.notes]),
      regionText: text.slice(start, end),
      translated: entry.translated !== false,
      region: [start, end],
      blockStart,
      blockEnd,
      gapStart,
    });
  }
  return out;
}

/** Where a new entry goes with no entry of the file to follow: the root's end tag's line (its indent stays with it), or the file's end. */
function endOfEntries(text: string, entriesEnd: number | undefined): number {
  if (entriesEnd === undefined) return text.length;
  const from = lineStart(text, entriesEnd);
  return /^[ \t]*$/.test(text.slice(from, entriesEnd)) ? from : entriesEnd;
}

const lineStart = (text: string, at: number): number => (at <= 0 ? 0 : text.lastIndexOf("\n", at - 1) + 1);

/**
 * The whole lines from `start` to `end`, with the last line's end. An entry's own text
 * (`exact`) that shares a line with something else (an XML file on one line) keeps to
 * its bytes instead: the lines would take the root element's tags along.
 */
function linesAround(text: string, start: number, end: number, exact: boolean): [number, number] {
  const from = lineStart(text, start);
  const newline = text.indexOf('\n', end);
  const to = newline === -1 ? text.length : newline + 1;
  if (!exact) return [from, to];
  return [/^[ \t]*$/.test(text.slice(from, start)) ? from : start, /^[ \t\r]*\n?$/.test(text.slice(end, to)) ? to : end];
}
const isBlank = (line: string): boolean => line.trim() === '';

interface Splice {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

function applySplices(text: string, splices: Splice[]): string {
  splices.sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let at = 0;
  for (const splice of splices) {
    out += text.slice(at, splice.start) + splice.text;
    at = Math.max(at, splice.end);
  }
  return out + text.slice(at);
}

/** The source with the blocks of every entry not in `keep` cut out: what a request sends. */
export function partialDocument(text: string, entries: FileEntries, keep: ReadonlySet<string>): string {
  if (entries.format === 'arb') return partialJsonDocument(text, entries, keep);
  const cuts: Splice[] = [];
  for (const entry of entries.values()) if (!keep.has(entry.key)) cuts.push({ start: entry.gapStart, end: entry.blockEnd, text: '' });
  return applySplices(text, cuts);
}

/**
 * The existing target with the answer's entries merged in: a sent entry the target has
 * gets the answer's region; one it lacks gets the answer's block (with its blank lines)
 * after the target's block of the nearest source entry before it (before the nearest
 * after it, or at the end of the root's content: never after a closing `</resources>`);
 * a removed entry's block is cut out.
 */
export function mergeEntries(
  existing: string,
  targetEntries: FileEntries,
  answer: string,
  answerEntries: FileEntries,
  sourceOrder: readonly string[],
  sent: readonly string[],
  removed: readonly string[],
): string {
  if (targetEntries.format === 'arb') return mergeJsonEntries(existing, targetEntries, answer, answerEntries, sourceOrder, sent, removed);
  const splices: Splice[] = [];
  const position = new Map(sourceOrder.map((key, i) => [key, i]));
  for (const key of sent) {
    const from = answerEntries.get(key);
    if (from === undefined) throw new Error(`the answer has no entry ${JSON.stringify(key)}`);
    const into = targetEntries.get(key);
    if (into !== undefined) {
      splices.push({ start: into.region[0], end: into.region[1], text: from.regionText });
      continue;
    }
    const at = position.get(key) ?? sourceOrder.length;
    const before = sourceOrder.slice(0, at).reverse().find((k) => targetEntries.has(k));
    const after = sourceOrder.slice(at + 1).find((k) => targetEntries.has(k));
    const insertAt =
      before !== undefined ? targetEntries.get(before)!.blockEnd : after !== undefined ? targetEntries.get(after)!.gapStart : endOfEntries(existing, targetEntries.entriesEnd);
    let block = answer.slice(from.gapStart, from.blockEnd);
    if (insertAt > 0 && existing[insertAt - 1] !== '\n') block = `\n${block}`;
    // Before a root's end tag that shares the entry's line (`<resources></resources>`), the tag goes on a line of its own.
    if (before === undefined && after === undefined && insertAt < existing.length && !block.endsWith('\n')) block = `${block}\n`;
    splices.push({ start: insertAt, end: insertAt, text: block });
  }
  for (const key of removed) {
    const entry = targetEntries.get(key);
    if (entry !== undefined) splices.push({ start: entry.gapStart, end: entry.blockEnd, text: '' });
  }
  return applySplices(existing, splices);
}
