/**
 * Hostile documents, generated: each shape is what once made a reader slow, deep or
 * hungry. `size` is the content's length in characters; the JSON body of each stays
 * under the 2 MiB body limit at the default size.
 */
import type { Format } from '../../src/formats/format.js';

export interface HostileShape {
  readonly name: string;
  /** Omitted: the service detects the format. */
  readonly format?: Format;
  content(size: number): string;
}

const repeat = (unit: string, size: number) => unit.repeat(Math.max(1, Math.floor(size / unit.length)));

/** Deterministic base64-looking text (a linear congruential generator, high bits only). */
function base64Blob(size: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const out: string[] = [];
  let x = 12345;
  for (let i = 0; i < size; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out.push(alphabet[x >>> 26]!);
  }
  return out.join('');
}

export const HOSTILE_SHAPES: readonly HostileShape[] = [
  { name: 'html of many short text nodes', format: 'html', content: (size) => repeat('<i>a</i>', size) },
  { name: 'an unclosed html comment', format: 'html', content: (size) => `<p>Hello</p><!--${repeat('a <p>b</p> ', size - 20)}` },
  { name: 'a huge comment, format omitted', content: (size) => `<!-- ${repeat('x', size - 10)} -->` },
  { name: 'many title attributes, format omitted', content: (size) => repeat('<a title="t">', size) },
  { name: 'a base64 blob as plain', format: 'plain', content: (size) => base64Blob(size) },
  {
    name: 'a wide markdown table',
    format: 'markdown',
    content: (size) => {
      const columns = Math.floor(size / 12);
      return `|${' a |'.repeat(columns)}\n|${'---|'.repeat(columns)}\n|${' b |'.repeat(columns)}\n`;
    },
  },
  { name: '<b>Hi</b> repeated, as html', format: 'html', content: (size) => repeat('<b>Hi</b> ', size) },
  { name: 'unclosed ICU plurals', format: 'plain', content: (size) => repeat('{n, plural, one {', size) },
  { name: 'markdown nested 3,000 deep', format: 'markdown', content: () => `${'> '.repeat(3_000)}deep\n` },
  {
    name: 'ICU select nested 2,000 deep',
    format: 'plain',
    content: () => `${'x {a, select, b {'.repeat(2_000)}deep${'}}'.repeat(2_000)}`,
  },
  { name: 'a JSON array nested 100,000 deep', format: 'json', content: () => `${'['.repeat(100_000)}${']'.repeat(100_000)}` },
];

/** The largest content of `shape` whose translate body (JSON) stays under `bodyBytes`. */
export function fitted(shape: HostileShape, bodyBytes = 2 * 1024 * 1024 - 1024): string {
  let size = bodyBytes;
  for (;;) {
    const content = shape.content(size);
    const bytes = Buffer.byteLength(JSON.stringify(content));
    if (bytes <= bodyBytes) return content;
    size = Math.floor(size * (bodyBytes / bytes) * 0.99);
  }
}
