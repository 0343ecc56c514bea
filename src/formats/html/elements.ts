/**
 * What each element is to the html adapter: the one table of element names the adapter
 * reads (docs/formats.md § html). An element may be of several kinds (`script` is skipped,
 * keeps its attributes and gets no `dir`); one not listed is phrasing: inline, translated,
 * with its attributes read. The tree builder (tree.ts) keeps htmlparser2's own lists,
 * which must stay as htmlparser2 has them.
 */

/** Kinds as bit flags, so the adapter asks the table once per tag. */
export const ElementKind = {
  /** Starts and ends a segment. */
  Block: 1,
  /** Never translated, never part of a segment (the whole subtree is template). */
  Skipped: 2,
  /** One atom for the whole element: its content is not translated (its attributes may be). */
  Atomic: 4,
  /** Has no end tag and no content. */
  Void: 8,
  /** Its attributes (and those of its subtree) are never translated: code or graphics. */
  NoAttributes: 16,
  /** Not rendered: a fragment's top-level element of this kind gets no `dir` for an RTL target. */
  NoDirection: 32,
} as const;

const NAMES: Readonly<Record<keyof typeof ElementKind, readonly string[]>> = {
  Block: [
    'address', 'article', 'aside', 'blockquote', 'body', 'caption', 'center', 'col', 'colgroup', 'dd', 'details',
    'dialog', 'dir', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'frameset', 'h1', 'h2',
    'h3', 'h4', 'h5', 'h6', 'head', 'header', 'hgroup', 'hr', 'html', 'legend', 'li', 'link', 'main', 'menu', 'meta',
    'nav', 'noscript', 'ol', 'optgroup', 'option', 'p', 'section', 'select', 'summary', 'table', 'tbody', 'td',
    'tfoot', 'th', 'thead', 'title', 'tr', 'ul', 'base', 'datalist', 'search', 'frame',
    // Their content is fallback content, shown to the readers whose browser cannot play
    // or show the element: text like any other, a segment of its own (decision 0059).
    'video', 'audio', 'object', 'canvas',
  ],
  Skipped: ['script', 'style', 'pre', 'template', 'textarea', 'xmp', 'plaintext'],
  Atomic: [
    'code', 'samp', 'var', 'svg', 'math', 'img', 'br', 'wbr', 'input', 'embed',
    'picture', 'area', 'source', 'track', 'param', 'meter', 'progress', 'map', 'ruby', 'iframe',
  ],
  Void: ['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr', 'keygen', 'frame'],
  NoAttributes: ['code', 'samp', 'var', 'svg', 'math', 'script', 'style', 'template'],
  NoDirection: ['script', 'style', 'template', 'link', 'meta', 'base', 'noscript', 'br', 'wbr', 'hr', 'title'],
};

const KINDS = new Map<string, number>();
for (const [kind, names] of Object.entries(NAMES) as [keyof typeof ElementKind, readonly string[]][]) {
  for (const name of names) KINDS.set(name, (KINDS.get(name) ?? 0) | ElementKind[kind]);
}

/** The kinds of the element `name` (lower case) as flags of ElementKind; 0 for phrasing. */
export function elementKinds(name: string): number {
  return KINDS.get(name) ?? 0;
}
