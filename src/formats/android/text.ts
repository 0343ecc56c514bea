/**
 * The content of an Android string (or item) read for a translator and written back
 * (docs/formats.md "android"). aapt reads the XML first (entities, CDATA, child
 * elements), then its own escapes: `\'`, `\"`, `\\`, `\n`, `\t`, `\@`, `\?`, `\uXXXX`;
 * an unescaped `"` quotes a run (kept as it is) and white space runs collapse.
 *
 * Reading: escapes are decoded into the characters they stand for. What a translation
 * must keep — `<xliff:g>` elements whole, entity and character references, CDATA's
 * brackets, comments, unescaped quotes, escapes with no character of their own and
 * line-breaking white space of the XML layout — becomes one private-use character each
 * (a protected span, so an atom for the model), and is written back as its source bytes;
 * distinct characters, because a translation may reorder them. Inline markup (`<b>`,
 * `<i>`, `<u>`, `<a href>`) stays in the text, where the placeholder scanner makes pairs
 * of it, and comes back as the source's bytes.
 *
 * Writing: a translation's own characters are escaped for aapt (an apostrophe is `\'`, a
 * quote `\"`, a line break `\n`, a leading `@` or `?` escaped) and for XML (`&`, `<`),
 * except inside CDATA, where XML escaping does not apply.
 */

/** The first private-use character standing for a kept chunk (Unicode's Private Use Area, U+E000–U+F8FF). */
const FIRST_KEPT = 0xe000;
const LAST_KEPT = 0xf8ff;
const KEPT_RANGE = /[\ue000-\uf8ff]/;
/**
 * Longer inline tags are kept whole: the placeholder scanner did not pair a 140-character
 * `<a href>` (Tusky's Polish licence link), which then came back as text to translate.
 */
const MARKUP_TAG_CHARS = 100;

export interface AndroidText {
  /** The text a translator reads; kept chunks are private-use characters. */
  readonly text: string;
  /** The protected spans of `text` (one per kept chunk). */
  readonly spans: readonly (readonly [number, number])[];
  /** The source bytes of each kept chunk, by its character's offset from U+E000. */
  readonly chunks: readonly string[];
  /** The source's inline start and end tags, written back as they are. */
  readonly tags: readonly string[];
}

const DECODED: Readonly<Record<string, string>> = { "'": "'", '"': '"', '\\': '\\', n: '\n', t: '\t', '@': '@', '?': '?' };

/**
 * Undefined when the content cannot be read this way (it already holds private-use
 * characters, or too many kept chunks). `firstChunk` numbers the kept chunks after those
 * of texts read before (a `<plurals>`' other items): the forms of one plural value then
 * never share a character, and `joinAndroidTexts` writes any of them back.
 */
