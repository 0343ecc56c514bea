import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServiceError } from '../../src/errors.js';
import { getAdapter } from '../../src/formats/index.js';
import { markProblem } from '../../src/segments/segment.js';
import { identityRender, LTR, pseudoRender, RTL } from './helpers.js';

const html = getAdapter('html');
const markdown = getAdapter('markdown');
const json = getAdapter('json');
const plain = getAdapter('plain');

describe('inline markup stays with its words', () => {
  it('an html link inside a sentence is one segment with a pair of original tag bytes', () => {
    const doc = html.extract('<p>Click <a href="/x">here</a> now</p>');
    assert.deepEqual(doc.segments.map((s) => s.text), ['Click <g1>here</g1> now']);
    const moved = doc.render(new Map([['s1', '<g1>Ici</g1> cliquez maintenant']]), LTR);
    assert.equal(moved, '<p><a href="/x">Ici</a> cliquez maintenant</p>');
  });

  it('markdown emphasis, links and inline code are tokens inside one segment', () => {
    const source = 'Read the **[setup guide](https://x.y/a_b)** and run `npm i`.\n';
    const doc = markdown.extract(source);
    assert.deepEqual(doc.segments.map((s) => s.text), ['Read the <g1><g2>setup guide</g2></g1> and run <x1/>.']);
    const moved = doc.render(new Map([['s1', 'Lancez <x1/> après le <g1><g2>guide</g2></g1>.']]), LTR);
    assert.equal(moved, 'Lancez `npm i` après le **[guide](https://x.y/a_b)**.\n');
  });

  it('a translation that swaps two pairs renders each with its own bytes', () => {
    const doc = html.extract('<p><b>bold</b> and <i class="c">italic</i></p>');
    const out = doc.render(new Map([['s1', '<g2>italique</g2> et <g1>gras</g1>']]), LTR);
    assert.equal(out, '<p><i class="c">italique</i> et <b>gras</b></p>');
  });

  it('a broken translation is refused rather than rendered', () => {
    const doc = html.extract('<p>Click <a href="/x">here</a> now</p>');
    assert.throws(
      () => doc.render(new Map([['s1', 'Click here now']]), LTR),
      (error: unknown) => error instanceof ServiceError && error.code === 'translation_error',
    );
  });
});

describe('markProblem', () => {
  const source = 'Hello <g1>dear <x1/></g1> and <x2/>';
  it('accepts moved tokens', () => assert.equal(markProblem(source, '<x2/> et <g1><x1/> cher</g1> bonjour'), null));
  it('rejects a missing token', () => assert.match(markProblem(source, 'Hello <g1>dear <x1/></g1>')!, /missing token <x2\/>/));
  it('rejects an invented token', () => assert.match(markProblem(source, 'Hello <g1>dear <x1/></g1> <x2/><x3/>')!, /unexpected token <x3\/>/));
  it('rejects a duplicated token', () => assert.match(markProblem(source, 'Hello <g1>dear <x1/></g1> <x2/><x2/>')!, /more than once/));
  it('rejects an unbalanced pair', () => assert.match(markProblem(source, 'Hello </g1>dear <x1/><g1> <x2/>')!, /not properly nested/));
  it('checks tens of thousands of tokens in the source order in linear time, and still finds a fault among them', () => {
    const many = Array.from({ length: 50_000 }, (_, i) => `<g${i + 1}>w</g${i + 1}> <x${i + 1}/>`).join(' ');
    const translated = many.replaceAll('w', 'v');
    const started = performance.now();
    assert.equal(markProblem(many, translated), null);
    assert.ok(performance.now() - started < 1000, `${(performance.now() - started).toFixed(0)} ms`);
    const crossed = `<g1>a <g2>b</g1></g2> ${many.slice(many.indexOf('<x1/>'))}`;
    assert.match(markProblem(crossed, crossed)!, /not properly nested/);
    const twice = `${many} <x7/>`;
    assert.match(markProblem(twice, twice)!, /<x7\/> appears more than once/);
  });
});

