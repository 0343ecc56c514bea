/**
 * XLIFF 1.2 and 2.0 (docs/formats.md "xliff"): each unit's `<source>` is translated into
 * its `<target>`, which is filled in place or created right after `</source>` on a line
 * of its own at the source's indentation; the target is marked `state="translated"`
 * (1.2 on `<target>`, 2.0 on `<segment>`) and the file's `target-language` / `trgLang`
 * is the target's. Inline codes are kept: `<x/>`, `<ph>`, `<bpt>`, `<ept>`, `<it>`
 * (and 2.0's `<sc/>`, `<ec/>`) whole, `<g>`, `<pc>` and `<mrk>` as pairs around text
 * that is translated; character references stay as they are. Units with
 * `translate="no"`, `<source>`, ids and `<note>`s are never changed.
 */
import type { FormatAdapter } from '../format.js';
import { DEFAULT_DOCUMENT_LIMITS } from '../core/limits.js';
import { EntriesDocumentBuilder } from '../entries/document.js';
import type { EntryTarget, LocaleEntry } from '../entries/entry.js';
import { readXliff } from './reader.js';
import { entryNote } from '../entries/note.js';
import type { XliffUnit } from './reader.js';

/** Inline codes kept whole (their content is native code, not text), and references. */
const KEPT_WHOLE = /<(x|bx|ex|ph|bpt|ept|it|sc|ec|sm|em|cp)\b[^>]*?\/>|<(ph|bpt|ept|it)\b[^>]*>[\s\S]*?<\/\2>|&(?:#\d+|#x[0-9a-fA-F]+|[A-Za-z][\w.-]*);|<!--[\s\S]*?-->/g;

function keptSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  for (const match of text.matchAll(KEPT_WHOLE)) spans.push([match.index, match.index + match[0].length]);
  return spans;
}

/**
 * A translation's own `&` and `<` as XML text. The marks come back as the source's own
 * bytes, so a `<` that starts one of the source's tags is markup and any other is text
 * (a model that writes `<fermer>` means the words).
 */
