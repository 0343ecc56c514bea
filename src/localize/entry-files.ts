/**
 * A locale file as `sync` sees it when it syncs entry by entry (decision 0077): each
 * entry's key, what its source says (the unit whose hash the lock keeps), where its
 * translation lies (`region`, from the format's adapter), and its block: its lines with
 * the comments right above it (back to a blank line or the entry before), and the blank
 * lines before those (`gapStart`), which go and come with it. A request sends the source
 * with the blocks of the entries that need nothing cut out; the answer's regions replace
 * the target's, new entries' blocks are put in after the entry before them, removed ones
 * are cut out, and nothing else in the target changes.
 */
import type { Format } from './api.js';
import { getAdapter } from '../formats/index.js';
import type { LocaleEntry } from '../formats/entries/entry.js';

/**
 * How a format's entries sit in its files: `flat`, one after another (a new entry goes
 * after the entry before it); `nested`, in mappings named by the key's dotted path (a
 * YAML file: a new entry goes into its parent mapping, with the parents the target lacks).
 */
export type EntryLayout = 'flat' | 'nested';

/**
 * The formats synced entry by entry: their adapters give each entry its `region`.
 * A locale format joins with one line here once its adapter does.
 */
const ENTRY_FORMATS: ReadonlyMap<Format, EntryLayout> = new Map<Format, EntryLayout>([
  ['po', 'flat'],
  ['properties', 'flat'],
  ['xliff', 'flat'],
  ['yaml', 'nested'],
]);

export const isEntryFormat = (format: Format | undefined): boolean => format !== undefined && ENTRY_FORMATS.has(format);
export const entryLayout = (format: Format): EntryLayout => ENTRY_FORMATS.get(format) ?? 'flat';

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

/**
 * The entries of a file in file order, by key (a key met twice keeps its first entry);
 * undefined when an entry has no region (a YAML string in a sequence), so that the file
 * is synced whole. Throws the adapter's error for a file that does not parse.
 */
