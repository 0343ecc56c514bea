/**
 * The documents that held the main thread longest when tried from outside (issue 37), each
 * about the size the report names, and a 2 MiB document of 200,000 segments into 10 targets.
 * Shared by bench/event-loop/shapes.ts and the bounded test in test/translation.
 */
import type { Format } from '../../src/formats/format.js';

export interface StallShape {
  readonly name: string;
  /** Undefined: the service detects it. */
  readonly format?: Format;
  readonly targets: readonly string[];
  readonly content: () => string;
}

const repeatTo = (unit: (i: number) => string, bytes: number): string => {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const part = unit(i);
    parts.push(part);
    size += part.length;
  }
  return parts.join('');
};

const unclosedParagraphs = () => repeatTo((i) => `<p>text ${i} `, 1_300_000);
const booleanAttributes = () => `<input${repeatTo((i) => ` disabled${i}`, 2_000_000)}>`;
/** 100,000 keys with short distinct values (a word each: every one is a segment). */
const jsonKeys = () => `{${Array.from({ length: 100_000 }, (_, i) => `"${i.toString(36)}":"W${i.toString(36)}"`).join(',')}}`;
const titleAttributes = () => repeatTo((i) => `<a title="Open the page number ${i}">`, 1_600_000);
const hugeComment = () => `<!-- ${repeatTo((i) => `note ${i} `, 1_800_000)} -->`;
/** 200,000 distinct one-word strings in a JSON array: about the most segments 2 MiB of a request can hold. */
const manySegments = () => `[${Array.from({ length: 200_000 }, (_, i) => `"w${i.toString(36)}"`).join(',')}]`;

/** The html document of the bounded test (test/event-loop/large-documents.test.ts). */
const listItems = () => `<ul>${Array.from({ length: 10_000 }, (_, i) => `<li>Item ${i}</li>`).join('')}</ul>`;
/** The xliff document of the bounded test: 10,000 units of one short source each. */
const xliffUnits = () =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file source-language="en" datatype="plaintext" original="x"><body>\n${Array.from(
    { length: 10_000 },
    (_, i) => `<trans-unit id="u${i}"><source>Value ${i} here</source></trans-unit>\n`,
  ).join('')}</body></file></xliff>\n`;

const ONE = ['fr'];
export const STALL_SHAPES: readonly StallShape[] = [
  { name: 'unclosed <p> text, markdown', format: 'markdown', targets: ONE, content: unclosedParagraphs },
  { name: 'unclosed <p> text, html', format: 'html', targets: ONE, content: unclosedParagraphs },
  { name: 'unclosed <p> text, detected', targets: ONE, content: unclosedParagraphs },
  { name: 'boolean attributes, detected', targets: ONE, content: booleanAttributes },
  { name: '100,000 JSON keys, json', format: 'json', targets: ONE, content: jsonKeys },
  { name: '100,000 JSON keys, detected', targets: ONE, content: jsonKeys },
  { name: 'title attributes, markdown', format: 'markdown', targets: ONE, content: titleAttributes },
  { name: 'title attributes, html', format: 'html', targets: ONE, content: titleAttributes },
  { name: 'title attributes, detected', targets: ONE, content: titleAttributes },
  { name: 'huge HTML comment, detected', targets: ONE, content: hugeComment },
  { name: '10,000 list items into 2 targets, html', format: 'html', targets: ['fr', 'de'], content: listItems },
  { name: '10,000 XLIFF units into 2 targets, xliff', format: 'xliff', targets: ['fr', 'de'], content: xliffUnits },
  {
    name: '200,000 segments into 10 targets, json',
    format: 'json',
    targets: ['fr', 'de', 'es', 'it', 'pt-BR', 'ru', 'ja', 'zh', 'ar', 'ko'],
    content: manySegments,
  },
];
