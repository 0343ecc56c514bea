/**
 * `translate.config.json`: what `sync` localizes. Read once, checked whole, and every
 * problem is reported with the file's name and the field's path, because a CI log is
 * often the only place a user sees it.
 *
 *   {"source": "en", "targets": ["fr", "de"],
 *    "files": ["locales/{locale}.json", {"pattern": "docs/{locale}/**\/*.md", "format": "markdown"}],
 *    "model": "standard", "glossary_id": "…"}
 */
import { readFileSync } from 'node:fs';
import { findLanguage } from '../languages.js';
import { FORMATS, isFormat, type Format } from './api.js';
import { checkPattern } from './patterns.js';

export const CONFIG_FILE = 'translate.config.json';

export interface FileRule {
  /** Relative to the config's folder, with `{locale}` where the language code goes. */
  readonly pattern: string;
  /** When set, sent as the format; otherwise taken from each file's extension (or detected by the API). */
  readonly format?: Format;
}

export interface ProjectConfig {
  readonly source: string;
  readonly targets: readonly string[];
  readonly files: readonly FileRule[];
  readonly model?: string;
  readonly glossaryId?: string;
}

export class ProjectConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProjectConfigError';
  }
}

const KNOWN_FIELDS = new Set(['$schema', 'source', 'targets', 'files', 'model', 'glossary_id']);
const MODELS = ['standard', 'advanced'];

export function readProjectConfig(path: string): ProjectConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new ProjectConfigError(`${path} not found: create it, e.g. {"source": "en", "targets": ["fr"], "files": ["locales/{locale}.json"]}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ProjectConfigError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parseProjectConfig(raw, path);
}

export function parseProjectConfig(raw: unknown, name = CONFIG_FILE): ProjectConfig {
  const fail = (message: string): never => {
    throw new ProjectConfigError(`${name}: ${message}`);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('must be a JSON object');
  const fields = raw as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!KNOWN_FIELDS.has(key)) fail(`unknown field "${key}" (known: ${[...KNOWN_FIELDS].filter((k) => k !== '$schema').join(', ')})`);
  }

  const language = (value: unknown, where: string): string => {
    if (typeof value !== 'string' || findLanguage(value) === undefined) {
      return fail(`${where} must be a language code the service knows (GET /v1/languages), got ${JSON.stringify(value)}`);
    }
    return value;
  };
  const source = language(fields.source, '"source"');

  if (!Array.isArray(fields.targets) || fields.targets.length === 0) fail('"targets" must be a non-empty array of language codes');
  const targets = (fields.targets as unknown[]).map((value, i) => language(value, `"targets"[${i}]`));
  const seen = new Set<string>();
  for (const target of targets) {
    const folded = target.toLowerCase();
    if (folded === source.toLowerCase()) fail(`"targets" includes the source language "${target}"`);
    if (seen.has(folded)) fail(`"targets" names "${target}" twice`);
    seen.add(folded);
  }

  if (!Array.isArray(fields.files) || fields.files.length === 0) fail('"files" must be a non-empty array of patterns such as "locales/{locale}.json"');
  const files = (fields.files as unknown[]).map((entry, i): FileRule => {
    const where = `"files"[${i}]`;
    const rule = typeof entry === 'string' ? { pattern: entry } : entry;
    if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) return fail(`${where} must be a pattern string or {"pattern", "format"}`);
    const { pattern, format, ...rest } = rule as Record<string, unknown>;
    const extra = Object.keys(rest);
    if (extra.length > 0) fail(`${where} has an unknown field "${extra[0]}" (known: pattern, format)`);
    if (typeof pattern !== 'string') return fail(`${where}.pattern must be a string`);
    const problem = checkPattern(pattern);
    if (problem !== undefined) fail(`${where} "${pattern}": ${problem}`);
    if (format === undefined) return { pattern };
    if (!isFormat(format)) return fail(`${where}.format must be one of ${FORMATS.join(', ')}, got ${JSON.stringify(format)}`);
    return { pattern, format };
  });

  let model: string | undefined;
  if (fields.model !== undefined) {
    if (typeof fields.model !== 'string' || !MODELS.includes(fields.model)) fail(`"model" must be one of ${MODELS.join(', ')}`);
    model = fields.model as string;
  }
  let glossaryId: string | undefined;
  if (fields.glossary_id !== undefined) {
    if (typeof fields.glossary_id !== 'string' || fields.glossary_id === '') fail('"glossary_id" must be a non-empty string');
    glossaryId = fields.glossary_id as string;
  }
  return { source, targets, files, ...(model ? { model } : {}), ...(glossaryId ? { glossaryId } : {}) };
}