export function readAndroidText(raw: string, firstChunk = 0): AndroidText | undefined {
  if (KEPT_RANGE.test(raw)) return undefined;
  let text = '';
  const spans: [number, number][] = [];
  const chunks: string[] = [];
  const tags: string[] = [];
  const keep = (chunk: string): boolean => {
    if (FIRST_KEPT + firstChunk + chunks.length > LAST_KEPT) return false;
    spans.push([text.length, text.length + 1]);
    text += String.fromCharCode(FIRST_KEPT + firstChunk + chunks.length);
    chunks.push(chunk);
    return true;
  };
  let inCdata = false;
  for (let i = 0; i < raw.length; ) {
    const c = raw[i]!;
    if (!inCdata && raw.startsWith('<![CDATA[', i)) {
      if (!keep('<![CDATA[')) return undefined;
      inCdata = true;
      i += 9;
    } else if (inCdata && raw.startsWith(']]>', i)) {
      if (!keep(']]>')) return undefined;
      inCdata = false;
      i += 3;
    } else if (!inCdata && raw.startsWith('<!--', i)) {
      const end = raw.indexOf('-->', i + 4);
      const stop = end === -1 ? raw.length : end + 3;
      if (!keep(raw.slice(i, stop))) return undefined;
      i = stop;
    } else if (!inCdata && raw.startsWith('<xliff:g', i)) {
      const end = raw.indexOf('</xliff:g>', i);
      const selfClosing = /^<xliff:g\b[^>]*\/>/.exec(raw.slice(i));
      const stop = selfClosing ? i + selfClosing[0].length : end === -1 ? raw.length : end + 10;
      if (!keep(raw.slice(i, stop))) return undefined;
      i = stop;
    } else if (c === '<' && (!inCdata || /^<\/?[A-Za-z]/.test(raw.slice(i, i + 3)))) {
      const end = raw.indexOf('>', i);
      const stop = end === -1 ? raw.length : end + 1;
      const tag = raw.slice(i, stop);
      // A tag the placeholder scanner would not read as markup (`<br\>`) is kept whole, not left as text to translate.
      if (tag.length <= MARKUP_TAG_CHARS && /^<\/?[A-Za-z][\w:.-]*(?:\s+[\w:.-]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'<>]+))?)*\s*\/?>$/.test(tag)) {
        tags.push(tag);
        text += tag;
      } else if (!keep(tag)) return undefined;
      i = stop;
    } else if (!inCdata && c === '&') {
      const reference = /^&(?:#\d+|#x[0-9a-fA-F]+|[A-Za-z_][\w.-]*);/.exec(raw.slice(i, i + 64));
      const chunk = reference ? reference[0] : '&';
      if (!keep(chunk)) return undefined;
      i += chunk.length;
    } else if (c === '\\') {
      const next = raw[i + 1];
      const unicode = next === 'u' ? /^[0-9a-fA-F]{4}/.exec(raw.slice(i + 2, i + 6)) : null;
      if (unicode) {
        text += String.fromCharCode(parseInt(unicode[0], 16));
        i += 6;
      } else if (next !== undefined && DECODED[next] !== undefined) {
        text += DECODED[next];
        i += 2;
      } else {
        if (!keep(raw.slice(i, i + 2))) return undefined;
        i += 2;
      }
    } else if (c === '"') {
      if (!keep('"')) return undefined;
      i++;
    } else if (c === '\n' || c === '\r' || ((c === ' ' || c === '\t') && /^[ \t]*\r?\n/.test(raw.slice(i, i + 200)))) {
      // The file's own line breaks and indentation: layout, which aapt collapses to one space.
      let stop = i;
      while (stop < raw.length && /[ \t\r\n]/.test(raw[stop]!)) stop++;
      if (!keep(raw.slice(i, stop))) return undefined;
      i = stop;
    } else {
      text += c;
      i++;
    }
  }
  return { text, spans, chunks, tags: [...new Set(tags)] };
}

/** Texts read one after another (each `firstChunk` the count before it) as one source to write any of them back with. */
export function joinAndroidTexts(texts: readonly AndroidText[]): AndroidText {
  return {
    text: '',
    spans: [],
    chunks: texts.flatMap((text) => text.chunks),
    tags: [...new Set(texts.flatMap((text) => text.tags))],
  };
}

/** A translation written back: kept chunks as their source bytes, the rest escaped for aapt and XML. */
export function writeAndroidText(translation: string, source: AndroidText): string {
  let out = '';
  let inCdata = false;
  let first = true;
  for (let i = 0; i < translation.length; i++) {
    const c = translation[i]!;
    const code = c.charCodeAt(0);
    if (code >= FIRST_KEPT && code <= LAST_KEPT && code - FIRST_KEPT < source.chunks.length) {
      const chunk = source.chunks[code - FIRST_KEPT]!;
      if (chunk === '<![CDATA[') inCdata = true;
      else if (chunk === ']]>') inCdata = false;
      out += chunk;
      if (!/^\s+$/.test(chunk) && chunk !== '<![CDATA[') first = false;
      continue;
    }
    if (c === '<') {
      const tag = source.tags.find((candidate) => translation.startsWith(candidate, i));
      if (tag) {
        out += tag;
        i += tag.length - 1;
        continue;
      }
    }
    if (first && (c === '@' || c === '?')) out += `\\${c}`;
    else if (c === "'") out += "\\'";
    else if (c === '"') out += '\\"';
    else if (c === '\\') out += '\\\\';
    else if (c === '\n') out += '\\n';
    else if (c === '\t') out += '\\t';
    else if (c === '&' && !inCdata) out += '&amp;';
    else if (c === '<' && !inCdata) out += '&lt;';
    // `]]>` would end the section: it is split across two.
    else if (c === '>' && inCdata && out.endsWith(']]')) out += ']]><![CDATA[>';
    else out += c;
    if (!/\s/.test(c)) first = false;
  }
  return out;
}
