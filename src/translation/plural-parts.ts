/**
 * A counted message too large for one balanced call, as several calls' worth of parts
 * (docs/decisions/0104-plural-message-in-parts.md).
 *
 * A segment is the unit the model answers, so a request is bounded below by its largest
 * segment's call: a plural message shaped for Arabic writes its text six times. Its
 * branches, though, are independent forms of one message. A part is the segment with the
 * message's branches cut down to a contiguous share of them (in the order of the shaped
 * text, which is canonical), everything around the message kept: the model translates it
 * like any segment, told by the part's `pluralBranches` which added forms to word, and
 * the answer is checked like any other (each of the part's marks exactly once, so exactly
 * its categories). The parts' answers are joined back into one message: the words around
 * the message from the first part's answer, every part's branches in canonical order.
 */
import type { EngineSegment } from '../engines/engine.js';

/** Marks a part's id from its segment's (`12` → `12~0`): callModels joins the parts of one segment (sentence-parts.ts too). */
export const PART_SEPARATOR = '~';

/** One branch pair's span `<gN>…</gN>` in a text. */
export interface BranchSpan {
  readonly pair: number;
  readonly start: number;
  readonly end: number;
}

const MARK = /<(\/?)g(\d+)>/g;

/**
 * The branches of the segment's largest counted message that is not inside another
 * branch: adjacent branch pairs (in the shaped text, a message's branches follow each
 * other, its separators held by the marks). Undefined when no message has two branches.
 */
export function largestMessage(text: string, branchPairs: ReadonlySet<number>): BranchSpan[] | undefined {
  const open: { pair: number; start: number; inBranch: boolean }[] = [];
  const spans: BranchSpan[] = [];
  for (const match of text.matchAll(MARK)) {
    const pair = Number(match[2]);
    if (match[1] === '') {
      const inBranch = open.some((outer) => branchPairs.has(outer.pair));
      open.push({ pair, start: match.index, inBranch });
      continue;
    }
    const opened = open.pop();
    // Marks come well nested (segments/segment.ts); anything else is not cut.
    if (opened === undefined || opened.pair !== pair) return undefined;
    if (branchPairs.has(pair) && !opened.inBranch) spans.push({ pair, start: opened.start, end: match.index + match[0].length });
  }
  spans.sort((a, b) => a.start - b.start);
  let best: BranchSpan[] = [];
  let run: BranchSpan[] = [];
  for (const span of spans) {
    if (run.length > 0 && run[run.length - 1]!.end !== span.start) run = [];
    run.push(span);
    if (run.length > best.length) best = run;
  }
  return best.length >= 2 ? [...best] : undefined;
}

/**
 * `segment` as `count` parts (fewer when its largest message has fewer branches), the
 * branches shared out as evenly by `sizeOf` (their expected answer) as contiguous shares
 * allow; undefined when it has no message to cut.
 */
export function pluralParts(
  segment: EngineSegment,
  branchPairs: ReadonlySet<number>,
  count: number,
  sizeOf: (text: string) => number,
): EngineSegment[] | undefined {
  const branches = largestMessage(segment.text, branchPairs);
  if (branches === undefined || count < 2) return undefined;
  const shares = evenShares(branches.map((branch) => sizeOf(segment.text.slice(branch.start, branch.end))), Math.min(count, branches.length));
  const before = segment.text.slice(0, branches[0]!.start);
  const after = segment.text.slice(branches[branches.length - 1]!.end);
  return shares.map(([from, to], index) => {
    const text = before + branches.slice(from, to).map((branch) => segment.text.slice(branch.start, branch.end)).join('') + after;
    // The part's own added forms only: the prompt names them, the answer check wants them.
    const added = segment.pluralBranches?.filter((branch) => text.includes(`<g${branch.pair}>`)) ?? [];
    const { pluralBranches: _whole, ...rest } = segment;
    return Object.assign(rest, { id: `${segment.id}${PART_SEPARATOR}${index}`, text }, added.length > 0 ? { pluralBranches: added } : {});
  });
}

/** The segment a part belongs to (its unique index), and the part's number; the part number is undefined for a whole segment. */
export function partOf(id: string): { readonly segment: number; readonly part: number | undefined } {
  const at = id.indexOf(PART_SEPARATOR);
  if (at < 0) return { segment: Number(id), part: undefined };
  return { segment: Number(id.slice(0, at)), part: Number(id.slice(at + 1)) };
}

/**
 * The whole message from its parts' answers (in part order): the first answer with its
 * branches replaced by every part's branches in canonical order. Undefined when a part's
 * branch cannot be found in its answer (the answers passed the mark check, so it can).
 */
export function joinParts(
  segment: EngineSegment,
  parts: readonly EngineSegment[],
  answers: readonly string[],
  branchPairs: ReadonlySet<number>,
): string | undefined {
  const message = largestMessage(segment.text, branchPairs);
  if (message === undefined) return undefined;
  const pieces: string[] = [];
  let frame: { before: string; after: string } | undefined;
  for (let index = 0; index < parts.length; index++) {
    const answer = answers[index]!;
    const own = message.filter((branch) => parts[index]!.text.includes(`<g${branch.pair}>`));
    let first = Infinity;
    let last = -1;
    for (const { pair } of own) {
      const start = answer.indexOf(`<g${pair}>`);
      const close = `</g${pair}>`;
      const end = answer.indexOf(close, start);
      if (start < 0 || end < 0) return undefined;
      pieces.push(answer.slice(start, end + close.length));
      first = Math.min(first, start);
      last = Math.max(last, end + close.length);
    }
    // The words around the message are the first part's; the others translated them alike.
    if (index === 0) frame = { before: answer.slice(0, first), after: answer.slice(last) };
  }
  return frame && frame.before + pieces.join('') + frame.after;
}

/** `[from, to)` index ranges: `count` contiguous shares of `sizes` whose largest sum is as small as can be. */
export function evenShares(sizes: readonly number[], count: number): [number, number][] {
  const n = sizes.length;
  const prefix = [0];
  for (const size of sizes) prefix.push(prefix[prefix.length - 1]! + size);
  // best[k][i]: the smallest largest share for the first i branches in k shares; cut[k][i] where the last share starts.
  const best = Array.from({ length: count + 1 }, () => new Array<number>(n + 1).fill(Infinity));
  const cut = Array.from({ length: count + 1 }, () => new Array<number>(n + 1).fill(0));
  best[0]![0] = 0;
  for (let k = 1; k <= count; k++) {
    for (let i = k; i <= n; i++) {
      for (let j = k - 1; j < i; j++) {
        const largest = Math.max(best[k - 1]![j]!, prefix[i]! - prefix[j]!);
        if (largest < best[k]![i]!) {
          best[k]![i] = largest;
          cut[k]![i] = j;
        }
      }
    }
  }
  const shares: [number, number][] = [];
  for (let k = count, i = n; k > 0; k--) {
    const j = cut[k]![i]!;
    shares.unshift([j, i]);
    i = j;
  }
  return shares;
}