export function readEntryFile(format: Format, text: string): Map<string, FileEntry> | undefined {
  const document = getAdapter(format as Parameters<typeof getAdapter>[0]).extract(text) as { entries?: readonly LocaleEntry[] };
  if ((document.entries ?? []).some((entry) => entry.region === undefined)) return undefined;
  const entries = [...(document.entries ?? [])].sort((a, b) => a.region![0] - b.region![0]);
  const out = new Map<string, FileEntry>();
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

const lineStart = (text: string, at: number): number => (at <= 0 ? 0 : text.lastIndexOf("\n", at - 1) + 1);
const isBlank = (line: string): boolean => line.trim() === '';

interface Splice {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /**
   * Of an insertion into a nested file: its lines' indentation. Insertions at one place go
   * deepest first: a deeper one continues the mapping before it, a shallower one ends it.
   */
  readonly indent?: number;
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
export function partialDocument(text: string, entries: ReadonlyMap<string, FileEntry>, keep: ReadonlySet<string>): string {
  const cuts: Splice[] = [];
  for (const entry of entries.values()) if (!keep.has(entry.key)) cuts.push({ start: entry.gapStart, end: entry.blockEnd, text: '' });
  return applySplices(text, cuts);
}

/**
 * The existing target with the answer's entries merged in: a sent entry the target has
 * gets the answer's region; one it lacks gets the answer's block (with its blank lines)
 * after the target's block of the nearest source entry before it (before the nearest
 * after it, or at the end) — in a `nested` file, the nearest in its parent mapping, and
 * with the lines of the parents the target lacks; a removed entry's block is cut out.
 */
export function mergeEntries(
  existing: string,
  targetEntries: ReadonlyMap<string, FileEntry>,
  answer: string,
  answerEntries: ReadonlyMap<string, FileEntry>,
  sourceOrder: readonly string[],
  sent: readonly string[],
  removed: readonly string[],
  layout: EntryLayout = 'flat',
): string {
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
        : flatInsertion(key, at, existing, targetEntries, answer, from, sourceOrder);
    let block = insertion.text;
    if (insertion.at > 0 && existing[insertion.at - 1] !== '\n') block = `\n${block}`;
    splices.push({ start: insertion.at, end: insertion.at, text: block, indent: indentOf(block, firstKeyLine(block, 0)) });
  }
  const cuts: Splice[] = [];
  for (const key of removed) {
    const entry = targetEntries.get(key);
    if (entry !== undefined) cuts.push({ start: entry.gapStart, end: entry.blockEnd, text: '' });
  }
  if (layout === 'nested') cuts.push(...emptiedMappings(existing, cuts));
  return applySplices(existing, [...splices, ...cuts]);
}

/**
 * The mappings of a nested file that `cuts` leave with nothing in them (every line under
 * them cut): cut too, with the comments right above them, so that a later entry of that
 * mapping brings it back once (nestedInsertion) rather than as a second key.
 */
function emptiedMappings(text: string, cuts: readonly Splice[]): Splice[] {
  const ranges = cuts.map((cut) => [cut.start, cut.end] as [number, number]);
  const isCut = (at: number): boolean => ranges.some(([start, end]) => start <= at && at < end);
  const emptied = new Set<number>();
  const out: Splice[] = [];
  // Level by level, so a mapping is judged once its emptied children are known.
  let frontier = cuts.map((cut) => firstKeyLine(text, cut.start)).filter((line, i) => line < cuts[i]!.end);
  while (frontier.length > 0) {
    const next: number[] = [];
    for (const line of frontier) {
      if (indentOf(text, line) === 0) continue;
      const parent = parentLine(text, line);
      if (emptied.has(parent)) continue;
      const end = pastDeeperLines(text, lineEnd(text, parent), indentOf(text, parent));
      let empty = true;
      for (let at = lineEnd(text, parent); at < end && empty; at = lineEnd(text, at)) {
        const content = text.slice(at, lineEnd(text, at));
        if (!isBlank(content) && !isComment(content) && !isCut(at)) empty = false;
      }
      if (!empty) continue;
      emptied.add(parent);
      const start = gapBefore(text, commentsAbove(text, parent));
      ranges.push([start, end]);
      out.push({ start, end, text: '' });
      next.push(parent);
    }
    frontier = next;
  }
  return out;
}

interface Insertion {
  readonly at: number;
  readonly text: string;
}

function flatInsertion(
  key: string,
  at: number,
  existing: string,
  targetEntries: ReadonlyMap<string, FileEntry>,
  answer: string,
  from: FileEntry,
  sourceOrder: readonly string[],
): Insertion {
  let insertAt = existing.length;
  const before = sourceOrder.slice(0, at).reverse().find((k) => targetEntries.has(k));
  const after = sourceOrder.slice(at + 1).find((k) => targetEntries.has(k));
  if (before !== undefined) insertAt = targetEntries.get(before)!.blockEnd;
  else if (after !== undefined) insertAt = targetEntries.get(after)!.gapStart;
  return { at: insertAt, text: answer.slice(from.gapStart, from.blockEnd) };
}

/**
 * A new entry of a nested file (YAML): the deepest parent mapping of its key that the
 * target has (one of whose entries lies under it) is where it goes; when that is not its
 * own parent, the answer's lines of the first mapping the target lacks go in whole, with
 * every sent entry under it. Placed after the target's nearest entry before it in that
 * mapping, past the lines more indented than the inserted ones (the rest of that entry's
 * mapping); else before the member that holds the nearest one after it (that entry, or
 * the mapping it is in); else after the mapping's last entry; else at the end of the file.
 */
function nestedInsertion(
  key: string,
  at: number,
  existing: string,
  targetEntries: ReadonlyMap<string, FileEntry>,
  answer: string,
  answerEntries: ReadonlyMap<string, FileEntry>,
  sourceOrder: readonly string[],
  placed: Set<string>,
): Insertion {
  const parts = key.split('.');
  const under = (prefix: readonly string[]) => (k: string) => prefix.length === 0 || k.startsWith(`${prefix.join('.')}.`);
  const targetKeys = [...targetEntries.keys()];
  let depth = parts.length - 1;
  while (depth > 0 && !targetKeys.some(under(parts.slice(0, depth)))) depth--;
  const inParent = under(parts.slice(0, depth));
  const from = answerEntries.get(key)!;
  let textStart = from.gapStart;
  let textEnd = from.blockEnd;
  if (depth < parts.length - 1) {
    const lacking = under(parts.slice(0, depth + 1));
    const inside = [...answerEntries.values()].filter((entry) => lacking(entry.key));
    for (const entry of inside) placed.add(entry.key);
    textEnd = Math.max(...inside.map((entry) => entry.blockEnd));
    let line = firstKeyLine(answer, from.blockStart);
    for (let level = parts.length - 1; level > depth; level--) line = parentLine(answer, line);
    textStart = gapBefore(answer, commentsAbove(answer, line));
  }
  const text = answer.slice(textStart, textEnd);
  const indent = indentOf(answer, firstKeyLine(answer, textStart));
  const candidates = sourceOrder.filter((k) => targetEntries.has(k) && inParent(k));
  const before = candidates.filter((k) => sourceOrder.indexOf(k) < at).pop();
  if (before !== undefined) return { at: pastDeeperLines(existing, targetEntries.get(before)!.blockEnd, indent), text };
  const after = candidates.find((k) => sourceOrder.indexOf(k) > at);
  if (after !== undefined) {
    // Before the member of the mapping that holds it (itself, or the mapping it is in).
    let line = firstKeyLine(existing, targetEntries.get(after)!.blockStart);
    while (indentOf(existing, line) > indent && line > 0) line = parentLine(existing, line);
    if (indentOf(existing, line) === indent) return { at: gapBefore(existing, commentsAbove(existing, line)), text };
  }
  const last = [...targetEntries.values()].filter((entry) => inParent(entry.key)).sort((a, b) => b.blockEnd - a.blockEnd)[0];
  if (last !== undefined) return { at: pastDeeperLines(existing, last.blockEnd, indent), text };
  return { at: existing.length, text };
}

const lineEnd = (text: string, at: number): number => {
  const newline = text.indexOf('\n', at);
  return newline === -1 ? text.length : newline + 1;
};
const isComment = (line: string): boolean => /^[ \t]*#/.test(line);
const indentOf = (text: string, at: number): number => /^ */.exec(text.slice(at, lineEnd(text, at)))![0].length;

/** The first line from `at` that is neither blank nor a comment. */
function firstKeyLine(text: string, at: number): number {
  let line = at;
  while (line < text.length) {
    const content = text.slice(line, lineEnd(text, line));
    if (!isBlank(content) && !isComment(content)) return line;
    line = lineEnd(text, line);
  }
  return line;
}

/** The nearest line above `line` that is less indented: the mapping key it belongs to. */
function parentLine(text: string, line: number): number {
  const indent = indentOf(text, line);
  let at = line;
  while (at > 0) {
    at = lineStart(text, at - 1);
    const content = text.slice(at, lineEnd(text, at));
    if (!isBlank(content) && !isComment(content) && indentOf(text, at) < indent) return at;
  }
  return 0;
}

function commentsAbove(text: string, line: number): number {
  let at = line;
  while (at > 0 && isComment(text.slice(lineStart(text, at - 1), at))) at = lineStart(text, at - 1);
  return at;
}

function gapBefore(text: string, line: number): number {
  let at = line;
  while (at > 0 && isBlank(text.slice(lineStart(text, at - 1), at))) at = lineStart(text, at - 1);
  return at;
}

/** Past the lines from `at` that are more indented than `indent` (blank ones only when more of those follow). */
function pastDeeperLines(text: string, at: number, indent: number): number {
  let end = at;
  let line = at;
  while (line < text.length) {
    const content = text.slice(line, lineEnd(text, line));
    if (isBlank(content)) {
      line = lineEnd(text, line);
      continue;
    }
    if (indentOf(text, line) <= indent) break;
    line = lineEnd(text, line);
    end = line;
  }
  return end;
}
