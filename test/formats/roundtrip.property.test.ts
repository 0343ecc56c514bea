import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { getAdapter } from '../../src/formats/index.js';
import { markProblem } from '../../src/segments/segment.js';
import { pseudoTranslate } from '../../src/engines/pseudo.js';
import { byteExactProblem } from './byte-exact.js';
import { identityRender, LTR, pseudoRender, RTL, unpseudo } from './helpers.js';
import { htmlShape, markdownShape } from './structure.js';
import { propertyRuns } from '../helpers/property-runs.js';

const RUNS = propertyRuns(150);
const word = fc.constantFrom('Hello', 'world', 'café', 'naïve', 'Save', 'the', 'a', '42', 'don\'t', '日本語', 'Привет', 'x_y', 'foo-bar');
const placeholder = fc.constantFrom('{name}', '{n, number}', '{{x}}', '{{{raw}}}', '%s', '%1$s', '%{x}', '${x}', '$t(key)', 'https://ex.com/a?b=1', 'me@ex.com', '<g1>', '<x2/>', '{c, plural, one {# item} other {# items}}');
const punct = fc.constantFrom('.', ',', '!', '?', ':', ';', '(', ')', '"', "'", '&', '<', '>', '*', '_', '`', '#', '|', '\\', '[', ']', '-', '+');
const space = fc.constantFrom(' ', '  ', '\t', '\n', '\n\n', '\r\n', '\n   ', '\n\n\n');
const piece = fc.oneof({ weight: 5, arbitrary: word }, { weight: 1, arbitrary: placeholder }, { weight: 2, arbitrary: punct }, { weight: 3, arbitrary: space });
const textOf = (maxLength: number) => fc.array(piece, { maxLength }).map((p) => p.join(''));
const inlineText = fc.array(fc.oneof({ weight: 4, arbitrary: word }, { weight: 1, arbitrary: placeholder }), { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));

/** Every segment's pseudo translation must itself satisfy the token check. */
function assertPseudoTokensValid(segments: readonly { text: string }[]): void {
  for (const s of segments) assert.equal(markProblem(s.text, pseudoTranslate(s.text, true)), null);
}

describe('plain round trips', () => {
  it('identity is byte-exact and the pseudo form differs only in letters', () => {
    fc.assert(
      fc.property(textOf(40), (text) => {
        const doc = getAdapter('plain').extract(text);
        assert.equal(identityRender(doc), text);
        assertPseudoTokensValid(doc.segments);
        assert.equal(unpseudo(pseudoRender(doc, RTL)), unpseudo(text));
      }),
      RUNS,
    );
  });
});

describe('json round trips', () => {
  const indent = fc.constantFrom(0, 2, 4, '\t');
  it('identity is byte-exact; pseudo keeps keys and every non-string value', () => {
    fc.assert(
      fc.property(fc.oneof(fc.object({ values: [inlineText, fc.string(), fc.integer(), fc.boolean(), fc.constant(null)] }), fc.array(inlineText)), indent, (value, space) => {
        const source = JSON.stringify(value, null, space);
        const doc = getAdapter('json').extract(source);
        assert.equal(identityRender(doc), source);
        const out = pseudoRender(doc, RTL);
        const strip = (v: unknown): unknown => JSON.parse(unpseudo(JSON.stringify(v)));
        assert.deepEqual(strip(JSON.parse(out)), strip(value));
      }),
      RUNS,
    );
  });
});

