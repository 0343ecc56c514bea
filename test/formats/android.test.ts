/**
 * Android `strings.xml` (docs/formats.md "android", CONTRACT §5 and §6): every answer is
 * well-formed XML (judged by Python's expat), compiled by Debian's aapt (which reads back
 * the value a translation meant), read back by translate-toolkit's Android
 * reader (Debian's translate-toolkit, a second judge that applies aapt's escapes) with the
 * texts that were written, byte-exact under pseudo outside the values, `<plurals>` in the
 * target's whole-number quantities plus `other`, `translatable="false"` left out, and bad
 * input refused with its line.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServiceError } from '../../src/errors.js';
import { detectFormat, getAdapter } from '../../src/formats/index.js';
import { byteExactProblem } from './byte-exact.js';
import { identityRender, pseudoRender } from './helpers.js';
import { aaptValues, quantities, toolkitUnits } from './android-judges.js';

const SOURCE = `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE resources [
    <!ENTITY app "Acme">
]>
<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2" xmlns:tools="http://schemas.android.com/tools">
    <!-- The checkout button -->
    <string name="pay">Pay now</string>
    <string name="app_name" translatable="false">Acme</string>
    <string name="greeting">Hello, <xliff:g id="name" example="Ada">%1$s</xliff:g>! You\\'re <b>late</b> &amp; \\"lost\\" in &app;</string>
    <string name="lines">First line\\nSecond
        line</string>
    <string name="terms"><![CDATA[Read the <a href="%1$s">terms</a> first]]></string>
    <string name="link">@string/pay</string>
    <string name="question">Delete this file\\?</string>
    <string-array name="planets">
        <item>Mercury is hot</item>
        <item>Venus</item>
    </string-array>
    <string-array name="codes" translatable="false">
        <item>x1</item>
    </string-array>
    <plurals name="files">
        <item quantity="one">%d file deleted</item>
        <item quantity="other">%d files deleted</item>
    </plurals>
</resources>
`;

const doc = getAdapter('android').extract(SOURCE);
const segmentOf = (text: string) => {
  const segment = doc.segments.find((s) => s.text.startsWith(text));
  assert.ok(segment, `no segment starts with ${text}: ${doc.segments.map((s) => s.text).join(' | ')}`);
  return segment;
};

describe('android strings.xml', () => {
  it('is detected', () => {
    assert.equal(detectFormat(SOURCE).format, 'android');
  });

  it('translates strings, array items and plural items; leaves references and names', () => {
    const texts = doc.segments.map((s) => s.text);
    assert.ok(texts.includes('Pay now'));
    assert.ok(texts.includes('Mercury is hot'));
    assert.ok(texts.some((t) => t.includes('files deleted')));
    assert.ok(!texts.some((t) => t.includes('@string') || t.includes('Acme') || t === 'x1'));
  });

  it('gives the model decoded text: escapes as characters, <xliff:g>, entities and CDATA brackets as atoms, markup as pairs', () => {
    assert.equal(segmentOf('Hello').text, `Hello, <x1/>! You're <g1>late</g1> <x2/> "lost" in <x3/>`);
    assert.equal(segmentOf('Delete').text, 'Delete this file?');
    assert.match(segmentOf('<x1/>Read').text, /^<x1\/>Read the <g1>terms<\/g1> first<x2\/>$/);
  });

  it('gives the comment before a resource to the model as its note', () => {
    assert.match(segmentOf('Pay now').note ?? '', /The checkout button/);
  });

  it('names each entry by its resource name (an array is one entry, plurals with their forms)', () => {
    const entries = (doc as unknown as { entries: { key: string; forms?: Record<string, string> }[] }).entries;
    assert.deepEqual(
      entries.map((e) => e.key),
      ['pay', 'greeting', 'lines', 'terms', 'link', 'question', 'planets', 'files'],
    );
    assert.deepEqual(Object.keys(entries.at(-1)!.forms!), ['one', 'other']);
  });

  for (const target of [
    { code: 'de', rtl: false },
    { code: 'fr', rtl: false },
    { code: 'ru', rtl: false },
    { code: 'ja', rtl: false },
    { code: 'ar', rtl: true },
  ]) {
    it(`answers ${target.code}: well-formed, byte-exact under pseudo, read by translate-toolkit`, () => {
      const answer = pseudoRender(doc, target);
      quantities(answer);
      assert.equal(byteExactProblem(doc, target), undefined);
      assert.ok(aaptValues(answer).size > 0, 'aapt compiles the answer');
      const units = toolkitUnits(answer);
      assert.ok(!('app_name' in units) && !('codes' in units), 'translatable="false" resources are left out');
      assert.equal(units.link, '@string/pay');
    });
  }

  it('writes each target\'s whole-number plural quantities plus other (CONTRACT §5)', () => {
    const expected: Record<string, string[]> = { en: ['one', 'other'], fr: ['one', 'many', 'other'], ru: ['one', 'few', 'many', 'other'], pl: ['one', 'few', 'many', 'other'], ja: ['other'], ar: ['one', 'zero', 'two', 'few', 'many', 'other'], cy: ['one', 'zero', 'two', 'few', 'many', 'other'] };
    // (A kept quantity keeps its place; the missing ones go before \`other\`, in canonical order: CONTRACT §5.)
    for (const [code, wanted] of Object.entries(expected)) {
      assert.deepEqual(quantities(identityRender(doc, { code, rtl: false })).files, wanted, code);
    }
    // A new quantity's text is the translation of `other`, on a line of its own at the same indentation.
    assert.match(pseudoRender(doc, { code: 'ru', rtl: false }), /\n {8}<item quantity="few">%d ḟíļéš ḋéļéţéḋ<\/item>\n {8}<item quantity="many">/);
  });

  it('writes a translation the way aapt reads it: apostrophes, quotes, a leading @ or ?, line breaks, & and <', () => {
    const translations = new Map(doc.segments.map((s) => [s.id, s.text]));
    translations.set(segmentOf('Pay now').id, `@l'heure "juste" & <maintenant>\nfin`);
    translations.set(segmentOf('Mercury').id, '?Mercure\\brûle');
    const answer = doc.render(translations, { code: 'fr', rtl: false });
    assert.match(answer, /<string name="pay">\\@l\\'heure \\"juste\\" &amp; &lt;maintenant>\\nfin<\/string>/);
    quantities(answer);
    const units = toolkitUnits(answer);
    assert.equal(units.pay, `@l'heure "juste" & <maintenant>\nfin`);
    assert.match(answer, /<item>\\\?Mercure\\\\brûle<\/item>/);
    // Debian's aapt compiles the answer and reads the value that was meant.
    assert.equal(aaptValues(answer).get('pay'), `"@l'heure \\"juste\\" & <maintenant>\\nfin"`);
  });

  it('keeps reordered <xliff:g> placeholders with their own contents', () => {
    const translations = new Map(doc.segments.map((s) => [s.id, s.text]));
    translations.set(segmentOf('Hello').id, `<x3/> : <g1>tard</g1>, <x1/> <x2/> "perdu"`);
    const answer = doc.render(translations, { code: 'fr', rtl: false });
    assert.match(answer, /<string name="greeting">&app; : <b>tard<\/b>, <xliff:g id="name" example="Ada">%1\$s<\/xliff:g> &amp; \\"perdu\\"<\/string>/);
  });

  it('keeps an empty <item/> as it is (no second item of its quantity), and a tag the scanner would not read as markup (or a long one) whole', () => {
    const source = '<resources>\n    <plurals name="n">\n        <item quantity="one">%d new</item>\n        <item quantity="many"/>\n        <item quantity="other">%d new ones</item>\n    </plurals>\n    <string name="w"><![CDATA[Line one<br\\>Line two <b>bold</b>]]></string>\n    <string name="l">Read the licence <a href="https://web.archive.org/web/20171024013739/http://example.org/wp-content/uploads/2008/03/licencja-publiczna-gnu_v2.pdf">here</a></string>\n</resources>\n';
    const small = getAdapter('android').extract(source);
    for (const target of [{ code: 'fr', rtl: false }, { code: 'ru', rtl: false }]) {
      const answer = pseudoRender(small, target);
      assert.equal(byteExactProblem(small, target), undefined);
      assert.deepEqual(quantities(answer).n, target.code === 'fr' ? ['one', 'many', 'other'] : ['one', 'many', 'few', 'other']);
      assert.ok(aaptValues(answer).has('w') && aaptValues(answer).has('l'));
      quantities(answer);
    }
  });

  it('gives a <plurals> without `other` the target\'s quantities too, each item translated on its own', () => {
    const source = '<resources>\n    <plurals name="n">\n        <item quantity="one">%d new file</item>\n        <item quantity="few">%d new files</item>\n    </plurals>\n</resources>\n';
    const small = getAdapter('android').extract(source);
    assert.equal(small.segments.length, 2, 'no counted segment without `other`');
    const expected: Record<string, string[]> = { ru: ['one', 'few', 'many', 'other'], ja: ['other'], de: ['one', 'other'] };
    for (const [code, wanted] of Object.entries(expected)) {
      const answer = pseudoRender(small, { code, rtl: false });
      assert.deepEqual(quantities(answer).n, wanted, code);
      aaptValues(answer);
    }
  });

  it('refuses a file that does not parse, naming the line', () => {
    const refused = (content: string, line: number) =>
      assert.throws(
        () => getAdapter('android').extract(content),
        (error: unknown) => error instanceof ServiceError && error.code === 'invalid_request' && new RegExp(`line ${line}\\b`).test(error.message),
      );
    refused('<resources>\n  <string name="a">A</string>\n  <string name="b">B\n</resources>\n', 4);
    refused('<resources>\n  <string name="a">A</b></string>\n</resources>\n', 2);
    refused('<?xml version="1.0"?>\n<manifest>\n</manifest>\n', 2);
  });

  it('never expands a DOCTYPE\'s entities (an entity bomb is kept as references), refuses deep nesting, reads a 2 MiB string in bounded time', () => {
    const levels = Array.from({ length: 10 }, (_, i) => `  <!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('\n');
    const bomb = `<?xml version="1.0"?>\n<!DOCTYPE resources [\n  <!ENTITY lol0 "lol">\n${levels}\n]>\n<resources>\n    <string name="a">Laugh &lol10; now</string>\n</resources>\n`;
    let started = performance.now();
    const bombDoc = getAdapter('android').extract(bomb);
    const answer = pseudoRender(bombDoc, { code: 'fr', rtl: false });
    assert.ok(answer.includes('&lol10;') && answer.length < bomb.length * 2);
    assert.ok(performance.now() - started < 5000, `${performance.now() - started} ms`);
    assert.throws(
      () => getAdapter('android').extract(`<resources><string name="a">${'<b>'.repeat(100_000)}`),
      (error: unknown) => error instanceof ServiceError && error.code === 'document_too_complex',
    );
    started = performance.now();
    const big = getAdapter('android').extract(`<resources>\n<string name="a">${"it\\'s ".repeat(300_000)}</string>\n</resources>\n`);
    big.render(big.segments.map((s) => s.text), { code: 'fr', rtl: false });
    assert.ok(performance.now() - started < 20_000, `${performance.now() - started} ms`);
  });
});
