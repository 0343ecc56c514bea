/**
 * How deep a markdown document's containers (block quotes, list items) can nest, read
 * line by line before any parser runs: micromark, marked and this adapter all recurse
 * once or more per level, and `"- ".repeat(3000) + "x"` overflowed the stack (a 500).
 * The estimate never says less than the real depth, so a document within the limit
 * cannot overflow; it may say more only for a line with over a thousand columns of
 * indentation before a marker.
 */
import type { DocumentLimits } from '../core/limits.js';
import { tooComplex } from '../core/limits.js';
import * as charCodes from '../core/char-codes.js';
// Module-local constants, not imported bindings, for the inner loops (why: core/char-codes.ts).
const { ASTERISK, CARRIAGE_RETURN, DASH, DIGIT_0, DIGIT_9, DOT, GREATER_THAN, LINE_FEED, PLUS, RIGHT_PAREN, SPACE, TAB, UNDERSCORE } = charCodes;

const TAB_STOP = 4;

const isDigit = (c: number) => c >= DIGIT_0 && c <= DIGIT_9;
const isBlank = (c: number) => c === SPACE || c === TAB;

/** What the containers of a document may cost the parsers. */
export interface ContainerLoad {
  /** An upper bound of the container depth at any line. */
  readonly depth: number;
  /**
   * The characters of every line times the containers it may sit in: marked and
   * micromark go over a line once per level (lazy continuation lines included).
   */
  readonly work: number;
  /**
   * The most characters after a marker line that still sit in its containers (lazy or
   * indented continuation of one list item or quote): marked's list items go quadratic
   * in it (512 KiB of lazy lines in one item took 29 s).
   */
  readonly longestRun: number;
}

/**
 * Reads the container load line by line. A line with markers sits at most as deep as
 * its block quote and list markers (each one a level) plus half its indentation before
 * the first (a list item nested by indentation adds at least two columns per level; a
 * block quote cannot be continued by indentation alone). A line without markers opens
 * nothing: it continues at most the containers of the line before (lazily), or after a
 * blank line as many of them as its indentation reaches.
 */
export function containerLoad(text: string): ContainerLoad {
  const line: LineShape = { markers: 0, columns: 0, blank: false };
  let deepest = 0;
  let work = 0;
  let open = 0;
  let afterBlank = false;
  let run = 0;
  let lazy = false;
  let longestRun = 0;
  let lineStart = 0;
  while (lineStart < text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    readLine(text, lineStart, lineEnd, line);
    if (line.blank) {
      afterBlank = true;
      lazy = false;
      run = 0;
    }
    else {
      const indented = Math.floor(line.columns / 2);
      if (line.markers > 0) {
        open = line.markers + indented;
        // A marker line ends one item's run, but not a stretch holding lazy lines (marked
        // re-reads a block quote's lazy lines for each line after them).
        if (!lazy) run = 0;
      } else if (afterBlank) {
        open = Math.min(open, indented);
        lazy = false;
      } else if (open > 0 && indented < open) lazy = true;
      if (open > 0) {
        run += lineEnd - lineStart + 1;
        if (run > longestRun) longestRun = run;
      }
      afterBlank = false;
      if (open > deepest) deepest = open;
      work += open * (lineEnd - lineStart + 1);
    }
    lineStart = lineEnd + 1;
  }
  return { depth: deepest, work, longestRun };
}

interface LineShape {
  markers: number;
  /** Indentation before the first marker (or the text), tabs to stops of four. */
  columns: number;
  blank: boolean;
}

function readLine(text: string, start: number, end: number, shape: LineShape): void {
  let i = start;
  let columns = 0;
  while (i < end && isBlank(text.charCodeAt(i))) {
    columns = text.charCodeAt(i) === TAB ? columns + TAB_STOP - (columns % TAB_STOP) : columns + 1;
    i++;
  }
  shape.columns = columns;
  shape.markers = 0;
  shape.blank = i === end || (i === end - 1 && text.charCodeAt(i) === CARRIAGE_RETURN);
  if (shape.blank) return;
  const breakFrom = thematicBreakFrom(text, start, end);
  let markers = 0;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === GREATER_THAN) {
      markers++;
      i++;
    } else if (c === DASH || c === ASTERISK || c === PLUS) {
      const next = i + 1 < end ? text.charCodeAt(i + 1) : LINE_FEED;
      if (!(isBlank(next) || next === LINE_FEED || next === CARRIAGE_RETURN) || i >= breakFrom) break;
      markers++;
      i++;
    } else if (isDigit(c)) {
      let j = i;
      while (j < end && j - i < 10 && isDigit(text.charCodeAt(j))) j++;
      const delimiter = text.charCodeAt(j);
      const next = j + 1 < end ? text.charCodeAt(j + 1) : LINE_FEED;
      if (j - i > 9 || (delimiter !== DOT && delimiter !== RIGHT_PAREN) || !(isBlank(next) || next === LINE_FEED || next === CARRIAGE_RETURN)) break;
      markers++;
      i = j + 1;
    } else break;
    while (i < end && isBlank(text.charCodeAt(i))) i++;
  }
  shape.markers = markers;
}

/**
 * Where the thematic break that ends the line starts (`* * *`, `- - -`: a break, not
 * nested list items), or `end` when it ends in none: the longest tail of one of `-*_`
 * and blanks holding at least three of that character.
 */
function thematicBreakFrom(text: string, start: number, end: number): number {
  let i = end;
  while (i > start && (isBlank(text.charCodeAt(i - 1)) || text.charCodeAt(i - 1) === CARRIAGE_RETURN)) i--;
  if (i === start) return end;
  const mark = text.charCodeAt(i - 1);
  if (mark !== DASH && mark !== ASTERISK && mark !== UNDERSCORE) return end;
  let count = 0;
  let from = end;
  for (; i > start; i--) {
    const c = text.charCodeAt(i - 1);
    if (c === mark) {
      count++;
      // Three or more marks from here to the end: a break may start here.
      if (count >= 3) from = i - 1;
    } else if (!isBlank(c)) break;
  }
  return from;
}

/**
 * Work (ContainerLoad.work) the parsers may do on containers: an average of 16 levels
 * over a 2 MiB document. Real documents stay far below (the deepest of the real-world
 * bench: see docs/formats.md); `"> ".repeat(500) + "x\n"` then 300 KiB of lazy lines
 * took 18 s.
 */
const MAX_CONTAINER_WORK = 16 * 2 * 1024 * 1024;

/**
 * ContainerLoad.longestRun allowed: marked took ~0.3 s for 64 KiB of alternating quoted
 * and lazy lines, and mdast (which reads lazy quotes) ~1 s for 32 KiB.
 */
const MAX_CONTAINER_RUN = 32 * 1024;

/** Throws document_too_complex when the containers of `text` may nest deeper, or cost more, than allowed. */
export function checkContainers(text: string, limits: DocumentLimits): void {
  const load = containerLoad(text);
  if (load.depth > limits.maxNestingDepth) throw tooComplex('the nesting of block quotes and list items', limits.maxNestingDepth);
  if (load.work > MAX_CONTAINER_WORK) throw tooComplex('the text inside nested block quotes and list items', MAX_CONTAINER_WORK);
  if (load.longestRun > MAX_CONTAINER_RUN) throw tooComplex('the continuation lines of one list item or block quote line', MAX_CONTAINER_RUN);
}
