/** Shared helpers for the format tests: renders, the pseudo inverse, fixture loading. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pseudoTranslate } from '../../src/engines/pseudo.js';
import type { ExtractedDocument, Format, RenderTarget } from '../../src/formats/format.js';

export const LTR: RenderTarget = { code: 'fr', rtl: false };
export const RTL: RenderTarget = { code: 'ar', rtl: true };

export function identityRender(doc: ExtractedDocument, target: RenderTarget = LTR): string {
  return doc.render(new Map(doc.segments.map((s) => [s.id, s.text])), target);
}

export function pseudoRender(doc: ExtractedDocument, target: RenderTarget = LTR): string {
  return doc.render(new Map(doc.segments.map((s) => [s.id, pseudoTranslate(s.text, target.rtl)])), target);
}

/** The pseudo engine's inverse (docs/contract.md §2): NFD minus combining marks, RTL marks dropped. */
export function unpseudo(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f\u202b\u202c]/g, '');
}

export const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'formats');

export function fixtures(format: Format): { name: string; content: string }[] {
  const dir = join(FIXTURES, format === 'plain' ? 'plain' : format);
  return readdirSync(dir)
    .sort()
    .map((name) => ({ name, content: readFileSync(join(dir, name), 'utf8') }));
}
