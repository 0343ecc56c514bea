/**
 * LibreTranslate's POST /translate and /detect bodies (JSON or form) into this service's
 * inputs, with LibreTranslate's own rules: `q` is a string or (JSON only) an array of
 * strings; a form body takes the first `q` when it is repeated, as LibreTranslate's server
 * does; `source` is required (`auto` to detect); `format` is `text` (default) or `html`.
 * Messages follow LibreTranslate's ("Invalid request: missing q parameter").
 */
import { invalidRequest, ServiceError } from '../../../errors.js';
import type { Format } from '../../../formats/format.js';
import type { Language } from '../../../languages.js';
import { quote } from '../../quote.js';
import type { FormOrJson } from '../form-body.js';
import { fromLibreCode } from './language-codes.js';

/** As many texts as /v1's batch takes in one request. */
export const MAX_TEXTS = 100;

export interface LibreTranslateRequest {
  readonly texts: readonly string[];
  /** `q` was an array: the answer is one too. */
  readonly batch: boolean;
  /** Absent for `auto`. */
  readonly source?: Language;
  readonly target: { readonly requested: string; readonly language: Language };
  readonly format: Format;
  readonly alternatives: number;
}

export function parseLibreTranslate(fields: FormOrJson | undefined, isForm: boolean): LibreTranslateRequest {
  const { texts, batch } = parseQ(fields, isForm);
  const sourceCode = text(fields, 'source', isForm);
  if (!sourceCode) throw missing('source');
  const targetCode = text(fields, 'target', isForm);
  if (!targetCode) throw missing('target');
  const source = sourceCode.toLowerCase() === 'auto' ? undefined : fromLibreCode(sourceCode);
  if (sourceCode.toLowerCase() !== 'auto' && !source) throw notSupported(sourceCode);
  const target = fromLibreCode(targetCode);
  if (!target) throw notSupported(targetCode);
  return {
    texts,
    batch,
    target: { requested: target.code, language: target },
    format: parseFormat(text(fields, 'format', isForm)),
    alternatives: parseAlternatives(fields?.alternatives, isForm),
    ...(source ? { source } : {}),
  };
}

export function parseDetect(fields: FormOrJson | undefined, isForm: boolean): string[] {
  return parseQ(fields, isForm).texts as string[];
}

function parseQ(fields: FormOrJson | undefined, isForm: boolean): { texts: string[]; batch: boolean } {
  const raw = fields?.q;
  const q = isForm && Array.isArray(raw) ? raw[0] : raw;
  if (q === undefined || q === null || q === '') throw missing('q');
  if (typeof q === 'string') return { texts: [q], batch: false };
  if (!Array.isArray(q)) throw invalidRequest('Invalid request: q must be a string or an array of strings');
  if (q.length === 0) throw missing('q');
  if (q.length > MAX_TEXTS) throw invalidRequest(`Invalid request: request (${q.length}) exceeds text limit (${MAX_TEXTS})`);
  const texts = q.map((item: unknown, i) => {
    if (typeof item !== 'string') throw invalidRequest(`Invalid request: q[${i}] must be a string`);
    if (item.length === 0) throw invalidRequest(`Invalid request: q[${i}] is empty`);
    return item;
  });
  return { texts, batch: true };
}

/** A single-valued field; a form body's repeated field counts by its first value. */
function text(fields: FormOrJson | undefined, name: string, isForm: boolean): string | undefined {
  const raw = fields?.[name];
  const value = isForm && Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidRequest(`Invalid request: ${name} must be a string`);
  return value;
}

function parseFormat(value: string | undefined): Format {
  if (value === undefined || value === '' || value === 'text') return 'plain';
  if (value === 'html') return 'html';
  throw invalidRequest(`${quote(value)} format is not supported`);
}

function parseAlternatives(raw: unknown, isForm: boolean): number {
  const value = isForm && Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === null || value === '') return 0;
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 0) throw invalidRequest('Invalid request: alternatives parameter is not a number');
  return n;
}

function missing(name: string): ServiceError {
  return invalidRequest(`Invalid request: missing ${name} parameter`);
}

function notSupported(code: string): ServiceError {
  return new ServiceError('invalid_language', `${quote(code)} is not supported`);
}
