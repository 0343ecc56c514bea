/**
 * A locale file as `sync` sees it when it syncs entry by entry (decision 0077): each
 * entry's key, what its source says (the unit whose hash the lock keeps), where its
 * translation lies (`region`, from the format's adapter), and its block: its lines with
 * the comments right above it (back to a blank line or the entry before) — or, where the
 * adapter names them (`block`: a YAML or XLIFF entry inside other markup, an Android
 * resource with its comment, a `.stringsdict` key and dict), exactly those — and the
 * blank lines before (`gapStart`), which go and come with it. A request sends the source
 * with the blocks of the entries that need nothing cut out; the answer's regions replace
 * the target's, new entries' blocks are put in after the entry before them, removed ones
 * are cut out, and nothing else in the target changes.
 */
import type { Format } from './api.js';
import { getAdapter } from '../formats/index.js';
import type { LocaleEntry } from '../formats/entries/entry.js';
import type { FileEntries, FileEntry, Insertion, Splice } from './file-entry.js';
import { mergeJsonEntries, partialJsonDocument } from './json-entry-merge.js';
import { emptiedMappings, insertionIndent, isBlank, lineStart, nestedInsertion } from './nested-entries.js';

export type { FileEntries, FileEntry } from './file-entry.js';

/**
 * How a format's entries sit in its files: `flat`, one after another (a new entry goes
 * after the entry before it); `nested`, in mappings named by the key's dotted path (a
 * YAML file: a new entry goes into its parent mapping, with the parents the target lacks).
 */
export type EntryLayout = 'flat' | 'nested';

/**
 * The formats synced entry by entry: their adapters give each entry its `region`.
 * A locale format joins with one line here once its adapter does. (ARB's entries are
 * JSON members, cut and put in by json-entry-merge.ts: decision 0100.)
 */
const ENTRY_FORMATS: ReadonlyMap<Format, EntryLayout> = new Map<Format, EntryLayout>([
  ['po', 'flat'],
  ['properties', 'flat'],
  ['xliff', 'flat'],
  ['yaml', 'nested'],
  ['android', 'flat'],
  ['strings', 'flat'],
  ['stringsdict', 'flat'],
  ['arb', 'flat'],
]);

export const isEntryFormat = (format: Format | undefined): boolean => format !== undefined && ENTRY_FORMATS.has(format);
export const entryLayout = (format: Format): EntryLayout => ENTRY_FORMATS.get(format) ?? 'flat';

/**
 * Whether new entries have a place in this target: not in an XML file whose root is one
 * empty tag (`<resources/>`, `<dict/>`) and holds no entry to follow, where the only place
 * left, the file's end, would be after the root. Such a target is written whole from the
 * answer instead (decision 0100).
 */
export const hasRoomForEntries = (entries: FileEntries): boolean =>
  entries.size > 0 || entries.entriesEnd !== undefined || !ROOTED_FORMATS.has(entries.format);
const ROOTED_FORMATS: ReadonlySet<Format> = new Set<Format>(['android', 'stringsdict']);

/** A file of `format` with no entries (an answer that sent nothing). */
export const noEntries = (format: Format): FileEntries => Object.assign(new Map<string, FileEntry>(), { format, entriesEnd: undefined });

/**
 * The entries of a file in file order, by key (a key met twice keeps its first entry);
 * undefined when an entry has no region (a YAML string in a sequence), so that the file
 * is synced whole. Throws the adapter's error for a file that does not parse.
 */
