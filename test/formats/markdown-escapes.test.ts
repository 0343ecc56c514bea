/**
 * Markdown escapes and line breaks follow the source (docs/formats.md "Markdown escapes",
 * decision 0009): under pseudo the source comes back byte for byte; a model's own
 * characters are escaped only where they would form syntax; each line break keeps the
 * source line's ending and prefix. Cases are shaped like the real-world failures of
 * bench/formats/real-world.ts, written here.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getAdapter } from '../../src/formats/index.js';
import { GROUP_SIZE } from '../../src/formats/markdown/adapter.js';
import { byteExactProblem } from './byte-exact.js';
import { LTR, RTL } from './helpers.js';

const markdown = getAdapter('markdown');
const FILLER = '\n' + 'A filler paragraph that only adds length to the document.\n\n'.repeat(Math.ceil(GROUP_SIZE / 50));

const PSEUDO_CASES: Record<string, string> = {
  'an alert box marker': '> [!IMPORTANT]\n> Keep the box.\n',
  'underscores inside a word': 'Set FST_ERR_NOT_FOUND and snake_case names.\n',
  'brackets without a link': 'Call create([options]) or fn(a[, b]).\n',
  'a lone less-than': 'Works on Node.js < 5 and <= 4.\n',
  'a number and a dot opening a lazy line': '- Step `types` is the output path.\n5. Run it.\n',
  'a pipe entity in a table': '| a | b |\n|---|---|\n| x &#124; y | z |\n',
  'a quoted star': 'Append a "*" to the name.\n',
  'entities for angle brackets': 'Copyright Someone &lt;someone@example.com&gt; here.\n',
  'an escaped dollar': 'See [\\$data reference](https://example.com).\n',
  'an escaped list marker': '\\- [Someone] wrote this.\n',
  'an escaped pipe and brackets in a paragraph': 'Takes Node \\| Node[] as input.\n',
  'a literal backslash': "Splits on '/\\r?\\n/' by default.\n",
  'a lazy continuation line': '- **Bugs**: flaws in\nuser-written route handlers\n',
  'a tab after the marker and a tab-indented line': '*\t`scheme` (string)\n\tIndicates the scheme.\n',
  'a trailing space before a line break': 'Its \n  argument is a string.\n',
  'a line break inside image alt text': '[![Package Manager\nCI](https://example.com/b.svg)](https://example.com)\n',
  'over-indented continuation': '- with In-memory, File\n   and Other engines\n',
  'a definition title': 'See [guide].\n\n[guide]: https://example.com "The \\"guide\\" title"\n',
  'kbd keys': 'Press <kbd>Ctrl</kbd>+<kbd>C</kbd> to copy.\n',
  'CRLF line endings in a quote': '> first line\r\n> second [x] line\r\n',
};

describe('markdown under pseudo is byte-exact', () => {
  for (const [name, source] of Object.entries(PSEUDO_CASES)) {
    for (const [path, content] of [['short', source], ['long', source + FILLER]] as const) {
      it(`${name} (${path} document)`, () => {
        const doc = markdown.extract(content);
        assert.ok(doc.segments.length > 0);
        for (const target of [LTR, RTL]) assert.equal(byteExactProblem(doc, target), undefined);
      });
    }
  }
});

/** Renders `source` with the first segment translated as `translation`. */
function withTranslation(source: string, translation: string, index = 0): string {
  const doc = markdown.extract(source);
  const translations = doc.segments.map((s, i) => (i === index ? translation : s.text));
  return doc.render(translations, LTR);
}

describe('a model translation keeps the source escapes and whitespace, and escapes only new syntax', () => {
  it('keeps each source escape where the same character comes back', () => {
    assert.equal(withTranslation('Use \\_private and \\*stars\\*.\n', 'Utilisez _private et *stars*.'), 'Utilisez \\_private et \\*stars\\*.\n');
  });

  it('leaves a model underscore inside a word and a lone less-than bare', () => {
    assert.equal(withTranslation('Plain words.\n', 'Mot_composé < 5'), 'Mot_composé < 5\n');
  });

  it('escapes a model star, backtick, bracket pair and tag that would form syntax', () => {
    assert.equal(withTranslation('Plain words.\n', 'a *b* `c` [d] <b>'), 'a \\*b\\* \\`c\\` \\[d\\] \\<b>\n');
  });

  it('escapes a model pipe in a table cell only', () => {
    const source = '| a | b |\n|---|---|\n| cell | x |\n';
    assert.equal(withTranslation(source, 'x | y', 2), '| a | b |\n|---|---|\n| x \\| y | x |\n');
    assert.equal(withTranslation('Plain words.\n', 'x | y'), 'x | y\n');
  });

  it('escapes a line the model opens like a block, not one that opens as the source line did', () => {
    assert.equal(withTranslation('First line\nsecond line.\n', 'Première\n# pas un titre'), 'Première\n\\# pas un titre\n');
    // (`5.` cannot interrupt a paragraph: in the source it is text, and so it stays.)
    assert.equal(withTranslation('Step one is\n5. Run it.\n', 'Étape un\n5. Lancez-le.'), 'Étape un\n5. Lancez-le.\n');
  });

  it('gives each line break the source line ending and prefix, then the container prefix', () => {
    const source = '> - **Bugs**: flaws in\nuser-written handlers\n>   and more\n';
    const doc = markdown.extract(source);
    assert.equal(doc.segments[0]!.text, '<g1>Bugs</g1>: flaws in\nuser-written handlers\nand more');
    const out = doc.render(['<g1>Bogues</g1> : défauts dans\nles gestionnaires\net plus\nencore'], LTR);
    assert.equal(out, '> - **Bogues** : défauts dans\nles gestionnaires\n>   et plus\n>   encore\n');
  });

  it('drops the model whitespace around a line break and never makes a blank line', () => {
    assert.equal(withTranslation('Its \n  argument.\n', 'Son  \n\n   argument.'), 'Son \n  argument.\n');
  });

  it('escapes a model backslash only before punctuation or a line end', () => {
    // `\d` stays; `\*` becomes a literal backslash and a literal star; a final `\` is doubled.
    assert.equal(withTranslation('Plain words.\n', 'C:\\dir \\* x\\'), 'C:\\dir \\\\\\* x\\\\\n');
  });

  it('keeps a GitHub alert marker as a token, so a translation cannot rename it', () => {
    for (const source of ['> [!NOTE]\n> Read this first.\n', '> [!WARNING]\n> **Careful** here.\n']) {
      const doc = markdown.extract(source);
      assert.match(doc.segments[0]!.text, /^<x1\/>\n/);
      assert.equal(doc.render([doc.segments[0]!.text.replace('Read this first', 'Lisez ceci').replace('Careful', 'Attention').replace(' here', ' ici')], LTR), source.replace('Read this first', 'Lisez ceci').replace('Careful', 'Attention').replace(' here', ' ici'));
    }
    // Outside a block quote it is text.
    assert.equal(markdown.extract('[!NOTE] is text here.\n').segments[0]!.text, '[!NOTE] is text here.');
  });

  it('translates a reference definition title with its quote escaped', () => {
    const source = 'See [guide].\n\n[guide]: https://example.com "Guide"\n';
    assert.equal(withTranslation(source, 'Le "guide"', 1), 'See [guide].\n\n[guide]: https://example.com "Le \\"guide\\""\n');
  });
});
