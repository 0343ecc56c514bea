/**
 * Validation of the translate, batch and job bodies, field by field in the order of
 * docs/contract.md §3.6 (content, items, targets shape, targets codes, source, format, model;
 * then this service's own fields, memory, glossary_id, formality and context) so the first failure is the one answered, each with its own error code. JSON Schema
 * cannot express that order or those codes, hence plain code (docs/decisions/0001).
 */
import type { PublicModel } from '../../engines/registry.js';
import { invalidRequest, ServiceError } from '../../errors.js';
import { FORMATS, isFormat, type Format } from '../../formats/format.js';
import { findLanguage, type Language } from '../../languages.js';
import {
  FORMALITY_VALUES,
  isFormalityValue,
  instructionsOf,
  parseContext,
  resolveFormality,
  type FormalityValue,
  type TranslationInstructions,
} from '../../translation/instructions.js';
import type { BatchInput, BatchItemInput, TranslateInput } from '../../translation/requests.js';
import type { RequestedTarget } from '../../translation/translate-options.js';
import { quote } from '../quote.js';

export const MAX_TARGETS = 36;
export const MAX_BATCH_ITEMS = 100;

/** BCP-47 shape: a 2–8 letter language subtag and optional 1–8 character subtags. */
const LANGUAGE_TAG = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;

type Body = Record<string, unknown>;

export function parseTranslateBody(body: unknown): TranslateInput {
  const fields = asObject(body);
  const content = parseContent(fields.content, 'content');
  const targets = parseTargets(fields.targets);
  const source = parseSource(fields.source);
  const format = parseFormat(fields.format, 'format');
  const model = parseModel(fields.model);
  const memory = parseMemory(fields.memory);
  const glossaryId = parseGlossaryId(fields.glossary_id);
  const instructions = parseInstructions(fields, targets);
  return {
    content,
    targets,
    model,
    memory,
    ...(format ? { format } : {}),
    ...(source ? { source } : {}),
    ...(glossaryId ? { glossaryId } : {}),
    ...(instructions ? { instructions } : {}),
  };
}

export function parseBatchBody(body: unknown): BatchInput {
  const fields = asObject(body);
  const rawItems = parseItems(fields.items);
  const targets = parseTargets(fields.targets);
  const source = parseSource(fields.source);
  const items: BatchItemInput[] = rawItems.map((item, i) => {
    const format = parseFormat(item.format, `items[${i}].format`);
    return { id: item.id as string, content: item.content as string, ...(format ? { format } : {}) };
  });
  const model = parseModel(fields.model);
  const memory = parseMemory(fields.memory);
  const glossaryId = parseGlossaryId(fields.glossary_id);
  const instructions = parseInstructions(fields, targets);
  return { items, targets, model, memory, ...(source ? { source } : {}), ...(glossaryId ? { glossaryId } : {}), ...(instructions ? { instructions } : {}) };
}

function asObject(body: unknown): Body {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalidRequest('the request body must be a JSON object');
  }
  return body as Body;
}

function parseContent(value: unknown, name: string): string {
  if (value === undefined || value === null) throw invalidRequest(`${name} is required`);
  if (typeof value !== 'string') throw invalidRequest(`${name} must be a string`);
  if (value.length === 0) throw invalidRequest(`${name} must not be empty`);
  return value;
}

function parseItems(value: unknown): Body[] {
  if (value === undefined || value === null) throw invalidRequest('items is required');
  if (!Array.isArray(value)) throw invalidRequest('items must be an array');
  if (value.length === 0) throw invalidRequest('items must have at least 1 element');
  if (value.length > MAX_BATCH_ITEMS) throw invalidRequest(`items may have at most ${MAX_BATCH_ITEMS} elements, got ${value.length}`);
  const seen = new Set<string>();
  return value.map((item: unknown, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) throw invalidRequest(`items[${i}] must be an object`);
    const { id } = item as Body;
    if (typeof id !== 'string' || id.length === 0) throw invalidRequest(`items[${i}].id must be a non-empty string`);
    if (seen.has(id)) throw invalidRequest(`items[${i}].id ${quote(id)} is used by another item; ids must be unique`);
    seen.add(id);
    parseContent((item as Body).content, `items[${i}].content`);
    return item as Body;
  });
}

function parseTargets(value: unknown): RequestedTarget[] {
  if (value === undefined || value === null) throw invalidRequest('targets is required');
  if (!Array.isArray(value)) throw invalidRequest('targets must be an array of language codes');
  if (value.length === 0) throw invalidRequest('targets must have at least one language code');
  if (value.length > MAX_TARGETS) throw invalidRequest(`targets may have at most ${MAX_TARGETS} codes, got ${value.length}`);
  const seen = new Set<string>();
  for (const [i, code] of value.entries()) {
    if (typeof code !== 'string') throw invalidRequest(`targets[${i}] must be a string`);
    if (!LANGUAGE_TAG.test(code)) throw invalidRequest(`targets[${i}] ${quote(code)} is not a language code`);
    const key = code.toLowerCase();
    if (seen.has(key)) throw invalidRequest(`targets has ${quote(code)} more than once`);
    seen.add(key);
  }
  return (value as string[]).map((code) => {
    const language = findLanguage(code);
    if (!language) throw new ServiceError('invalid_language', `${quote(code)} is not a supported language; see GET /v1/languages`);
    return { requested: code, language };
  });
}

function parseSource(value: unknown): Language | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !LANGUAGE_TAG.test(value)) throw invalidRequest('source must be a language code');
  const language = findLanguage(value);
  if (!language) throw new ServiceError('invalid_language', `source ${quote(value)} is not a supported language; see GET /v1/languages`);
  return language;
}

function parseFormat(value: unknown, name: string): Format | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isFormat(value)) {
    throw new ServiceError('invalid_format', `${name} must be one of ${FORMATS.join(', ')}, or omitted to detect it`);
  }
  return value;
}

function parseModel(value: unknown): PublicModel {
  if (value === undefined || value === null) return 'standard';
  if (value !== 'standard' && value !== 'advanced') throw invalidRequest('model must be "standard" or "advanced"');
  return value;
}

/** Translation memory is on unless the request says `"memory": false`. */
function parseMemory(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'boolean') throw invalidRequest('memory must be true or false');
  return value;
}

/** Any non-empty string of sane length: an id that names no glossary of the caller's is 404 later. */
function parseGlossaryId(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > 100) throw invalidRequest('glossary_id must be a glossary id (a string)');
  return value;
}

/** `formality` (DeepL's values; `more`/`less` need every target to have formal address) and `context`. */
function parseInstructions(fields: Body, targets: readonly RequestedTarget[]): TranslationInstructions | undefined {
  const value = fields.formality;
  if (value !== undefined && value !== null && (typeof value !== 'string' || !isFormalityValue(value))) {
    throw invalidRequest(`formality must be one of ${FORMALITY_VALUES.join(', ')}`);
  }
  const formality = resolveFormality((value ?? undefined) as FormalityValue | undefined, targets.map((t) => t.language), 'formality');
  const context = parseContext(fields.context, 'context');
  return instructionsOf(formality, context);
}
