import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { getAdapter } from '../../src/formats/index.js';
import { pseudoTranslate } from '../../src/engines/pseudo.js';

function renderPseudo(source: string, rtl: boolean): string {
  const doc = getAdapter('markdown').extract(source);
  return doc.render(new Map(doc.segments.map((s) => [s.id, pseudoTranslate(s.text, rtl)])), { code: rtl ? 'ar' : 'fr', rtl });
}

function nodeTypes(markdown: string): string[] {
  const types: string[] = [];
  const walk = (node: { type: string; children?: unknown[] }) => {
    types.push(node.type);
    for (const child of (node.children ?? []) as { type: string }[]) walk(child);
  };
  walk(fromMarkdown(markdown) as never);
  return types;
}

describe('HTML inside markdown', () => {
  it('keeps the line breaks of an HTML block\'s text: in markdown they are structure', () => {
    const source = '<div>\nSome text\n  more text\n</div>\n\nPara\n';
    const out = renderPseudo(source, false);
    assert.equal(out, '<div>\nŠöṁé ţéẋţ\n  ṁöŕé ţéẋţ\n</div>\n\nṖáŕá\n');
  });

  it('leaves an element that wraps no text outside the segment, so nothing lands before a line-start tag', () => {
    // Found by the round-trip property: `<x2/>` opening a list item is an HTML block
    // that runs on to the nested line; a right-to-left mark before it made a paragraph.
    const source = '- <x2/>\n- <x2/>\n  - nested <x2/>\n';
    for (const rtl of [false, true]) {
      const out = renderPseudo(source, rtl);
      assert.deepEqual(nodeTypes(out), nodeTypes(source), out);
      assert.ok(out.includes('\n- <x2/>\n'), out);
    }
  });
});
