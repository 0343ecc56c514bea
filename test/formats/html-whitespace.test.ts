import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getAdapter } from '../../src/formats/index.js';
import { fixtures, identityRender, LTR, RTL } from './helpers.js';
import { byteExactProblem } from './byte-exact.js';

const html = getAdapter('html');

/**
 * Shapes of the pages the pseudo engine's output did not give back byte for byte
 * (docs/formats.md § html, decision 0008): whitespace between tags and inside text,
 * whitespace written as a character reference, and references in translated text.
 */
const SHAPES: Record<string, string> = {
  'indentation before an image that opens a run': '<div class="banner">\n      <img src="logo.svg" alt="The logo"> Fast and small\n    </div>\n',
  'a line break and two spaces inside text': '<p>Welcome to this page!  It is, like so\nmany others, still being written.</p>\n',
  'tabs after a line break in text': '<p>You may copy it and/or change it\n\tunder the terms of the licence.</p>',
  'indentation before an inline element in a heading': '<h1>\n      The Widget Library\n      <small>Release 3.1.4</small>\n    </h1>\n',
  'a no-break space between links, with line breaks around it':
    '<td><a href="#A"><b>A</b></a>\n &nbsp; \n<a href="#B"><b>B</b></a>\n &nbsp; \n<a href="#C"><b>C</b></a></td>',
  'a paragraph opening with a carriage-return reference and tabs (DocBook)':
    '<P\nCLASS="bibliomixed"\n>&#13;\t\tThe Desktop <I\nCLASS="citetitle"\n>Handbook</I\n>,\n\t\t<A\nHREF="http://example.org"\n>online</A\n>.&#13;\n\t</P\n>',
  'references in text': '<p>Don&#39;t mix &lt;tags&gt; &amp; words&nbsp;here &ndash; it&rsquo;s &copy;&#x20;2024.</p>',
  'line breaks around code and placeholders': '<li>Call\n  <code>init()</code>\n  with {count} items, then\n  <code>run()</code>.\n</li>',
  'whitespace inside an inline element': '<p>Read <a href="/m">the\n   manual</a>  first.</p>',
};

describe('html whitespace and references under the pseudo engine', () => {
  for (const [name, source] of Object.entries(SHAPES)) {
    it(`gives back the source byte for byte: ${name}`, () => {
      const doc = html.extract(source);
      assert.equal(identityRender(doc), source);
      for (const target of [LTR, RTL]) assert.equal(byteExactProblem(doc, target), undefined, `${target.code}`);
    });
  }

  it('shows the engine each whitespace run as one space, and no whitespace at a segment edge', () => {
    const texts = (source: string) => html.extract(source).segments.map((s) => s.text);
    assert.deepEqual(texts(SHAPES['a line break and two spaces inside text']!), [
      'Welcome to this page! It is, like so many others, still being written.',
    ]);
    assert.deepEqual(texts(SHAPES['indentation before an inline element in a heading']!), ['The Widget Library <g1>Release 3.1.4</g1>']);
    // `&#13;` and tabs open the paragraph: template, not text.
    assert.deepEqual(texts(SHAPES['a paragraph opening with a carriage-return reference and tabs (DocBook)']!), [
      'The Desktop <g1>Handbook</g1>, <g2>online</g2>.',
    ]);
    assert.deepEqual(texts(SHAPES['references in text']!), ["Don't mix <tags> & words\u00a0here – it’s © 2024."]);
  });

  it('identity renders of every html fixture stay exact, and so do pseudo renders', () => {
    for (const { name, content } of fixtures('html')) {
      const doc = html.extract(content);
      // A page's <html lang> becomes the target: rendered for its own language it stays.
      const source = { code: /<html[^>]*\slang="([^"]+)"/.exec(content)?.[1] ?? 'fr', rtl: false };
      assert.equal(identityRender(doc, source), content, name);
      for (const target of [LTR, RTL]) assert.equal(byteExactProblem(doc, target), undefined, `${name} ${target.code}`);
    }
  });
});

