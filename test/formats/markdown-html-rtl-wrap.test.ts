/**
 * Issue 31, class 5: the right-to-left wrap (U+202B … U+202C) of HTML inside markdown
 * sits where the html adapter puts it for the same HTML, so a page and a README holding
 * it read alike. One exception, for markdown's sake: nothing is put in front of the tag
 * that opens an HTML block (a mark there would make the line a paragraph). Shapes of our
 * own, written after the README headers that differed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { getAdapter } from '../../src/formats/index.js';
import { byteExactProblem } from './byte-exact.js';
import { LTR, pseudoRender, RTL } from './helpers.js';

/** Where the wrap is, shown as ⟪ ⟫, with every other pseudo mark removed. */
const wraps = (text: string): string =>
  text.replace(/\u202B/g, '⟪').replace(/\u202C/g, '⟫').normalize('NFD').replace(/[\u0300-\u036f]/g, '');

const asHtml = (html: string): string => wraps(pseudoRender(getAdapter('html').extract(html), RTL)).replace(/ dir="rtl"/g, '');
const asMarkdown = (markdown: string): string => wraps(pseudoRender(getAdapter('markdown').extract(markdown), RTL));

const BLOCKS = [
  '<div align="center">\n\t<br>\n\t<img src="media/logo.svg" alt="logo" height="300">\n\t<br>\n\t<b>A collection of useful types</b>\n\t<br>\n\t<br>\n</div>',
  '<h3 align="center">Gold sponsors <br /></h3>',
  '<p align="center">\n    <a href="https://example.org/graphs"><img src="https://example.org/contributors.svg" /></a>\n    </br>\n    <span>Want to help? Read the <a href="./CONTRIBUTING.md">guide</a>.</span>\n</p>',
  '<td align="center">\n  <br>\n  <a href="https://example.org">Example</a> 🏅<br><br>\n</td>',
  '<p><span> </span><b>Item</b> one<b> </b></p>',
  '<p align="center">\n  <b>Bold</b>\n  text here\n</p>',
];

/** Over the 4 KiB at which markdown is read with marked's blocks instead of mdast. */
const FILLER = '\n\n' + 'Filler paragraph with some words in it.\n\n'.repeat(120);

describe('the right-to-left wrap of HTML inside markdown', () => {
  for (const block of BLOCKS) {
    it(`is placed as the html adapter places it: ${JSON.stringify(block.slice(0, 40))}…`, () => {
      const expected = asHtml(block);
      assert.equal(asMarkdown(`${block}\n`), `${expected}\n`);
      assert.equal(asMarkdown(`${block}${FILLER}`).slice(0, expected.length), expected);
    });
  }

  it('starts outside an inline tag that opens a paragraph, as in an HTML block', () => {
    assert.equal(asMarkdown('<b>Note:</b> the service keeps your files\n'), '⟪<b>Note:</b> the service keeps your files⟫\n');
    assert.equal(asMarkdown('Read <a href="x">the guide</a>\n'), '⟪Read <a href="x">the guide</a>⟫\n');
    // Only at the very edge: a tag with a character after it (an unmatched backtick)
    // leaves the mark by the last word, so the backtick keeps its neighbours and its form.
    assert.equal(asMarkdown('#### set(spec) -> Promise<Boolean>`\n'), '#### ⟪set(spec) -> Promise⟫<Boolean>`\n');
    // Markdown delimiters are still crossed: a mark beside `_` would stop it closing.
    assert.equal(asMarkdown('_Note_ **bold <b>x</b>**\n'), '_⟪Note_ **bold <b>x</b>⟫**\n');
  });

  it('puts nothing before the tag that opens an HTML block, which stays a block', () => {
    for (const source of ['<span>\nHello there\n</span>\n', '- <x2/>\n- <x2/>\n  - nested <x2/>\n', '<img src="a.png">\nA logo\n']) {
      const out = pseudoRender(getAdapter('markdown').extract(source), RTL);
      const types = (text: string) => JSON.stringify(fromMarkdown(text), (key, value: unknown) => (key === 'position' || key === 'value' ? undefined : value));
      assert.equal(types(out), types(source), out);
    }
    assert.equal(asMarkdown('<span>\nHello there\n</span>\n'), '<span>\n⟪Hello there⟫\n</span>\n');
  });
});

describe('an HTML block inside a markdown block quote', () => {
  const quoted = [
    '> <details>',
    '> <summary>Show the <b>details</b></summary>',
    '> Some text about',
    '> the details',
    '> </details>',
    '',
    '> > <div align="center">',
    '> > Nested quote text',
    '> > </div>',
    '',
    '- > <p>',
    '  > In a list item',
    '  > </p>',
    '',
  ].join('\n');
  const types = (text: string) => JSON.stringify(fromMarkdown(text), (key, value: unknown) => (key === 'position' || key === 'value' ? undefined : value));

  for (const [name, content] of [['mdast', quoted], ['marked', `${quoted}${FILLER}`]] as const) {
    it(`keeps each line's quote prefix out of the text (${name})`, () => {
      const doc = getAdapter('markdown').extract(content);
      for (const segment of doc.segments) assert.doesNotMatch(segment.text, /(?:^|\n)\s*>/, segment.text);
      assert.ok(doc.segments.some((s) => s.text === 'Some text about<x1/>the details'), JSON.stringify(doc.segments.map((s) => s.text)));
      for (const target of [LTR, RTL]) {
        const out = pseudoRender(doc, target);
        assert.doesNotMatch(out, /&gt;/);
        assert.equal(types(out), types(content));
        assert.equal(byteExactProblem(doc, target), undefined);
      }
      assert.ok(asMarkdown(content).startsWith('> <details>\n> <summary>⟪Show the <b>details</b>⟫</summary>\n> ⟪Some text about'));
    });
  }
});
