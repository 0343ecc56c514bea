/**
 * Issue 31, classes 1 and 2 (docs/formats.md § json): a character reference in a JSON
 * string value is markup and comes back as it is; short prose values (`integer`, `NaN`,
 * the sort labels `A-Z`/`Z-A`) are translated, while the values that are not prose stay.
 * The shapes are this project's own, written after what real i18n catalogs hold.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getAdapter } from '../../src/formats/index.js';
import { isProse } from '../../src/formats/json.js';
import { byteExactProblem } from './byte-exact.js';
import { identityRender, LTR, pseudoRender, RTL, unpseudo } from './helpers.js';

const json = getAdapter('json');

describe('character references in JSON string values', () => {
  const catalog = JSON.stringify(
    {
      compare: 'Operator &gt; cannot be applied to types &lt;T&gt; and &#39;string&#39;.',
      info: 'Showing _START_ to _END_ of _TOTAL_ entries&nbsp;&mdash;&nbsp;filtered',
      hex: 'Don&#x27;t &amp; won&#X2019;t',
      prose: 'Terms & conditions; R&D; a &b',
    },
    null,
    2,
  );

  it('keeps each reference as a token, so a translation cannot change its letters', () => {
    const doc = json.extract(catalog);
    for (const segment of doc.segments) assert.doesNotMatch(segment.text, /&(?:gt|lt|#39|nbsp|mdash|#x27|amp|#X2019);/, segment.text);
    const out = pseudoRender(doc, LTR);
    for (const reference of ['&gt;', '&lt;', '&#39;', '&nbsp;', '&mdash;', '&#x27;', '&amp;', '&#X2019;']) {
      assert.equal(out.split(reference).length, catalog.split(reference).length, `${reference} in ${out}`);
    }
    assert.match(out, /Öṗéŕáţöŕ &gt; çáññöţ/);
    assert.equal(byteExactProblem(doc, RTL), undefined);
    assert.equal(identityRender(doc), catalog);
  });

  it('leaves an ampersand that starts no reference as text', () => {
    const doc = json.extract(catalog);
    assert.ok(doc.segments.some((s) => s.text === 'Terms & conditions; R&D; a &b'), JSON.stringify(doc.segments.map((s) => s.text)));
  });

  it('keeps a reference in an escaped string value too', () => {
    const source = '{"a": "Less \\u0026lt; more &lt; \\"quoted\\" &#60;"}';
    const doc = json.extract(source);
    const out = pseudoRender(doc, LTR);
    const value = (JSON.parse(out) as { a: string }).a;
    assert.match(value, /^Ļéšš &lt; ṁöŕé &lt; "q̇üöţéḋ" &#60;$/);
    assert.equal(unpseudo(value), 'Less &lt; more &lt; "quoted" &#60;');
    assert.equal(byteExactProblem(doc, RTL), undefined);
  });
});

describe('short prose values in JSON', () => {
  it('translates a word that equals its key, NaN, sort labels and other single-letter labels', () => {
    const source = '{"integer": "integer", "float": "float", "nan": "NaN", "az": "A-Z", "za": "Z-A", "na": "N/A", "yn": "y/n", "mail": "E-mail"}';
    const doc = json.extract(source);
    assert.deepEqual(
      doc.segments.map((s) => s.text),
      ['integer', 'float', 'NaN', 'A-Z', 'Z-A', 'N/A', 'y/n', 'E-mail'],
    );
    const out = JSON.parse(pseudoRender(doc, LTR)) as Record<string, string>;
    assert.equal(out.az, 'Á-Ž');
    assert.equal(out.nan, 'ÑáÑ');
  });

  it('translates capitalised words joined by a slash: Yes/No, Show/hide, AM/PM', () => {
    for (const value of ['Yes/No', 'Show/hide', 'Read/Write', 'AM/PM', 'On/Off']) assert.equal(isProse(value), true, value);
  });

  it('still leaves what is not prose: booleans as strings, locale codes, ids, headers, versions, paths, time zones', () => {
    for (const value of ['true', 'null', 'undefined', 'en-US', 'pt-BR', 'v-if', 'x-data', 'X-Request-Id', 'a.b', 'A-Z0', '1.x', 'snake_case', 'src/lib', 'text/html', 'Europe/Paris', 'America/Argentina/Salta', 'US/Eastern']) {
      assert.equal(isProse(value), false, value);
    }
  });
});
