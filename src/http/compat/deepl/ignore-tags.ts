/**
 * DeepL's `ignore_tags`: elements whose content is kept verbatim. The html format already
 * keeps a `translate="no"` subtree as it is (docs/formats.md), so each start tag of an
 * ignored element gets that attribute, first so it wins over one the element may have,
 * with a marker that no document holds; the same bytes are removed from the answer. The
 * html format never changes attributes, so the answer is the source's markup exactly.
 */
import { ServiceError } from '../../../errors.js';
import { quote } from '../../quote.js';

const MARK = ' translate="no" data-deepl-ignored-tag=""';
const TAG_NAME = /^[A-Za-z][A-Za-z0-9:_-]*$/;

/** A comma-separated list (form bodies, DeepL's clients) or an array (JSON bodies, Weblate). */
export function parseIgnoreTags(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  const names = (Array.isArray(value) ? value : [value]).flatMap((item: unknown) => {
    if (typeof item !== 'string') throw new ServiceError('invalid_request', 'Parameter "ignore_tags" must be a comma-separated list of tag names');
    return item.split(',');
  });
  return names
    .map((name) => name.trim())
    .filter((name) => name.length > 0)
    .map((name) => {
      if (!TAG_NAME.test(name)) throw new ServiceError('invalid_request', `Value for "ignore_tags" is not a tag name: ${quote(name)}`);
      return name;
    });
}

export function markIgnored(html: string, tags: readonly string[]): string {
  return tags.length === 0 ? html : html.replace(startTags(tags), (tag) => tag + MARK);
}

export function unmarkIgnored(html: string, tags: readonly string[]): string {
  return tags.length === 0 ? html : html.split(MARK).join('');
}

function startTags(tags: readonly string[]): RegExp {
  const names = tags.map((tag) => tag.replace(/[-:]/g, (c) => `\\${c}`)).join('|');
  return new RegExp(`<(?:${names})(?=[\\s/>])`, 'gi');
}
