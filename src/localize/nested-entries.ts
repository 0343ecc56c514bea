/**
 * Where `sync` puts entries in a nested file (a YAML file, decision 0103), read from its
 * lines' indentation: a new entry into the deepest mapping of its path the target has,
 * and a mapping its removed entries leave empty out with them.
 */
import type { FileEntry, Insertion, Splice } from './file-entry.js';

export const lineStart = (text: string, at: number): number => (at <= 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1);
export const isBlank = (line: string): boolean => line.trim() === '';

/**
 * A new entry of a nested file (YAML): the deepest parent mapping of its key that the
 * target has (one of whose entries lies under it) is where it goes; when that is not its
 * own parent, the answer's lines of the first mapping the target lacks go in whole, with
 * every sent entry under it. Placed after the target's nearest entry before it in that
 * mapping, past the lines more indented than the inserted ones (the rest of that entry's
 * mapping); else before the member that holds the nearest one after it (that entry, or
 * the mapping it is in); else after the mapping's last entry; else at the end of the file.
 */
export function nestedInsertion(
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

/**
 * The mappings of a nested file that `cuts` leave with nothing in them (every line under
 * them cut): cut too, with the comments right above them, so that a later entry of that
 * mapping brings it back once (nestedInsertion) rather than as a second key.
 */
export function emptiedMappings(text: string, cuts: readonly Splice[]): Splice[] {
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

/** The indentation of the first key line of an inserted text (Splice.indent). */
export function insertionIndent(text: string): number {
  return indentOf(text, firstKeyLine(text, 0));
}
