/**
 * Faults the structure bench (bench/formats/real-world-apertium.ts) found in real
 * documents, each as a small document of ours translated en→es by the real apertium
 * engine through the service's own path (prepare, plan, engine, checks, render), and
 * judged against its source: the markup is all there, each element still holding words.
 *  - Apertium drops words it reads as implied (a subject pronoun, an auxiliary); with the
 *    marks pinned, their emphasis came back empty (`****`), which is no emphasis at all.
 *  - A multiword swallowed the superblank between its words (`There<br> are` → `hay`):
 *    a `<br>` lost, the whole document refused with translation_error.
 *  - Links of an HTML block inside markdown may change order with their words; each must
 *    keep its own address and its own bold.
 */
import { testTokenizer } from '../helpers/tokenizer.js';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { ApertiumEngine } from '../../src/engines/apertium/apertium-engine.js';
import { apertiumDataDir, installedPairs } from '../../src/engines/apertium/create.js';
import type { Format } from '../../src/formats/format.js';
import { findLanguage } from '../../src/languages.js';
import { prepareDocument, translatePrepared } from '../../src/translation/translate-document.js';
import { apertiumSkip } from '../helpers/apertium.js';
import { htmlShape } from '../formats/structure.js';

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/** The words of every node of `type` in a markdown document. */
function wordsOf(markdown: string, type: string): string[] {
  const found: string[] = [];
  const textOf = (node: MdNode): string => node.value ?? (node.children ?? []).map(textOf).join('');
  const walk = (node: MdNode): void => {
    if (node.type === type) found.push(textOf(node));
    for (const child of node.children ?? []) walk(child);
  };
  walk(fromMarkdown(markdown) as unknown as MdNode);
  return found;
}

describe('structure under real translation: faults found by the real-world bench', { skip: apertiumSkip() }, () => {
  let engine: ApertiumEngine;
  before(() => {
    engine = new ApertiumEngine({
      pairs: installedPairs(),
      dataDir: apertiumDataDir(),
      budget: { maxInputTokens: 6000, maxOutputTokens: 16384 },
      timeoutMs: 20_000,
      concurrency: 2,
      tokenizer: testTokenizer,
    });
  });
  after(() => engine?.close());

  const translate = async (content: string, format: Format): Promise<string> => {
    const prepared = await prepareDocument(content, format, {});
    try {
      const result = await translatePrepared({
        prepared,
        targets: [{ requested: 'es', language: findLanguage('es')! }],
        source: findLanguage('en')!,
        engine,
        tokenizer: testTokenizer,
      });
      return result.translations.es!;
    } finally {
      prepared.release();
    }
  };

  test('an emphasis whose only word Apertium drops keeps words, so it is still an emphasis', async () => {
    const content = '> According to [Wikipedia](#), ***You*** is usually a second person pronoun.\n\nThe `tick` method **will** advance the mocked `Date` object.\n';
    const es = await translate(content, 'markdown');
    assert.notEqual(es, content);
    for (const type of ['emphasis', 'strong']) {
      const words = wordsOf(es, type);
      assert.equal(words.length, wordsOf(content, type).length, `every ${type} is there: ${es}`);
      for (const text of words) assert.match(text, /\p{L}/u, `a ${type} with no words is no ${type}: ${es}`);
    }
  });

  test('a line break inside words Apertium joins into one (`There are` → `hay`) is kept, not a refused document', async () => {
    const content = '<p>1.9.5&nbsp;is&nbsp;stable.&nbsp;&nbsp;There<br> are&nbsp;no&nbsp;plans&nbsp;at&nbsp;all.</p>';
    const es = await translate(content, 'html');
    assert.deepEqual(htmlShape(es), htmlShape(content));
    assert.match(es, /hay/, 'translated');
  });

  test('links of an HTML block in markdown keep their own address and bold, in whatever order', async () => {
    const content =
      '# Axios\n\n<p align="center">\n    <a href="https://example.com/"><b>Website</b></a> •\n    <a href="https://example.com/docs/first-steps.html"><b>Documentation</b></a>\n</p>\n';
    const es = await translate(content, 'markdown');
    assert.notEqual(es, content);
    const links = [...es.matchAll(/<a href="([^"]+)"><b>([^<]+)<\/b><\/a>/g)].map((m) => m[1]).sort();
    assert.deepEqual(links, ['https://example.com/', 'https://example.com/docs/first-steps.html']);
    assert.deepEqual([...htmlShape(es)].sort(), [...htmlShape(content)].sort());
  });
});
