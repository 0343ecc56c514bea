/**
 * DeepL's v2 glossaries over this service's own (docs/decisions/0033). A DeepL glossary
 * is one source → target pair; ours has one source and entries with translations into
 * any number of targets. So a glossary of ours is a DeepL glossary when its entries
 * translate into exactly one language: that language is its `target_lang`, and its
 * do-not-translate terms are entries that translate to themselves (which is what they
 * do). A glossary with entries for several targets is not one DeepL can describe: the
 * DeepL API lists it nowhere and answers 404 for its id (it stays fully usable on /v1).
 * Creating through DeepL makes a glossary of ours with entries for the one target.
 */
import { invalidRequest, ServiceError } from '../../../errors.js';
import type { Glossary } from '../../../glossaries/glossary.js';
import { findLanguage, LANGUAGES, type Language } from '../../../languages.js';
import { quote } from '../../quote.js';
import type { FormOrJson } from '../form-body.js';
import { parseEntriesText, type EntriesFormat } from './glossary-entries.js';
import { sourceFromDeepl, targetFromDeepl } from './language-codes.js';

export interface DeeplGlossaryPair {
  readonly source: Language;
  readonly target: Language;
  /** Source term → target term, do-not-translate terms included (as themselves). */
  readonly entries: ReadonlyArray<{ readonly source: string; readonly target: string }>;
}

/** The pair a glossary of ours is through DeepL's API, or undefined when it is not one. */
export function asDeeplPair(glossary: Glossary): DeeplGlossaryPair | undefined {
  const targets = new Set(glossary.entries.flatMap((entry) => Object.keys(entry.translations)));
  if (targets.size !== 1) return undefined;
  const [targetCode] = targets;
  const source = findLanguage(glossary.source);
  const target = findLanguage(targetCode!);
  if (!source || !target) return undefined;
  const terms = new Set(glossary.entries.map((entry) => entry.term.toLocaleLowerCase()));
  return {
    source,
    target,
    entries: [
      ...glossary.entries.map((entry) => ({ source: entry.term, target: entry.translations[target.code]! })),
      ...glossary.doNotTranslate.filter((term) => !terms.has(term.toLocaleLowerCase())).map((term) => ({ source: term, target: term })),
    ],
  };
}

/** DeepL's glossary object. Ours are usable as soon as they are stored: always `ready`. */
export function glossaryInfo(glossary: Glossary, pair: DeeplGlossaryPair) {
  return {
    glossary_id: glossary.id,
    name: glossary.name,
    ready: true,
    source_lang: pair.source.code.toLowerCase(),
    target_lang: pair.target.code.toLowerCase(),
    creation_time: new Date(glossary.createdAt).toISOString(),
    entry_count: pair.entries.length,
  };
}

/** The DeepL pair of a glossary, or DeepL's 404 when it has none (several targets). */
export function requirePair(glossary: Glossary): DeeplGlossaryPair {
  const pair = asDeeplPair(glossary);
  if (!pair) throw new ServiceError('not_found', 'Glossary not found (it has entries for several target languages; use /v1/glossaries for it)');
  return pair;
}

/** POST /glossaries' fields as the body our glossary service takes (it validates terms and limits). */
export function createBodyFromDeepl(fields: FormOrJson | undefined): { body: Record<string, unknown>; lines: number[] } {
  if (!fields) throw invalidRequest('the body must be form-encoded or a JSON object with "name", "source_lang", "target_lang" and "entries"');
  const name = text(fields, 'name');
  const sourceCode = text(fields, 'source_lang');
  const targetCode = text(fields, 'target_lang');
  const source = sourceFromDeepl(sourceCode);
  if (!source) throw invalidRequest(`Value for "source_lang" not supported: ${quote(sourceCode)}`);
  const target = targetFromDeepl(targetCode);
  if (!target) throw invalidRequest(`Value for "target_lang" not supported: ${quote(targetCode)}`);
  if (target.code.split('-')[0] === source.code) throw invalidRequest('Parameters "source_lang" and "target_lang" must name different languages');
  const format = fields.entries_format === undefined || fields.entries_format === '' ? 'tsv' : text(fields, 'entries_format').toLowerCase();
  if (format !== 'tsv' && format !== 'csv') throw invalidRequest(`Value for "entries_format" not supported: ${quote(format)}; use tsv or csv`);
  const entries = parseEntriesText(text(fields, 'entries'), format as EntriesFormat, { source: source.code, target: target.code });
  return {
    body: { name, source: source.code, entries: entries.map((entry) => ({ term: entry.source, translations: { [target.code]: entry.target } })) },
    lines: entries.map((entry) => entry.line),
  };
}

/** The validator names `entries[i]`; a DeepL client sent lines of text, so name the line. */
export function withLineNumbers(error: unknown, lines: readonly number[]): unknown {
  if (!(error instanceof ServiceError)) return error;
  const message = error.message.replace(/^entries\[(\d+)\]\.(term|translations\.[^ ]+)/, (_, i: string, part: string) =>
    `${part === 'term' ? 'Source term' : 'Target term'} on line ${lines[Number(i)] ?? Number(i) + 1}`,
  );
  return message === error.message ? error : new ServiceError(error.code, message);
}

/** GET /glossary-language-pairs: every pair of different base languages. */
export const GLOSSARY_LANGUAGE_PAIRS = LANGUAGES.filter((l) => !l.code.includes('-')).flatMap((source) =>
  LANGUAGES.filter((target) => !target.code.includes('-') && target.code !== source.code).map((target) => ({
    source_lang: source.code,
    target_lang: target.code,
  })),
);

function text(fields: FormOrJson, name: string): string {
  const value = fields[name];
  if (value === undefined || value === null || value === '') throw invalidRequest(`Parameter "${name}" is required`);
  if (typeof value !== 'string') throw invalidRequest(`Parameter "${name}" must be a single string`);
  return value;
}

/** DeepL refuses a glossary whose pair is not the request's; a base target serves its regions. */
export function assertPairFits(pair: DeeplGlossaryPair, source: Language, target: Language): void {
  const fits = pair.source.code === source.code && (pair.target.code === target.code || pair.target.code === target.code.split('-')[0]);
  if (!fits) {
    throw invalidRequest(
      `The glossary's languages (${pair.source.code} → ${pair.target.code}) do not match "source_lang" and "target_lang" (${source.code} → ${target.code})`,
    );
  }
}