describe('lang and dir', () => {
  it('a full document gets the target lang, and dir="rtl" for an RTL target, on <html> only', () => {
    const source = '<!doctype html>\n<html lang="en"><body><p>Hello</p></body></html>';
    const doc = html.extract(source);
    assert.equal(identityRender(doc, LTR), source.replace('lang="en"', 'lang="fr"'));
    assert.equal(identityRender(doc, RTL), source.replace('lang="en"', 'lang="ar" dir="rtl"'));
  });

  it('an <html> without lang gets no lang; an existing dir is set, not duplicated', () => {
    const doc = html.extract("<html dir='ltr'><p>Hi</p></html>");
    assert.equal(identityRender(doc, RTL), "<html dir='rtl'><p>Hi</p></html>");
    assert.equal(identityRender(doc, LTR), "<html dir='ltr'><p>Hi</p></html>");
    assert.equal(identityRender(html.extract('<html><p>Hi</p></html>'), LTR), '<html><p>Hi</p></html>');
  });

  it('a fragment gets dir="rtl" on its top-level elements for an RTL target, nothing for LTR', () => {
    const source = '<p>One <b>two</b></p>\n<div><p>Three</p></div>\n<script>x()</script>';
    const doc = html.extract(source);
    assert.equal(identityRender(doc, LTR), source);
    assert.equal(identityRender(doc, RTL), '<p dir="rtl">One <b>two</b></p>\n<div dir="rtl"><p>Three</p></div>\n<script>x()</script>');
  });

  it('plain and markdown get nothing added for an RTL target', () => {
    const md = '# Title\n\n<p>html block</p>\n';
    assert.equal(identityRender(markdown.extract(md), RTL), md);
    assert.equal(identityRender(plain.extract('Hello\nworld'), RTL), 'Hello\nworld');
  });
});

describe('html rules', () => {
  it('translates exactly the contract attributes and escapes them for their quotes', () => {
    const source =
      '<img alt="Cat" src="c.png" data-x="No"><input type="button" value="Go"><input type="text" value="Keep">' +
      "<option label='Opt'>A</option><meta name=\"description\" content=\"Desc\"><meta name=\"author\" content=\"Ann\">" +
      '<a href="/x" title="T" aria-label="L" aria-description="D" class="Keep">x</a>';
    const doc = html.extract(source);
    const attrs = doc.segments.filter((s) => s.kind === 'attr').map((s) => `${s.ctx}=${s.text}`);
    assert.deepEqual(attrs, ['img@alt=Cat', 'input@value=Go', 'option@label=Opt', 'meta@content=Desc', 'a@title=T', 'a@aria-label=L', 'a@aria-description=D']);
    const alt = doc.segments.find((s) => s.ctx === 'img@alt')!;
    const out = doc.render(new Map([[alt.id, 'Le "chat" & <co>']]), LTR);
    assert.ok(out.startsWith('<img alt="Le &quot;chat&quot; &amp; &lt;co>" src="c.png" data-x="No">'), out);
  });

  it('never translates script, style, pre, code, template, textarea, translate="no" or .notranslate', () => {
    const source =
      '<script>var a = "Hello";</script><style>p{}</style><pre>Pre text</pre><template>Tpl</template>' +
      '<textarea>Area</textarea><div translate="no">No <b>bold</b></div><p class="x notranslate">Brand</p><p>See <code>code</code></p>';
    const doc = html.extract(source);
    assert.deepEqual(doc.segments.map((s) => s.text), ['See <x1/>']);
  });

  it('escapes & < > in translated text', () => {
    const doc = html.extract('<p>Fish &amp; chips</p>');
    assert.equal(doc.segments[0]!.text, 'Fish & chips');
    assert.equal(doc.render(new Map([['s1', 'Poisson & frites <3 >']]), LTR), '<p>Poisson &amp; frites &lt;3 &gt;</p>');
  });

  it('keeps the bytes of malformed markup and does not crash', () => {
    for (const source of ['<p>a <b>b</p> c</b>', '<div <p>x', '</p></p>text<', '<a href="x>y</a>', '<<<>>>&&&;', '<p title="x>open']) {
      assert.equal(identityRender(html.extract(source)), source);
      pseudoRender(html.extract(source), RTL);
    }
  });
});