export function readEntryFile(format: Format, text: string): FileEntries | undefined {
  const document = getAdapter(format as Parameters<typeof getAdapter>[0]).extract(text) as { entries?: readonly LocaleEntry[]; entriesEnd?: number };
  if ((document.entries ?? []).some((entry) => entry.region === undefined)) return undefined;
  const entries = [...(document.entries ?? [])].sort((a, b) => a.region![0] - b.region![0]);
  const out = Object.assign(new Map<string, FileEntry>(), { format, entriesEnd: document.entriesEnd });
  let previousEnd = 0;
  for (const entry of entries) {
    const [start, end] = entry.region!;
    let blockStart: number;
    let blockEnd: number;
    if (entry.block) {
      [blockStart, blockEnd] = entry.block;
    } else {
      const newline = text.indexOf('\n', end);
      blockEnd = newline === -1 ? text.length : newline + 1;
      blockStart = lineStart(text, start);
      while (blockStart > previousEnd) {
        const before = lineStart(text, blockStart - 1);
        if (isBlank(text.slice(before, blockStart))) break;
        blockStart = before;
      }
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

function applySplices(text: string, splices: Splice[]): string {
  splices.sort((a, b) => a.start - b.start || a.end - b.end || (b.indent ?? 0) - (a.indent ?? 0));
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
 * after it, or at the end of the root's content: never after a closing `</resources>`) —
 * in a `nested` file, the nearest in its parent mapping, and
 * with the lines of the parents the target lacks; a removed entry's block is cut out.
 */
export function mergeEntries(
  existing: string,
  targetEntries: FileEntries,
  answer: string,
  answerEntries: FileEntries,
  sourceOrder: readonly string[],
  sent: readonly string[],
  removed: readonly string[],
  layout: EntryLayout = 'flat',
): string {
  if (targetEntries.format === 'arb') return mergeJsonEntries(existing, targetEntries, answer, answerEntries, sourceOrder, sent, removed);
  const splices: Splice[] = [];
  const position = new Map(sourceOrder.map((key, i) => [key, i]));
  /** Entries already in, with the parent mapping an earlier one brought. */
  const placed = new Set<string>();
  for (const key of sent) {
    const from = answerEntries.get(key);
    if (from === undefined) throw new Error(`the answer has no entry ${JSON.stringify(key)}`);
    const into = targetEntries.get(key);
    if (into !== undefined) {
      splices.push({ start: into.region[0], end: into.region[1], text: from.regionText });
      continue;
    }
    if (placed.has(key)) continue;
    const at = position.get(key) ?? sourceOrder.length;
    const insertion =
      layout === 'nested'
        ? nestedInsertion(key, at, existing, targetEntries, answer, answerEntries, sourceOrder, placed)
        : flatInsertion(at, existing, targetEntries, answer, from, sourceOrder);
    let block = insertion.text;
    if (insertion.at > 0 && existing[insertion.at - 1] !== '\n') block = `\n${block}`;
    // Before a root's end tag that shares the entry's line (`<resources></resources>`), the tag goes on a line of its own.
    if (insertion.atRootEnd && insertion.at < existing.length && !block.endsWith('\n')) block = `${block}\n`;
    splices.push({ start: insertion.at, end: insertion.at, text: block, indent: insertionIndent(block) });
  }
  const cuts: Splice[] = [];
  for (const key of removed) {
    const entry = targetEntries.get(key);
    if (entry !== undefined) cuts.push({ start: entry.gapStart, end: entry.blockEnd, text: '' });
  }
  if (layout === 'nested') cuts.push(...emptiedMappings(existing, cuts));
  return applySplices(existing, [...splices, ...cuts]);
}

function flatInsertion(
  at: number,
  existing: string,
  targetEntries: FileEntries,
  answer: string,
  from: FileEntry,
  sourceOrder: readonly string[],
): Insertion {
  const before = sourceOrder.slice(0, at).reverse().find((k) => targetEntries.has(k));
  const after = sourceOrder.slice(at + 1).find((k) => targetEntries.has(k));
  const text = answer.slice(from.gapStart, from.blockEnd);
  if (before !== undefined) return { at: targetEntries.get(before)!.blockEnd, text };
  if (after !== undefined) return { at: targetEntries.get(after)!.gapStart, text };
  return { at: endOfEntries(existing, targetEntries.entriesEnd), text, atRootEnd: true };
}
