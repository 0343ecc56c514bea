/**
 * Format detection (docs/contract.md §4, docs/engine-notes.md b8): json only if the content parses as an
 * object or array; html when markup dominates; markdown when its syntax is present;
 * otherwise plain. Each candidate gets a score in [0, 1]; the confidence discounts the
 * best score by how close the runner-up is (highlight.js style).
 */
import htmlTags from 'html-tags';
import type { DetectionResult, Format } from './format.js';

const KNOWN_TAGS: ReadonlySet<string> = new Set(htmlTags);
const HEAD_LIMIT = 64 * 1024;

/** Each format's score in [0, 1]. */
export type DetectionScores = Readonly<Record<Format, number>>;

function jsonScore(content: string): number {
  const trimmed = content.trim();
  if (!/^[[{]/.test(trimmed)) return 0;
  try {
    const value: unknown = JSON.parse(trimmed);
    if (typeof value !== 'object' || value === null) return 0;
    return /"(?:[^"\\]|\\.)*"/.test(trimmed) ? 0.99 : 0.9;
  } catch {
    return 0;
  }
}

/** An Xcode String Catalog: a JSON object with `sourceLanguage`, `strings` and `version` (no other JSON has all three). */
function xcstringsScore(source: string, json: number): number {
  if (json === 0 || !source.includes('"sourceLanguage"')) return 0;
  const value = JSON.parse(source.trim()) as unknown;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 0;
  const catalog = value as Record<string, unknown>;
  return typeof catalog.sourceLanguage === 'string' && typeof catalog.strings === 'object' && catalog.strings !== null && 'version' in catalog ? 1 : 0;
}

/** An Apple `.stringsdict`: a property list whose entries name `NSStringLocalizedFormatKey`. */
function stringsdictScore(head: string): number {
  return /<plist\b/.test(head) && head.includes('<key>NSStringLocalizedFormatKey</key>') ? 0.99 : 0;
}

/**
 * An Apple `.strings` file: nothing but comments and `"key" = "value";` pairs (a quoted
 * string may run over lines; a key or value may be an unquoted old-style plist word), read
 * pair by pair with a sticky pattern; a head cut inside a pair still counts.
 */
const STRINGS_STEP = /\s*(?:\/\*[\s\S]*?\*\/|\/\/[^\n]*|(?:"(?:[^"\\]|\\[\s\S])*"|'(?:[^'\\]|\\[\s\S])*'|[A-Za-z0-9_.$+/:-]+)\s*=\s*(?:"(?:[^"\\]|\\[\s\S])*"|'(?:[^'\\]|\\[\s\S])*'|[A-Za-z0-9_.$+/:-]+)\s*;)/y;

