/**
 * The names of the document formats. Engines are told which format their segments come
 * from (the prompt names it) without knowing anything of its syntax, so the names live
 * here, beside the segment contract, and formats/format.ts re-exports them.
 */
export const FORMATS = ['plain', 'markdown', 'json', 'html'] as const;
export type Format = (typeof FORMATS)[number];

export function isFormat(value: unknown): value is Format {
  return typeof value === 'string' && (FORMATS as readonly string[]).includes(value);
}