describe('html whitespace inside markdown (HTML blocks go through the same escaper)', () => {
  it('gives back the runs of spaces and the line breaks of an HTML block under pseudo', () => {
    const source = '# Title\n\n<div align="center">\n  <img src="logo.png" alt="The logo">\n  <p>Fast,   small\n  and <b>safe</b> &amp; sound</p>\n</div>\n\nText.\n';
    const doc = getAdapter('markdown').extract(source);
    assert.ok(doc.segments.some((s) => s.text === 'Fast, small<x1/>and <g1>safe</g1> & sound'));
    for (const target of [LTR, RTL]) assert.equal(byteExactProblem(doc, target), undefined, target.code);
  });
});

describe('html whitespace and references with a real model answer', () => {
  it('falls back to single spaces when the source text cannot be lined up (token-like text is a literal atom)', () => {
    const doc = html.extract('<p>Type\n  &lt;g1&gt; here,\n  then go.</p>');
    assert.deepEqual(doc.segments.map((s) => s.text), ['Type <x1/> here, then go.']);
    assert.equal(doc.render(['Tapez <x1/> ici,\n puis allez.'], LTR), '<p>Tapez &lt;g1&gt; ici, puis allez.</p>');
  });

  it('keeps the whitespace around the segment and each tag as the source has it, and reflowed words get single spaces', () => {
    const source = '<ul>\n  <li>\n    Read the <a href="/docs">manual\n    pages</a> before you\n    start.\n  </li>\n</ul>\n';
    const doc = html.extract(source);
    assert.deepEqual(doc.segments.map((s) => s.text), ['Read the <g1>manual pages</g1> before you start.']);
    // Other words, a doubled space, a tab and a line break where the source had none: the
    // inner runs do not line up (5 against 4), so each is one space.
    const answer = "Lisez  les <g1>pages du\tmanuel</g1> avant de\ncommencer, s'il vous plaît.";
    assert.equal(
      doc.render([answer], LTR),
      "<ul>\n  <li>\n    Lisez les <a href=\"/docs\">pages du manuel</a> avant de commencer, s'il vous plaît.\n  </li>\n</ul>\n",
    );
  });

  it("gives each moved token the source's whitespace on the side the translation has some", () => {
    const source = '<p>\n  Run\n  <code>make</code>\n  first, then  <em>test</em>.\n</p>';
    const doc = html.extract(source);
    assert.deepEqual(doc.segments.map((s) => s.text), ['Run <x1/> first, then <g1>test</g1>.']);
    assert.equal(
      doc.render(["D'abord <x1/>\n lancez, puis <g1>testez</g1>  .  "], LTR),
      // Before and after <code>: the source's line break and indentation; before <em>: its
      // two spaces; after </em> the source had none, so one space; the answer's trailing
      // spaces are dropped (the `\n` before `</p>` is the template's).
      "<p>\n  D'abord\n  <code>make</code>\n  lancez, puis  <em>testez</em> .\n</p>",
    );
  });

  it("writes a character the source spelled as a reference the source's way when the counts match, else as little escaping as HTML needs", () => {
    const doc = html.extract(SHAPES['references in text']!);
    assert.equal(
      doc.render(["N'y mélangez <balises> & mots\u00a0ici – c’est © 2024."], LTR),
      // Eight inner whitespace runs as in the source, so the eighth is its `&#x20;`.
      '<p>N&#39;y mélangez &lt;balises&gt; &amp; mots&nbsp;ici &ndash; c&rsquo;est &copy;&#x20;2024.</p>',
    );
    // Two apostrophes against one, `&`, `<` and a literal reference in the answer's own words.
    assert.equal(
      doc.render(["L'outil <b> & co l'aime : a<b, x&y; AT&T, &amp; <!-- fin"], LTR),
      "<p>L'outil &lt;b&gt; & co l'aime : a&lt;b, x&amp;y; AT&amp;T, &amp;amp; &lt;!-- fin</p>",
    );
  });

  it('escapes a last & or < before a tag, and nothing a reader would take for text', () => {
    const doc = html.extract('<p>Fish <b>and</b> chips</p>');
    assert.equal(doc.render(['A & B < <g1>C &</g1> D <'], LTR), '<p>A & B < <b>C &amp;</b> D <</p>');
  });
});