describe('markdown rules', () => {
  it('keeps shortcut and collapsed reference link text, translates full reference text', () => {
    const doc = markdown.extract('See [Keep a Changelog], [Home][] and [the docs][d].\n\n[keep a changelog]: https://k\n[home]: /\n[d]: /d\n');
    assert.deepEqual(doc.segments.map((s) => s.text), ['See <x1/>, <x2/> and <g1>the docs</g1>.']);
  });

  it('makes image alt and link title attr segments spliced inside the tokens', () => {
    const doc = markdown.extract('A ![cat photo](c.png "A cat") and [link](/x \'Title\').\n');
    assert.deepEqual(doc.segments.map((s) => `${s.kind}:${s.text}`), ['block:A <x1/> and <g1>link</g1>.', 'attr:cat photo', 'attr:A cat', 'attr:Title']);
    const out = doc.render(new Map([['s2', 'photo [chat]'], ['s3', 'Un "chat"'], ['s4', "L'titre"]]), LTR);
    assert.equal(out, 'A ![photo \\[chat\\]](c.png "Un \\"chat\\"") and [link](/x \'L\\\'titre\').\n');
  });

  it('escapes translated text so it cannot become markup', () => {
    const doc = markdown.extract('Hello world\n\n| a | b |\n|---|---|\n| c | d |\n');
    const out = doc.render(new Map([['s1', '# not *a* heading\n- not a list'], ['s5', 'x | y']]), LTR);
    assert.equal(out, '\\# not \\*a\\* heading\n\\- not a list\n\n| a | b |\n|---|---|\n| c | x \\| y |\n');
  });

  it('a line break in a translated paragraph keeps the container prefix', () => {
    const doc = markdown.extract('> - one\n>   two\n');
    assert.equal(doc.segments[0]!.text, 'one\ntwo');
    assert.equal(doc.render(new Map([['s1', 'un\ndeux\ntrois']]), LTR), '> - un\n>   deux\n>   trois\n');
  });

  it('leaves code, front matter, html comments and definitions alone, but for a definition title', () => {
    const source = '---\ntitle: T\n---\n\n```\ncode\n```\n\n    indented\n\n<!-- note -->\n\n[a]: https://a "t"\n';
    // The title is shown as a tooltip, like a link's (docs/contract.md §4).
    assert.deepEqual(markdown.extract(source).segments.map((s) => `${s.ctx}:${s.text}`), ['definition@title:t']);
  });
});

describe('json rules', () => {
  it('translates prose values only, never keys or non-prose strings', () => {
    const source = '{"Save": "Save", "id": "btn_primary", "url": "https://x.y", "date": "2024-01-02", "v": "1.2.3", "p": "a/b.png", "u": "550e8400-e29b-41d4-a716-446655440000", "k": "checkout.button.label", "n": "42", "e": "a@b.co", "blank": " "}';
    const doc = json.extract(source);
    // (and with no key path: decision 0007)
    assert.deepEqual(doc.segments, [{ id: 's1', text: 'Save', kind: 'value' }]);
  });

  it('splices JSON-escaped translations at the literal and keeps whitespace', () => {
    const source = '{\n  "a" : [ "Hello \\"you\\"" ,1 ]\n}';
    const doc = json.extract(source);
    assert.equal(doc.segments[0]!.text, 'Hello "you"');
    assert.equal(doc.render(new Map([['s1', 'Salut "toi"\n\\']]), LTR), '{\n  "a" : [ "Salut \\"toi\\"\\n\\\\" ,1 ]\n}');
  });

  it('masks :name markers in JSON values only', () => {
    assert.equal(json.extract('{"m": "Hi :name"}').segments[0]!.text, 'Hi <x1/>');
    assert.equal(plain.extract('Hi :name').segments[0]!.text, 'Hi :name');
  });

  it('rejects content that is not JSON with invalid_request', () => {
    for (const bad of ['{"a": }', '{a: 1}', "{'a': 1}", '[1, 2,]', '', '// c\n{}']) {
      assert.throws(() => json.extract(bad), (e: unknown) => e instanceof ServiceError && e.code === 'invalid_request', bad);
    }
  });
});

describe('plain rules', () => {
  it('paragraphs are segments; in-paragraph line breaks with indentation are atoms', () => {
    const source = '\n  First line\n    second line\n\n\n\tNext para  \n';
    const doc = plain.extract(source);
    assert.deepEqual(doc.segments.map((s) => s.text), ['First line<x1/>second line', 'Next para']);
    assert.equal(doc.render(new Map([['s1', 'Première<x1/>deuxième'], ['s2', 'Suite']]), LTR), '\n  Première\n    deuxième\n\n\n\tSuite  \n');
  });

  it('a segment of only punctuation, digits or placeholders is not sent', () => {
    assert.equal(plain.extract('---\n\n42 %s {name}\n\n...').segments.length, 0);
  });
});
