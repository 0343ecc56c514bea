/** A placeholder scan as a list of spans, with a scanner of its own (adapters mask through their document's). */
import { ATOM, CLOSE, OPEN } from '../../src/formats/core/document.js';
import { PlaceholderScanner, SpanList, type PlaceholderOptions } from '../../src/formats/core/placeholders.js';

export interface Span {
  readonly start: number;
  readonly end: number;
  readonly type: 'atom' | 'open' | 'close';
  /** Pair id for open/close spans (unique across the process). */
  readonly pair?: number;
}

const TYPE_NAMES = { [ATOM]: 'atom', [OPEN]: 'open', [CLOSE]: 'close' } as const;

/** The spans of `text`, in order. */
export function findPlaceholders(text: string, options: PlaceholderOptions = {}): Span[] {
  const list = new SpanList();
  new PlaceholderScanner(options).scan(text, list);
  const spans: Span[] = [];
  const data = list.data;
  for (let k = 0; k < list.length; k += 4) {
    const type = TYPE_NAMES[data[k + 2]! as keyof typeof TYPE_NAMES];
    spans.push(type === 'atom' ? { start: data[k]!, end: data[k + 1]!, type } : { start: data[k]!, end: data[k + 1]!, type, pair: data[k + 3]! });
  }
  return spans;
}

/** `PlaceholderScanner.scanRange` with a scanner of its own. */
export function scanRange(text: string, from: number, to: number, options: PlaceholderOptions, list: SpanList): boolean {
  return new PlaceholderScanner(options).scanRange(text, from, to, list);
}
