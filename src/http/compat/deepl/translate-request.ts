/**
 * POST /deepl/v2/translate's body, form-encoded or JSON, into a batch of this service's.
 * Field names and values are DeepL's (https://developers.deepl.com/api-reference/translate);
 * every refusal names the parameter, as DeepL's 400s do. Options that steer DeepL's own
 * sentence splitter (`split_sentences`, `preserve_formatting`, `outline_detection`,
 * `splitting_tags`, `non_splitting_tags`) are checked where they have a closed set of
 * values and otherwise have nothing to steer: the model sees whole segments.
 */
import type { PublicModel } from '../../../engines/registry.js';
import { invalidRequest } from '../../../errors.js';
import type { Format } from '../../../formats/format.js';
import type { Language } from '../../../languages.js';
import { FORMALITY_VALUES, instructionsOf, parseContext, resolveFormality, type FormalityValue, type TranslationInstructions } from '../../../translation/instructions.js';
import { quote } from '../../quote.js';
import type { FormOrJson } from '../form-body.js';
import { parseIgnoreTags } from './ignore-tags.js';
import { sourceFromDeepl, targetFromDeepl } from './language-codes.js';

/** DeepL's own limit of texts per request. */
export const MAX_TEXTS = 50;

export type ModelType = 'quality_optimized' | 'prefer_quality_optimized' | 'latency_optimized';
const MODEL_TYPES: readonly string[] = ['quality_optimized', 'prefer_quality_optimized', 'latency_optimized'];
const SPLIT_SENTENCES: readonly string[] = ['0', '1', 'nonewlines'];

export interface DeeplTranslateRequest {
  readonly texts: readonly string[];
  readonly target: { readonly requested: string; readonly language: Language };
  readonly source?: Language;
  readonly format: Format;
  readonly ignoreTags: readonly string[];
  readonly instructions?: TranslationInstructions;
  readonly glossaryId?: string;
  readonly modelType?: ModelType;
  readonly showBilledCharacters: boolean;
}

export function parseDeeplTranslate(fields: FormOrJson | undefined): DeeplTranslateRequest {
  if (!fields) throw invalidRequest('the body must be form-encoded or a JSON object with "text" and "target_lang"');
  const texts = parseTexts(fields.text);
  const targetCode = single(fields, 'target_lang');
  if (targetCode === undefined) throw invalidRequest('Parameter "target_lang" is required');
  const target = targetFromDeepl(targetCode);
  if (!target) throw invalidRequest(`Value for "target_lang" not supported: ${quote(targetCode)}`);
  const sourceCode = single(fields, 'source_lang');
  const source = sourceCode === undefined || sourceCode === '' ? undefined : sourceFromDeepl(sourceCode);
  if (sourceCode && !source) throw invalidRequest(`Value for "source_lang" not supported: ${quote(sourceCode)}`);
  const glossaryId = single(fields, 'glossary_id') || undefined;
  // DeepL's rule (its clients check it too): a glossary is for one source, so name it.
  if (glossaryId !== undefined && !source) throw invalidRequest('Parameter "source_lang" is required when "glossary_id" is given');
  if (glossaryId !== undefined && glossaryId.length > 100) throw invalidRequest('Parameter "glossary_id" is not a glossary id');
  const format = parseTagHandling(single(fields, 'tag_handling'));
  const formality = resolveFormality(oneOf(fields, 'formality', FORMALITY_VALUES) as FormalityValue | undefined, [target], 'Value for "formality"');
  const modelType = oneOf(fields, 'model_type', MODEL_TYPES) as ModelType | undefined;
  oneOf(fields, 'split_sentences', SPLIT_SENTENCES);
  flag(fields, 'preserve_formatting');
  flag(fields, 'outline_detection');
  const instructions = instructionsOf(formality, parseContext(single(fields, 'context'), 'Parameter "context"'));
  return {
    texts,
    target: { requested: targetCode, language: target },
    format,
    ignoreTags: parseIgnoreTags(fields.ignore_tags),
    showBilledCharacters: flag(fields, 'show_billed_characters') ?? false,
    ...(source ? { source } : {}),
    ...(instructions ? { instructions } : {}),
    ...(glossaryId ? { glossaryId } : {}),
    ...(modelType ? { modelType } : {}),
  };
}

/** The public model a `model_type` asks for; `prefer_quality_optimized` falls back to standard where advanced is not allowed. */
export function modelFor(modelType: ModelType | undefined, advancedAllowed: boolean): PublicModel {
  if (modelType === 'quality_optimized') return 'advanced';
  if (modelType === 'prefer_quality_optimized' && advancedAllowed) return 'advanced';
  return 'standard';
}

function parseTexts(value: unknown): string[] {
  if (value === undefined || value === null) throw invalidRequest('Parameter "text" is required');
  const texts = Array.isArray(value) ? value : [value];
  if (texts.length === 0) throw invalidRequest('Parameter "text" must hold at least one text');
  if (texts.length > MAX_TEXTS) throw invalidRequest(`Parameter "text" may hold at most ${MAX_TEXTS} texts, got ${texts.length}`);
  return texts.map((text: unknown, i) => {
    if (typeof text !== 'string') throw invalidRequest(`Parameter "text" must be a string or an array of strings (text[${i}] is not)`);
    if (text.length === 0) throw invalidRequest(`Parameter "text" must not hold an empty text (text[${i}] is empty)`);
    return text;
  });
}

function parseTagHandling(value: string | undefined): Format {
  if (value === undefined || value === '') return 'plain';
  // xml keeps tags and translates the text between them, which is what the html format does.
  if (value === 'html' || value === 'xml') return 'html';
  throw invalidRequest(`Value for "tag_handling" not supported: ${quote(value)}; use "html" or "xml"`);
}

/** A field that takes one value: a string (numbers and booleans of a JSON body are read as text). */
function single(fields: FormOrJson, name: string): string | undefined {
  const value = fields[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw invalidRequest(`Parameter "${name}" must be a single value`);
}

function oneOf(fields: FormOrJson, name: string, allowed: readonly string[]): string | undefined {
  const value = single(fields, name);
  if (value === undefined || value === '') return undefined;
  const lower = value.toLowerCase();
  if (!allowed.includes(lower)) throw invalidRequest(`Value for "${name}" not supported: ${quote(value)}; use one of ${allowed.join(', ')}`);
  return lower;
}

function flag(fields: FormOrJson, name: string): boolean | undefined {
  const value = single(fields, name);
  if (value === undefined || value === '') return undefined;
  if (value === '1' || value === 'true') return true;
  if (value === '0' || value === 'false') return false;
  throw invalidRequest(`Value for "${name}" not supported: ${quote(value)}; use 0 or 1`);
}