function stringsScore(head: string, cut: boolean): number {
  if (!head.includes('=') || !head.includes(';') || !head.includes('"')) return 0;
  let pairs = 0;
  let at = 0;
  for (;;) {
    STRINGS_STEP.lastIndex = at;
    const match = STRINGS_STEP.exec(head);
    if (!match || match[0].length === 0) break;
    at = STRINGS_STEP.lastIndex;
    if (match[0].trimEnd().endsWith(';') && !/^\s*\/[/*]/.test(match[0])) pairs++;
  }
  const rest = head.slice(at);
  const complete = rest.trim() === '' || (cut && rest.length < 4096);
  return pairs > 0 && complete ? 0.99 : 0;
}

/**
 * gettext PO: a `msgid "` line and a `msgstr "` (or `msgstr[0] "`) line at line starts.
 * Nothing else writes these keywords at the start of lines, so both together are certain.
 */
const PO_MSGID = /^[ \t]*msgid[ \t]+"/m;
const PO_MSGSTR = /^[ \t]*msgstr(?:\[0\])?[ \t]+"/m;

function poScore(head: string): number {
  return PO_MSGID.test(head) && PO_MSGSTR.test(head) ? 0.99 : 0;
}

/**
 * Java properties: at least two entries, and nearly every line that is not blank or a
 * `#`/`!` comment is a `key=value` with a key without spaces. (`key: value` and
 * `key value` are properties too, but read as prose or YAML as often: only `=` counts.)
 */
const PROPERTIES_ENTRY = /^[ \t\f]*[\w.\-\[\]\\/]+[ \t\f]*=/;

function propertiesScore(head: string): number {
  let entries = 0;
  let others = 0;
  let continued = false;
  for (const line of head.split(/\r\n?|\n/)) {
    const wasContinued = continued;
    continued = /(?:^|[^\\])(?:\\\\)*\\$/.test(line);
    if (wasContinued || /^[ \t\f]*(?:[#!]|$)/.test(line)) continue;
    if (PROPERTIES_ENTRY.test(line)) entries++;
    else others++;
  }
  return entries >= 2 && others <= entries * 0.05 ? 0.9 : 0;
}

/**
 * Locale YAML (Rails, Symfony, Hugo): mostly `key:` lines and `- ` items, opened by a
 * key that holds a nested mapping (`en:`), or with three or more keys written as
 * identifiers (`button.title:`; prose such as `Note: …` has spaces). Markdown front
 * matter is followed by markdown and stays markdown.
 */
const YAML_KEY = /^[ ]*(?:- )?(?:"[^"\n]*"|'[^'\n]*'|[^\s#'"\-?:,[\]{}][^:#\n]*?):(?:[ \t]|$)/;
const YAML_ITEM = /^[ ]*- /;

function yamlScore(head: string): number {
  const lines = head.split(/\r\n?|\n/).filter((line) => line.trim() !== '' && !/^\s*#/.test(line) && line.trim() !== '---');
  if (lines.length < 2) return 0;
  let keys = 0;
  let identifierKeys = 0;
  let structured = 0;
  for (const line of lines) {
    if (YAML_KEY.test(line)) {
      keys++;
      if (/^[ ]*[\w.-]+:/.test(line)) identifierKeys++;
      structured++;
    } else if (YAML_ITEM.test(line) || /^[ ]+\S/.test(line)) structured++;
  }
  const first = lines[0]!;
  const nestedRoot = /^[^\s#][^:#]*:[ \t]*(?:#.*)?$/.test(first) && /^[ ]+\S/.test(lines[1]!);
  if (keys < 2 || structured < lines.length * 0.9) return 0;
  return nestedRoot || identifierKeys >= 3 ? 0.9 : 0;
}

/** XLIFF: an `<xliff … version=…>` element (no other format has one) and a unit. */
function xliffScore(head: string): number {
  return /<xliff\b[^<>]*\bversion\s*=/.test(head) && /<(?:trans-unit|unit)\b/.test(head) ? 0.99 : 0;
}

/**
 * Android string resources: a `<resources>` element holding `<string name=`,
 * `<plurals name=` or `<string-array name=` (no other format writes these).
 */
function androidScore(head: string): number {
  return /<resources\b[^<>]*>/.test(head) && /<(?:string|plurals|string-array)\s[^<>]*\bname\s*=/.test(head) ? 0.99 : 0;
}

/**
 * Flutter ARB: a JSON object with an `@@locale` key, or an `@key` metadata object for a
 * key it also has (`"title": …, "@title": {…}`). Other JSON stays json.
 */
function arbScore(content: string): number {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return 0;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 0;
  const record = value as Record<string, unknown>;
  if (typeof record['@@locale'] === 'string') return 1;
  for (const key of Object.keys(record)) {
    if (key.startsWith('@') && !key.startsWith('@@') && typeof record[key] === 'object' && record[key] !== null && typeof record[key.slice(1)] === 'string') return 1;
  }
  return 0;
}

/** Removes closed `<!-- … -->` comments in one linear pass (a regex would rescan from every `<!--`). */
function stripComments(text: string): { text: string; commentChars: number } {
  let out = '';
  let commentChars = 0;
  let from = 0;
  for (;;) {
    const open = text.indexOf('<!--', from);
    const close = open < 0 ? -1 : text.indexOf('-->', open + 4);
    if (close < 0) return { text: out + text.slice(from), commentChars };
    out += text.slice(from, open) + ' ';
    commentChars += close + 3 - open;
    from = close + 3;
  }
}

const XML_DECLARATION = /^<\?xml[^>]*\?>/i;
const WHITESPACE_RUN = /\s*/y;
const PAGE_START = /<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]/iy;

/**
 * Whether `text` opens like a full page: `<!doctype html>`, `<html>`, `<head>` or
 * `<body>`, after an optional XML declaration and any comments. Anchored: an `<html>`
 * quoted in a README's code block does not make it a page; XHTML from DocBook opens with
 * `<?xml`. Read by hand, comment by comment: a pattern `(?:<!--[\s\S]*?-->\s*)*` could
 * split a row of comments at any `-->` and backtracked exponentially (30 comments in a
 * row took seconds, a few hundred never ended).
 */
function opensAsPage(text: string): boolean {
  let at = XML_DECLARATION.exec(text)?.[0].length ?? 0;
  for (;;) {
    WHITESPACE_RUN.lastIndex = at;
    WHITESPACE_RUN.exec(text);
    at = WHITESPACE_RUN.lastIndex;
    if (!text.startsWith('<!--', at)) break;
    const close = text.indexOf('-->', at + 4);
    if (close < 0) return false;
    at = close + 3;
  }
  PAGE_START.lastIndex = at;
  return PAGE_START.test(text);
}

function htmlScore(head: string): number {
  const trimmed = head.trim();
  if (opensAsPage(trimmed)) return 0.98;
  let known = 0;
  let markup = 0;
  const opened = new Map<string, number>();
  let pairs = 0;
  const { text: withoutComments, commentChars } = stripComments(trimmed);
  markup += commentChars;
  const tag = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)(?:\s[^<>]*)?\/?>/g;
  for (const match of withoutComments.matchAll(tag)) {
    const name = match[2]!.toLowerCase();
    if (!KNOWN_TAGS.has(name) && !name.includes('-')) continue;
    known++;
    markup += match[0].length;
    if (match[1]) {
      const n = opened.get(name) ?? 0;
      if (n > 0) {
        opened.set(name, n - 1);
        pairs++;
      }
    } else opened.set(name, (opened.get(name) ?? 0) + 1);
  }
  if (known === 0) return 0;
  if (known === 1 && pairs === 0) return 0.2;
  const ratio = markup / Math.max(1, trimmed.length);
  let score = 0.3 + 0.1 * Math.min(pairs, 4) + 0.8 * Math.min(ratio, 0.4);
  if (/^<[a-zA-Z!]/.test(trimmed) && />$/.test(trimmed)) score += 0.1;
  return Math.min(0.95, score);
}

// Every pattern that can start at many places in a line bounds its inner run, so a
// hostile 64 KB head costs milliseconds, not seconds (test/formats/detect-speed.test.ts).
function markdownScore(head: string): number {
  const text = head.replace(/\r\n?/g, '\n');
  let s = 0;
  const count = (re: RegExp) => text.match(re)?.length ?? 0;
  if (/^---\n[\s\S]*?\n(?:---|\.\.\.)\s*(?:\n|$)/.test(text)) s += 3;
  if (/^ {0,3}(```|~~~)[^\n]*\n[\s\S]*?^ {0,3}\1/m.test(text)) s += 3;
  if (/^ {0,3}\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{1,}:?\s*)+\|?\s*$/m.test(text)) s += 3;
  s += Math.min(3, count(/^ {0,3}#{2,6}[ \t]+\S/gm)) * 2;
  // A `# Title` line opening the document, set off by a blank line, is how READMEs start.
  if (/^\s*# [^\n]*\S[ \t]*(?:\n[ \t]*\n|\n?$)/.test(text)) s += 2;
  else if (/^ {0,3}#[ \t]+\S/m.test(text)) s += 1;
  if (hasSetextHeading(text)) s += 2;
  if (/^ {0,3}(?:[-*+]|\d{1,9}[.)])[ \t]+\S[^\n]*\n(?:[^\n]*\n)*? {0,3}(?:[-*+]|\d{1,9}[.)])[ \t]+\S/m.test(text)) s += 2;
  s += Math.min(3, count(/!?\[[^\]\n]{1,200}\]\([^)\s]{1,500}(?:\s+"[^"\n]{0,200}")?\)/g)) * 2;
  if (/^ {0,3}\[[^\]\n]+\]:\s*\S/m.test(text)) s += 2;
  if (/^ {0,3}>/m.test(text)) s += /^ {0,3}>[^\n]*\n {0,3}>/m.test(text) ? 2 : 1;
  if (/\[\^[^\]\s]{1,100}\]/.test(text)) s += 2;
  if (/<(?:https?|mailto):[^\s>]{1,500}>/.test(text)) s += 2;
  if (/\n\n(?: {4}|\t)\S/.test(text)) s += 1;
  if (/^ {0,3}(?:\*\s*){3,}$|^ {0,3}(?:_\s*){3,}$|\n\n {0,3}(?:-\s*){3,}(?:\n|$)/m.test(text)) s += 1;
  if (/^\|[^\n]*\|[ \t]*\n\|[ \t]*:?-+:?[ \t]*\|/m.test(text)) s += 3;
  if (/(\*\*|__)(?=\S)[^\n]{0,500}?\S\1/.test(text)) s += 1;
  s += Math.min(2, count(/(?:^|[^`])`[^`\n]{1,200}`(?!`)/g));
  if (/^ {0,3}[-*+][ \t]+\[[ xX]\][ \t]/m.test(text)) s += 2;
  if (/(^|[\s(])(\*|_)(?=\S)[^*_\n]*?\S\2(?=[\s.,;:!?)]|$)/m.test(text)) s += 1;
  // Tuned on the detection corpus: one strong signal (2) is enough, one weak one (1) is not.
  return 1 - Math.exp(-s / 2.5);
}

/**
 * A setext underline (`===` or `---`) below a non-blank line. Found from the underline
 * back, because a pattern that starts with the text line backtracks over every start in
 * a long line: quadratic, and seconds on one 50 KB word.
 */
function hasSetextHeading(text: string): boolean {
  for (const match of text.matchAll(/\n {0,3}(?:=+|-{2,})[ \t]*$/gm)) {
    const lineStart = text.lastIndexOf('\n', match.index - 1) + 1;
    if (/\S/.test(text.slice(lineStart, match.index))) return true;
  }
  return false;
}

export function detectionScores(content: string): DetectionScores {
  const source = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  const head = source.slice(0, HEAD_LIMIT);
  const jsonLike = jsonScore(source);
  const arb = jsonLike > 0 ? arbScore(source.trim()) : 0;
  const xcstrings = arb > 0 ? 0 : xcstringsScore(source, jsonLike);
  const json = arb > 0 || xcstrings > 0 ? 0 : jsonLike;
  // A document that opens as a web page is html even where its `<pre>` blocks show a PO
  // entry, a YAML file or `key=value` lines (gettext's tutorial, a style sheet in `<head>`).
  const page = jsonLike === 0 && opensAsPage(head.trim());
  const android = jsonLike > 0 ? 0 : androidScore(head);
  const stringsdict = jsonLike > 0 || android > 0 ? 0 : stringsdictScore(head);
  const strings = jsonLike > 0 || android > 0 || stringsdict > 0 ? 0 : stringsScore(head, source.length > HEAD_LIMIT);
  const apple = xcstrings > 0 || stringsdict > 0 || strings > 0;
  const xliff = jsonLike > 0 || android > 0 || apple ? 0 : xliffScore(head);
  const po = page || jsonLike > 0 || xliff > 0 || android > 0 || apple ? 0 : poScore(head);
  const properties = page || jsonLike > 0 || po > 0 || xliff > 0 || android > 0 || apple ? 0 : propertiesScore(head);
  const yaml = page || jsonLike > 0 || po > 0 || properties > 0 || xliff > 0 || android > 0 || apple || /^---\r?\n[\s\S]*?\n---\r?\n/.test(head) ? 0 : yamlScore(head);
  const other = jsonLike > 0 || po > 0 || properties > 0 || yaml > 0 || xliff > 0 || android > 0 || apple;
  let html = other ? 0 : htmlScore(head);
  const markdown = other ? 0 : markdownScore(head);
  // Markdown may hold HTML; markdown blocks between the tags mean markdown.
  if (markdown >= 0.5 && html < 0.98) {
    const blocksOutsideTags = /\n[ \t]*\n {0,3}(?:#{1,6}[ \t]|[-*+][ \t]|\d{1,9}[.)][ \t]|>)/.test(head);
    html = Math.max(0, html - (blocksOutsideTags ? 0.45 : 0.2));
  }
  const plain = 1 - Math.max(json, arb, po, properties, yaml, xliff, android, strings, stringsdict, xcstrings, html, markdown);
  return { strings, stringsdict, xcstrings, po, properties, yaml, xliff, android, arb, json, html, markdown, plain };
}

/**
 * Every json, html and markdown signal above needs one of these characters: one line of
 * text without any is plain for certain, as the full scoring would also say (1.0). Most
 * requests are such a line (a UI string), and the scoring's two dozen patterns cost more
 * than the rest of reading it.
 */
const MAY_BE_MARKUP = /[\n\r\u2028\u2029<>[{`*_#|]/;
const CERTAINLY_PLAIN: DetectionResult = Object.freeze({ format: 'plain', confidence: 1 });

export function detectFormat(content: string): DetectionResult {
  if (!MAY_BE_MARKUP.test(content)) return CERTAINLY_PLAIN;
  const scores = detectionScores(content);
  const ranked = (Object.entries(scores) as [Format, number][]).sort((a, b) => b[1] - a[1]);
  const [format, best] = ranked[0]!;
  const second = ranked[1]![1];
  if (format !== 'plain' && best < 0.5) {
    return { format: 'plain', confidence: round(Math.max(scores.plain, 0.5)) };
  }
  const confidence = best * (0.6 + (0.4 * (best - second)) / Math.max(best, 1e-9));
  return { format, confidence: round(Math.min(1, Math.max(0, confidence))) };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
