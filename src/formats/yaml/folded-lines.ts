/**
 * A flow scalar written over several lines (plain, single quoted, or double quoted
 * without escapes), as a text to translate and back. Each line break, with the blank
 * lines and indentation around it, becomes a mark that translation keeps; writing puts
 * each mark back as the run it stood for, so the layout stays. A plain scalar whose
 * translation plain style cannot hold is written double quoted on one line, its line
 * breaks folded as YAML folds them (one break a space, each blank line a line feed).
 */
import { isPlainSafe, writeFlowScalar } from './scalars.js';
import type { ScalarStyle } from './scalars.js';

/** Stands for a line break of a multi-line flow scalar in its translatable text. */
export const LINE_BREAK_MARK = '\ue000';
const LINE_BREAK_MARKS = /\ue000/g;
const BREAK_RUN = /[ \t]*(?:\r?\n[ \t]*)+/g;

export interface FoldedLines {
  /** The scalar's text, its line breaks marks (`''` read as `'` in single quotes). */
  readonly text: string;
  /** Where the marks are in `text`: spans translation keeps as they are. */
  readonly spans: readonly (readonly [number, number])[];
  /**
   * A translation written in the scalar's place: for a quoted scalar, the bytes between its
   * quotes; for a plain one, the scalar (double quoted when plain style cannot hold it).
   */
  write(translation: string, inFlow: boolean): string;
  /** A translation as the value YAML reads from the scalar (its marks folded). */
  unfold(translation: string): string;
}

/**
 * `raw`: the scalar's bytes between its quotes (all of it when plain). Whether the style
 * suits (a double-quoted scalar with escapes does not) is the caller's to check.
 */
export function foldedLines(raw: string, style: ScalarStyle): FoldedLines {
  const breaks: string[] = [];
  const folds: string[] = [];
  let text = raw.replace(BREAK_RUN, (run) => {
    breaks.push(run);
    const newlines = run.split('\n').length - 1;
    folds.push(newlines === 1 ? ' ' : '\n'.repeat(newlines - 1));
    return LINE_BREAK_MARK;
  });
  if (style === 'QUOTE_SINGLE') text = text.replaceAll("''", "'");
  const spans: [number, number][] = [];
  for (let at = text.indexOf(LINE_BREAK_MARK); at !== -1; at = text.indexOf(LINE_BREAK_MARK, at + 1)) spans.push([at, at + 1]);
  // A translation may hold more marks than the source had breaks (a form worded from
  // another form's text): the extra ones are single breaks, a space once folded.
  const withBreaks = (translation: string): string => {
    let b = 0;
    return translation.replace(LINE_BREAK_MARKS, () => breaks[b++] ?? ' ');
  };
  const unfold = (translation: string): string => {
    let f = 0;
    return translation.replace(LINE_BREAK_MARKS, () => folds[f++] ?? ' ');
  };
  return {
    text,
    spans,
    unfold,
    write(translation, inFlow) {
      if (translation === text) return raw;
      if (style === 'QUOTE_SINGLE') return withBreaks(translation.replaceAll("'", "''"));
      if (style === 'QUOTE_DOUBLE') return withBreaks(translation.replace(/["\\]/g, (c) => `\\${c}`));
      // The lines as written: a mark past the source's breaks joins its neighbours.
      const lines: string[] = [];
      translation.split(LINE_BREAK_MARK).forEach((part, i) => {
        if (i === 0 || i > breaks.length) lines.push(i === 0 ? part : `${lines.pop()!} ${part}`);
        else lines.push(part);
      });
      const plain = lines.every((line, i) => (line === '' ? i > 0 && i < lines.length - 1 : isPlainSafe(line.replace(/^[ \t]+|[ \t]+$/g, ''), inFlow, i > 0)));
      return plain ? withBreaks(translation) : writeFlowScalar(unfold(translation), 'QUOTE_DOUBLE', inFlow);
    },
  };
}