describe('markdown round trips', () => {
  const inline = fc
    .array(
      fc.oneof(
        { weight: 4, arbitrary: inlineText },
        { weight: 1, arbitrary: inlineText.map((t) => `*${t}*`) },
        { weight: 1, arbitrary: inlineText.map((t) => `**${t}**`) },
        { weight: 1, arbitrary: inlineText.map((t) => `[${t}](https://ex.com/${t.length} "T ${t}")`) },
        { weight: 1, arbitrary: inlineText.map((t) => `![${t}](i.png)`) },
        { weight: 1, arbitrary: fc.constantFrom('`code`', '<b>bold</b>', '~~del~~', '\\*', '&amp;', 'x  \ny', '[ref]', '[^1]') },
      ),
      { minLength: 1, maxLength: 5 },
    )
    .map((parts) => parts.join(' '));
  const block = fc.oneof(
    inline,
    inline.map((t) => `## ${t}`),
    inline.map((t) => `- ${t}\n- ${t}\n  - nested ${t}`),
    inline.map((t) => `1. ${t}\n2. [ ] ${t}`),
    inline.map((t) => `> ${t}\n> more ${t}`),
    inline.map((t) => `| h | ${t} |\n|---|:-:|\n| ${t} | c |`),
    fc.constantFrom('```js\nconst a = "x";\n```', '    indented code', '<div>\n<p>Html <b>block</b></p>\n</div>', '***', '[ref]: https://ref.example "R"', '[^1]: Note text.'),
  );
  const eol = fc.constantFrom('\n', '\r\n');
  const doc = fc.tuple(fc.array(block, { minLength: 1, maxLength: 8 }), eol, fc.boolean()).map(([blocks, nl, front]) =>
    ((front ? '---\ntitle: x\n---\n\n' : '') + blocks.join('\n\n') + '\n').replace(/\n/g, nl),
  );
  it('identity is byte-exact and pseudo keeps node types and URLs', () => {
    fc.assert(
      fc.property(doc, (source) => {
        const extracted = getAdapter('markdown').extract(source);
        assert.equal(identityRender(extracted), source);
        assertPseudoTokensValid(extracted.segments);
        assert.deepEqual(markdownShape(pseudoRender(extracted, LTR)), markdownShape(source));
        assert.deepEqual(markdownShape(pseudoRender(extracted, RTL)), markdownShape(source));
        // Escapes and line prefixes are source bytes (docs/formats.md, "Markdown escapes").
        assert.equal(byteExactProblem(extracted, LTR), undefined);
        assert.equal(byteExactProblem(extracted, RTL), undefined);
      }),
      RUNS,
    );
  });

  it('arbitrary text never breaks the byte-exact identity', () => {
    fc.assert(
      fc.property(textOf(60), (source) => {
        assert.equal(identityRender(getAdapter('markdown').extract(source)), source);
      }),
      RUNS,
    );
  });
});

describe('html round trips', () => {
  const text = fc.array(fc.oneof(word, placeholder, fc.constantFrom(' ', '\n  ', '&amp;', '&lt;', '&#39;', '&nbsp;')), { minLength: 1, maxLength: 5 }).map((w) => w.join(' '));
  const attr = fc.constantFrom('', ' class="c"', ' title="A title"', " alt='Alt & more'", ' data-x=1', ' aria-label="Label"', ' translate="no"', ' class="notranslate"');
  const node: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      text,
      fc.constantFrom('<br>', '<img src="a.png" alt="An image">', '<input type="submit" value="Send">', '<!-- c -->', '<code>x()</code>', '<script>var s = "<p>x</p>";</script>'),
      fc.tuple(fc.constantFrom('p', 'div', 'span', 'b', 'a', 'li', 'h2', 'td', 'pre', 'em'), attr, fc.array(tie('node'), { maxLength: 4 })).map(
        ([tag, attrs, children]) => `<${tag}${attrs}>${children.join('')}</${tag}>`,
      ),
    ),
  })).node;
  it('identity is byte-exact and pseudo keeps tags and attributes', () => {
    fc.assert(
      fc.property(fc.array(node, { minLength: 1, maxLength: 5 }), fc.boolean(), (nodes, full) => {
        const body = nodes.join('\n');
        const source = full ? `<!DOCTYPE html><html lang="en"><body>${body}</body></html>` : body;
        const doc = getAdapter('html').extract(source);
        assert.equal(identityRender(doc, { code: 'en', rtl: false }), source);
        assertPseudoTokensValid(doc.segments);
        assert.deepEqual(htmlShape(pseudoRender(doc, RTL), { ignoreDir: true }), htmlShape(source, { ignoreDir: true }));
      }),
      RUNS,
    );
  });

  it('malformed markup never crashes and never loses a byte', () => {
    const soup = fc.array(fc.constantFrom('<', '>', '</', '/>', '"', "'", '=', 'p', 'b', 'div', 'a href', ' ', 'text', '&', ';', '!--', '\n', 'script'), { maxLength: 40 }).map((p) => p.join(''));
    fc.assert(
      fc.property(soup, (source) => {
        const doc = getAdapter('html').extract(source);
        assert.equal(identityRender(doc), source);
        pseudoRender(doc, RTL);
      }),
      RUNS,
    );
  });
});
