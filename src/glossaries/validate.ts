/**
 * Validation of a glossary body (POST and PUT), field by field so the first problem is
 * the one answered, with the limits of GLOSSARY_LIMITS. Language codes must be codes of
 * GET /v1/languages and are stored canonical.
 */
import { invalidRequest, ServiceError } from '../errors.js';
import { findLanguage } from '../languages.js';
import { GLOSSARY_LIMITS, type GlossaryInput } from './glossary.js';

type Body = Record<string, unknown>;

/** Line breaks and other control characters: a term is a run of words on one line. */
const CONTROL = /[\u0000-\u001f\u007f\u2028\u2029]/;
/** Segment-mark syntax (`<x1/>`, `<g2>`): a term holding it could be confused with the marks protecting it. */
const MARK_LIKE = /<\/?[gx]\d+\/?>/;

export function parseGlossaryBody(body: unknown): GlossaryInput {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalidRequest('the request body must be a JSON object');
  const fields = body as Body;
  const name = parseName(fields.name);
  const source = parseLanguage(fields.source, 'source');
  const entries = parseEntries(fields.entries);
  const doNotTranslate = parseDoNotTranslate(fields.do_not_translate);
  if (entries.length === 0 && doNotTranslate.length === 0) {
    throw invalidRequest('a glossary needs at least one entry or do_not_translate term');
  }
  return { name, source, entries, doNotTranslate };
}

function parseName(value: unknown): string {
  if (typeof value !== 'string') throw invalidRequest('name is required and must be a string');
  const name = value.trim();
  if (name.length === 0) throw invalidRequest('name must not be empty');
  if (name.length > GLOSSARY_LIMITS.nameChars) throw invalidRequest(`name may have at most ${GLOSSARY_LIMITS.nameChars} characters`);
  if (CONTROL.test(name)) throw invalidRequest('name must not contain line breaks or control characters');
  return name;
}

function parseLanguage(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length === 0) throw invalidRequest(`${name} is required and must be a language code`);
  const language = findLanguage(value);
  if (!language) throw new ServiceError('invalid_language', `${name} "${value.slice(0, 20)}" is not a supported language; see GET /v1/languages`);
  return language.code;
}

function parseTerm(value: unknown, name: string): string {
  if (typeof value !== 'string') throw invalidRequest(`${name} must be a string`);
  if (value.trim().length === 0) throw invalidRequest(`${name} must not be empty`);
  if (value.length > GLOSSARY_LIMITS.termChars) throw invalidRequest(`${name} may have at most ${GLOSSARY_LIMITS.termChars} characters`);
  if (value !== value.trim()) throw invalidRequest(`${name} must not start or end with white space`);
  if (CONTROL.test(value)) throw invalidRequest(`${name} must not contain line breaks or control characters`);
  if (MARK_LIKE.test(value)) throw invalidRequest(`${name} must not contain tag-like text such as <x1/> or <g1>`);
  return value;
}

function parseEntries(value: unknown): GlossaryInput['entries'] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidRequest('entries must be an array');
  if (value.length > GLOSSARY_LIMITS.entries) throw invalidRequest(`entries may have at most ${GLOSSARY_LIMITS.entries} elements, got ${value.length}`);
  const seen = new Set<string>();
  return value.map((entry: unknown, i) => {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw invalidRequest(`entries[${i}] must be an object`);
    const term = parseTerm((entry as Body).term, `entries[${i}].term`);
    const folded = term.toLocaleLowerCase();
    // Terms match ignoring case, so two spellings of one term would contradict each other.
    if (seen.has(folded)) throw invalidRequest(`entries[${i}].term "${term}" is given twice (terms match ignoring case)`);
    seen.add(folded);
    const raw = (entry as Body).translations;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      throw invalidRequest(`entries[${i}].translations must be an object of language code → translation`);
    }
    const translations: Record<string, string> = {};
    for (const [code, text] of Object.entries(raw as Body)) {
      const target = parseLanguage(code, `entries[${i}].translations key`);
      if (target in translations) throw invalidRequest(`entries[${i}].translations has ${target} more than once`);
      translations[target] = parseTerm(text, `entries[${i}].translations.${code}`);
    }
    if (Object.keys(translations).length === 0) throw invalidRequest(`entries[${i}].translations must name at least one language`);
    return { term, translations };
  });
}

function parseDoNotTranslate(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidRequest('do_not_translate must be an array of strings');
  if (value.length > GLOSSARY_LIMITS.doNotTranslate) {
    throw invalidRequest(`do_not_translate may have at most ${GLOSSARY_LIMITS.doNotTranslate} terms, got ${value.length}`);
  }
  return [...new Set(value.map((term: unknown, i) => parseTerm(term, `do_not_translate[${i}]`)))];
}
