/** ~2 MiB generated documents per format, the shapes bench/formats uses (prose-like, many segments). */
import type { Format } from '../../src/formats/format.js';

const UNITS: Record<Extract<Format, 'markdown' | 'json' | 'html'>, (i: number) => string> = {
  markdown: (i) =>
    `Paragraph ${i} explains how the service keeps your *documents* intact, with a [link](https://example.com/p/${i}) and \`code\`.\nIt wraps onto a second line with **strong** words and a {name} placeholder.\n\n`,
  json: (i) => `  "key_${i}": "Save your {count} changes before you leave the page, %s",\n`,
  html: (i) => `<p class="x">Paragraph ${i} with <a href="/p/${i}" title="Open page">a link</a> and <b>bold</b> text.</p>\n`,
};

/** A document whose JSON-escaped form (as it travels in a request body) is just under `bytes`. */
export function largeDocument(format: keyof typeof UNITS, bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; ; i++) {
    const part = UNITS[format](i);
    const escaped = JSON.stringify(part).length - 2;
    if (size + escaped > bytes - 1024) break;
    parts.push(part);
    size += escaped;
  }
  return format === 'json' ? `{\n${parts.join('')}  "end": "The end"\n}\n` : parts.join('');
}
