/**
 * Reads a gettext PO/POT file into entries that know where their strings lie, so that
 * a writer can replace the `msgstr` strings and nothing else. The grammar is gettext's
 * (GNU gettext manual, "The Format of PO Files"): comments (`# `, `#.`, `#:`, `#,`,
 * `#|`), then `msgctxt`, `msgid`, optionally `msgid_plural`, then `msgstr` or
 * `msgstr[N]`, each keyword followed by one string and any number of continuation
 * strings. Obsolete entries (`#~`) are comments here: they are kept, never translated.
 */
import { ServiceError } from '../../errors.js';
import { readLiteral } from './strings.js';

/** One keyword with its strings: where the strings lie and what they decode to. */
export interface PoField {
  /** Offset of the keyword's first character. */
  readonly keywordStart: number;
  /** From the first string's opening quote to the last string's closing quote (inclusive). */
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** Each string literal's range and decoded text (the header's fields are one per string, usually). */
  readonly literals: readonly { readonly start: number; readonly end: number; readonly text: string }[];
}

export interface PoEntry {
  /** 1-based line of its first keyword. */
  readonly line: number;
  readonly notes: string[];
  readonly flags: string[];
  msgctxt?: PoField;
  msgid?: PoField;
  msgidPlural?: PoField;
  readonly msgstr: PoField[];
  /** `msgstr[N]` (true) or plain `msgstr`. */
  plural: boolean;
}

export interface PoFile {
  readonly entries: readonly PoEntry[];
  /** `\r\n` when the file's first line ends so, else `\n`. */
  readonly eol: string;
}

const KEYWORD = /^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)[ \t]+/;

function invalid(line: number, expected: string): never {
  throw new ServiceError('invalid_request', `The content is not a valid gettext PO file: line ${line}: expected ${expected}.`);
}

export function readPo(content: string): PoFile {
  const entries: PoEntry[] = [];
  const eol = /\r\n/.test(content.slice(0, content.indexOf('\n') + 1)) ? '\r\n' : '\n';
  let entry: PoEntry | undefined;
  let field: { keywordStart: number; start: number; end: number; text: string; literals: { start: number; end: number; text: string }[] } | undefined;
  let pendingNotes: string[] = [];
  let pendingFlags: string[] = [];
  let lineNumber = 0;
  const finish = (): void => {
    if (!entry) return;
    if (!entry.msgid) invalid(entry.line, 'msgid before msgstr');
    if (entry.msgstr.length === 0) invalid(entry.line, `msgstr after the msgid of line ${entry.line}`);
    if (entry.msgidPlural && !entry.plural) invalid(entry.line, 'msgstr[0] after msgid_plural');
    if (!entry.msgidPlural && entry.plural) invalid(entry.line, 'msgid_plural before msgstr[N]');
    entries.push(entry);
    entry = undefined;
  };
  for (let lineStart = 0; lineStart < content.length; ) {
    lineNumber++;
    let lineEnd = content.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = content.length;
    const next = lineEnd + 1;
    let end = lineEnd;
    if (content.charCodeAt(end - 1) === 13) end--;
    const line = content.slice(lineStart, end);
    const trimmed = line.trimStart();
    const indent = line.length - trimmed.length;
    const lineAt = lineStart;
    lineStart = next;
    if (trimmed === '' || trimmed.trimEnd() === '') {
      field = undefined;
      continue;
    }
    if (trimmed.startsWith('#')) {
      field = undefined;
      if (entry && entry.msgstr.length > 0) finish();
      if (trimmed.startsWith('#.')) pendingNotes.push(trimmed.slice(2).trim());
      else if (trimmed.startsWith('#,')) pendingFlags.push(...trimmed.slice(2).split(',').map((flag) => flag.trim()).filter(Boolean));
      continue;
    }
    if (trimmed.startsWith('"')) {
      if (!field) invalid(lineNumber, 'a keyword (msgid, msgstr, …) before a continued string');
      const literal = readLiteral(trimmed, 0);
      if (typeof literal === 'string') invalid(lineNumber, literal);
      if (trimmed.slice(literal.end).trim() !== '') invalid(lineNumber, 'nothing after the string');
      const at = lineAt + indent;
      field.literals.push({ start: at, end: at + literal.end, text: literal.text });
      field.end = at + literal.end;
      field.text += literal.text;
      continue;
    }
    const keyword = KEYWORD.exec(trimmed);
    if (!keyword) invalid(lineNumber, 'a comment, a keyword (msgctxt, msgid, msgid_plural, msgstr) or a string');
    const name = keyword[1]!;
    const quote = indent + keyword[0].length;
    const literal = readLiteral(trimmed, keyword[0].length);
    if (typeof literal === 'string') invalid(lineNumber, literal);
    if (trimmed.slice(literal.end).trim() !== '') invalid(lineNumber, 'nothing after the string');
    field = {
      keywordStart: lineAt + indent,
      start: lineAt + quote,
      end: lineAt + indent + literal.end,
      text: literal.text,
      literals: [{ start: lineAt + quote, end: lineAt + indent + literal.end, text: literal.text }],
    };
    if (name === 'msgctxt' || (name === 'msgid' && !(entry && entry.msgctxt && !entry.msgid))) {
      finish();
      entry = { line: lineNumber, notes: pendingNotes, flags: pendingFlags, msgstr: [], plural: false };
      pendingNotes = [];
      pendingFlags = [];
    }
    if (!entry) invalid(lineNumber, 'msgid before ' + name);
    if (name === 'msgctxt') entry.msgctxt = field;
    else if (name === 'msgid') {
      if (entry.msgid) invalid(lineNumber, 'one msgid per entry');
      entry.msgid = field;
    } else if (name === 'msgid_plural') {
      if (!entry.msgid || entry.msgidPlural || entry.msgstr.length > 0) invalid(lineNumber, 'msgid_plural right after a msgid');
      entry.msgidPlural = field;
    } else {
      if (!entry.msgid) invalid(lineNumber, 'msgid before msgstr');
      const index = keyword[2];
      if (index !== undefined) {
        if (Number(index) !== entry.msgstr.length) invalid(lineNumber, `msgstr[${entry.msgstr.length}]`);
        entry.plural = true;
      } else if (entry.msgstr.length > 0) invalid(lineNumber, 'one msgstr per entry');
      entry.msgstr.push(field);
    }
  }
  finish();
  return { entries, eol };
}
