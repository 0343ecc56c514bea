/**
 * ICU messages judged by a real parser (@formatjs/icu-messageformat-parser), not ours:
 * a text parses, and each plural or selectordinal in it (at any depth) has its branch
 * keys listed, in source order.
 */
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

export interface ParsedPlural {
  readonly argument: string;
  readonly type: 'cardinal' | 'ordinal';
  readonly offset: number;
  /** Branch keys in source order: `=0`, `one`, … */
  readonly keys: readonly string[];
}

/** Every plural message of `text`, outer before inner; throws when the text is not valid ICU. */
export function icuPlurals(text: string): ParsedPlural[] {
  const found: ParsedPlural[] = [];
  const visit = (elements: readonly MessageFormatElement[]): void => {
    for (const element of elements) {
      if (element.type === TYPE.plural) {
        found.push({ argument: element.value, type: element.pluralType ?? 'cardinal', offset: element.offset, keys: Object.keys(element.options) });
        for (const option of Object.values(element.options)) visit(option.value);
      } else if (element.type === TYPE.select) {
        for (const option of Object.values(element.options)) visit(option.value);
      } else if (element.type === TYPE.tag) visit(element.children);
    }
  };
  visit(parse(text, { ignoreTag: true }));
  return found;
}
