/**
 * JSON written the way Xcode writes a String Catalog (read off real catalogs, e.g. the
 * shared corpus): two spaces of indentation, `"key" : value` with a space on each side
 * of the colon, an empty object as `{` blank line `}`, non-ASCII characters and `/`
 * raw, and an object's keys in Finder's order (`localizedStandardCompare`: letters
 * without regard to case, digits by value, punctuation before letters), which ICU's
 * collation with numeric ordering gives (it orders every key of the corpus's catalogs as
 * Xcode did). Opening a catalog written so in Xcode changes nothing.
 */

export type XcodeValue = string | number | boolean | null | readonly XcodeValue[] | { readonly [key: string]: XcodeValue };

const COLLATOR = new Intl.Collator('en', { numeric: true });

export function compareXcodeKeys(a: string, b: string): number {
  return COLLATOR.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** `value` as Xcode writes it when its first line starts at `indent` spaces. */
export function writeXcodeJson(value: XcodeValue, indent: number): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = ' '.repeat(indent + 2);
  const close = ' '.repeat(indent);
  if (Array.isArray(value)) {
    if (value.length === 0) return `[\n\n${close}]`;
    return `[\n${value.map((item: XcodeValue) => inner + writeXcodeJson(item, indent + 2)).join(',\n')}\n${close}]`;
  }
  const object = value as { readonly [key: string]: XcodeValue };
  const keys = Object.keys(object).sort(compareXcodeKeys);
  if (keys.length === 0) return `{\n\n${close}}`;
  return `{\n${keys.map((key) => `${inner}${JSON.stringify(key)} : ${writeXcodeJson(object[key]!, indent + 2)}`).join(',\n')}\n${close}}`;
}