function escapeTranslation(text: string, sourceTags: readonly string[]): string {
  const escapedAmpersands = text.replace(/&(?!(?:#\d+|#x[0-9a-fA-F]+|[A-Za-z][\w.-]*);)/g, '&amp;');
  if (!escapedAmpersands.includes('<')) return escapedAmpersands;
  let out = '';
  for (let i = 0; i < escapedAmpersands.length; i++) {
    const c = escapedAmpersands[i]!;
    if (c !== '<') {
      out += c;
      continue;
    }
    const tag = sourceTags.find((candidate) => escapedAmpersands.startsWith(candidate, i));
    if (tag) {
      out += tag;
      i += tag.length - 1;
    } else out += '&lt;';
  }
  return out;
}

/** A start tag with `name="value"` set: replaced where it is, else added before the tag's end. */
function withAttribute(tag: string, name: string, value: string): string {
  const existing = new RegExp(`(\\s${name}\\s*=\\s*)("[^"]*"|'[^']*')`);
  if (existing.test(tag)) return tag.replace(existing, (_, lead: string) => `${lead}"${value}"`);
  const end = tag.endsWith('/>') ? tag.length - 2 : tag.length - 1;
  const trimmed = tag.slice(0, end).replace(/\s+$/, '');
  return `${trimmed} ${name}="${value}"${tag.slice(trimmed.length)}`;
}

/** A 1.2 `<target>`'s state that says it is not translated yet. */
const UNTRANSLATED_STATE = /\sstate\s*=\s*["'](?:new|needs-translation)["']/;

/**
 * Where `sync` finds a unit (entries/entry.ts): its region runs from `<source>` to the end
 * of `<target>` (a target file holds the source it translates, so a changed source goes
 * in with its translation; the answer's target, created after `</source>`, comes with
 * its line break and indentation), or to `</source>` in a unit that has no target; its
 * block is the unit element's lines. None when the unit shares its lines with other
 * markup or holds several segments: the file is then synced whole.
 */
function syncPlace(content: string, unit: XliffUnit, version: '1.2' | '2.0'): Pick<LocaleEntry, 'region' | 'block' | 'translated'> {
  if (!unit.element) return {};
  // Only white space may share the element's lines (read over it alone: a file on one line stays linear).
  let lineStart = unit.element[0];
  while (lineStart > 0 && (content[lineStart - 1] === ' ' || content[lineStart - 1] === '\t')) lineStart--;
  let lineEnd = unit.element[1];
  while (lineEnd < content.length && (content[lineEnd] === ' ' || content[lineEnd] === '\t' || content[lineEnd] === '\r')) lineEnd++;
  if ((lineStart > 0 && content[lineStart - 1] !== '\n') || (lineEnd < content.length && content[lineEnd] !== '\n')) return {};
  const block = [lineStart, lineEnd < content.length ? lineEnd + 1 : content.length] as const;
  // (A start tag's attributes hold no `<`: the last one before the content opens it.)
  const sourceTag = content.lastIndexOf('<', unit.sourceStart - 1);
  const target = unit.target;
  if (!target) return { region: [sourceTag, unit.afterSource], block, translated: false };
  // (1.2's state is on `<target>`, inside the region a merge writes; 2.0's `<segment>` is
  // outside it and keeps what the target file says, so its state would never change.)
  const untranslated =
    !/\S/.test(content.slice(target.contentStart, target.contentEnd)) || (version === '1.2' && UNTRANSLATED_STATE.test(content.slice(target.tag.start, target.tag.end)));
  return { region: [sourceTag, target.endTagEnd], block, translated: !untranslated };
}

const xliffLanguage = (target: EntryTarget): string => target.code;

export const xliffAdapter: FormatAdapter = {
  format: 'xliff',
  extract(content, limits = DEFAULT_DOCUMENT_LIMITS) {
    const file = readXliff(content, limits);
    const out = new EntriesDocumentBuilder('xliff', content, limits);
    out.sourceLanguage = file.sourceLanguage;
    const version = file.version;
    const eol = /\r\n/.test(content.slice(0, content.indexOf('\n') + 1)) ? '\r\n' : '\n';
    for (const tag of file.languageTags) {
      const sourceTag = content.slice(tag.start, tag.end);
      out.edit({ start: tag.start, end: tag.end, render: (target) => withAttribute(sourceTag, version === '2.0' ? 'trgLang' : 'target-language', xliffLanguage(target)) });
    }
    for (const unit of file.units) {
      if (!unit.translate || unit.sourceEnd <= unit.sourceStart) continue;
      if (/<!\[CDATA\[/.test(content.slice(unit.sourceStart, unit.sourceEnd))) continue; // (CDATA text would need other escaping; rare in XLIFF)
      unitEdits(out, content, unit, version, eol);
    }
    return out.document();
  },
};

function unitEdits(out: EntriesDocumentBuilder, content: string, unit: XliffUnit, version: '1.2' | '2.0', eol: string): void {
  const sourceText = content.slice(unit.sourceStart, unit.sourceEnd);
  const value = out.value(sourceText, keptSpans(sourceText), entryNote(unit.id, unit.notes, sourceText));
  out.entry({ key: unit.id, value: sourceText, notes: unit.notes, ...syncPlace(content, unit, version) });
  const sourceTags = [...new Set(sourceText.match(/<[^<>]*>/g) ?? [])];
  const translation = (translated: readonly string[]): string => {
    const text = translated[value]!;
    return text === sourceText ? sourceText : escapeTranslation(text, sourceTags);
  };
  if (version === '2.0' && unit.segment) {
    const segmentTag = content.slice(unit.segment.start, unit.segment.end);
    out.edit({ start: unit.segment.start, end: unit.segment.end, render: () => withAttribute(segmentTag, 'state', 'translated') });
  }
  const target = unit.target;
  if (target) {
    const tagText = content.slice(target.tag.start, target.tag.end);
    if (target.tag.selfClosing) {
      out.edit({
        start: target.tag.start,
        end: target.tag.end,
        render: (_target, translated) => {
          const open = (version === '1.2' ? withAttribute(tagText, 'state', 'translated') : tagText).replace(/\s*\/>$/, '>');
          return `${open}${translation(translated)}</${/^<([^\s/>]+)/.exec(tagText)![1]}>`;
        },
      });
      return;
    }
    if (version === '1.2') out.edit({ start: target.tag.start, end: target.tag.end, render: () => withAttribute(tagText, 'state', 'translated') });
    out.edit({ start: target.contentStart, end: target.contentEnd, render: (_target, translated) => translation(translated) });
    return;
  }
  const sourceTag = /<([^\s>]*:)?source\b/.exec(content.slice(Math.max(0, unit.sourceStart - 200), unit.sourceStart));
  const prefix = sourceTag?.[1] ?? '';
  // On a line of its own when the source is; right after it when the unit is written on one line.
  const separator = unit.sourceIndent === '' && /\S/.test(content[unit.afterSource] ?? '') ? '' : `${eol}${unit.sourceIndent}`;
  out.edit({
    start: unit.afterSource,
    end: unit.afterSource,
    render: (_target, translated) =>
      `${separator}<${prefix}target${version === '1.2' ? ' state="translated"' : ''}>${translation(translated)}</${prefix}target>`,
  });
}
