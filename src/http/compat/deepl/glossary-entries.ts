/**
 * DeepL's glossary entries as text: `tsv` (one `source<TAB>target` per line) or `csv`
 * (`source,target[,source_lang,target_lang]`, fields quoted with `"` when they hold a
 * comma or quote, a quote inside written `""`). Blank lines are skipped and terms
 * trimmed, as DeepL does; each problem names its line. Term rules (length, control
 * characters, duplicates) are the glossary validator's (glossaries/validate.ts).
 */
import { invalidRequest } from '../../../errors.js';

export interface TextEntry {
  readonly line: number;
  readonly source: string;
  readonly target: string;
}

export type EntriesFormat = 'tsv' | 'csv';

export function parseEntriesText(text: string, format: EntriesFormat, languages: { source: string; target: string }): TextEntry[] {
  const entries: TextEntry[] = [];
  const lines = text.split(/\r\n|\n|\r/);
  for (const [i, raw] of lines.entries()) {
    if (raw.trim().length === 0) continue;
    const line = i + 1;
    const fields = format === 'tsv' ? raw.split('\t') : csvFields(raw, line);
    if (format === 'tsv' && fields.length !== 2) throw invalidRequest(`Entry on line ${line} must be a source term and a target term separated by one tab`);
    if (format === 'csv' && fields.length !== 2 && fields.length !== 4) {
      throw invalidRequest(`Entry on line ${line} must have 2 fields (source,target) or 4 (source,target,source_lang,target_lang)`);
    }
    if (fields.length === 4 && (!sameLanguage(fields[2]!, languages.source) || !sameLanguage(fields[3]!, languages.target))) {
      throw invalidRequest(`Entry on line ${line} names languages other than the glossary's ${languages.source} → ${languages.target}`);
    }
    const [source, target] = [fields[0]!.trim(), fields[1]!.trim()];
    if (source.length === 0 || target.length === 0) throw invalidRequest(`Entry on line ${line} has an empty term`);
    entries.push({ line, source, target });
  }
  if (entries.length === 0) throw invalidRequest('Parameter "entries" holds no entry');
  return entries;
}

/** The entries as DeepL answers GET /glossaries/:id/entries: TSV, one line each. */
export function entriesAsTsv(entries: ReadonlyArray<{ readonly source: string; readonly target: string }>): string {
  return entries.map((entry) => `${entry.source}\t${entry.target}`).join('\n');
}

function sameLanguage(given: string, expected: string): boolean {
  return given.trim().toLowerCase().split('-')[0] === expected.toLowerCase().split('-')[0];
}

/** One CSV record on one line (a term never holds a line break). */
function csvFields(line: string, number: number): string[] {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (line[i] === '"') {
      i++;
      for (;;) {
        if (i >= line.length) throw invalidRequest(`Entry on line ${number} has an unclosed quote`);
        if (line[i] === '"' && line[i + 1] === '"') {
          field += '"';
          i += 2;
        } else if (line[i] === '"') {
          i++;
          break;
        } else field += line[i++];
      }
      if (i < line.length && line[i] !== ',') throw invalidRequest(`Entry on line ${number} has text after a closing quote`);
    } else {
      const end = line.indexOf(',', i);
      field = line.slice(i, end === -1 ? line.length : end);
      i = end === -1 ? line.length : end;
    }
    fields.push(field);
    if (i >= line.length) return fields;
    i++; // the comma
  }
}
