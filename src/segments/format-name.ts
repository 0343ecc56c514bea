/**
 * The names of the document formats: the one list (the HTTP schemas, the detection, the
 * adapters' registry in formats/index.ts and the localize commands all read it).
 * Engines are told which format their segments come from (the prompt names it) without
 * knowing anything of its syntax, so the names live here, beside the segment contract,
 * and formats/format.ts re-exports them. Adding a format is a name here, its room in
 * formats/ and its line in formats/index.ts (whose table the compiler checks against
 * this list).
 */
export const FORMATS = ['plain', 'markdown', 'json', 'html', 'po', 'properties', 'yaml', 'xliff', 'android', 'arb', 'strings', 'stringsdict', 'xcstrings'] as const;
export type Format = (typeof FORMATS)[number];

/** The locale file formats (docs/contract.md §6): their answer is the whole target-language file. */
export const LOCALE_FORMATS: readonly Format[] = ['po', 'properties', 'yaml', 'xliff', 'android', 'arb', 'strings', 'stringsdict', 'xcstrings'];

export function isFormat(value: unknown): value is Format {
  return typeof value === 'string' && (FORMATS as readonly string[]).includes(value);
}
