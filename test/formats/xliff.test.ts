/**
 * XLIFF 1.2 and 2.0 (docs/formats.md "xliff"): every answer is well-formed XML (the
 * `yaml`-free judge here is Python's expat, through the xml module), keeps `<source>`,
 * notes and inline codes, has a translated `<target>` per unit, and is byte-exact under
 * pseudo outside the targets and the language attribute.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { ServiceError } from '../../src/errors.js';
import { getAdapter } from '../../src/formats/index.js';
import { byteExactProblem } from './byte-exact.js';
import { pseudoRender, unpseudo } from './helpers.js';

/** The units' source and target texts as an XML parser (Python's expat) reads them: [id, source, target][]. */
function parsedUnits(xml: string): [string, string, string | null][] {
  const program = `
import sys, json, xml.etree.ElementTree as E
root = E.fromstring(sys.stdin.read())
out = []
for unit in root.iter():
    tag = unit.tag.split('}')[-1]
    if tag in ('trans-unit', 'unit'):
        src = next((e for e in unit.iter() if e.tag.split('}')[-1] == 'source'), None)
        tgt = next((e for e in unit.iter() if e.tag.split('}')[-1] == 'target'), None)
        out.append([unit.get('id'), ''.join(src.itertext()), None if tgt is None else ''.join(tgt.itertext())])
print(json.dumps(out))
`;
  return JSON.parse(execFileSync('python3', ['-c', program], { input: xml, encoding: 'utf8' })) as [string, string, string | null][];
}

const V12 = `<?xml version="1.0" encoding="UTF-8" ?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en" datatype="plaintext" original="ng2.template">
    <body>
      <trans-unit id="pay" datatype="html">
        <source>Pay <x id="INTERPOLATION" equiv-text="{{ amount }}"/> now</source>
        <note priority="1" from="description">The checkout button</note>
      </trans-unit>
      <trans-unit id="terms">
        <source>Read the <g id="1" ctype="x-a">terms &amp; conditions</g>.</source>
        <target state="needs-translation">Old text</target>
      </trans-unit>
      <trans-unit id="empty-target">
        <source>Cancel</source>
        <target/>
      </trans-unit>
      <trans-unit id="brand" translate="no">
        <source>Shopify</source>
      </trans-unit>
    </body>
  </file>
</xliff>
`;

const V20 = `<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en">
  <file id="f1">
    <unit id="greeting">
      <notes>
        <note category="description">Shown on the home page</note>
      </notes>
      <segment>
        <source>Hello <pc id="1">world</pc>, you have <ph id="2" disp="{count}"/> messages.</source>
      </segment>
    </unit>
  </file>
</xliff>
`;

const FR = { code: 'fr', rtl: false };
const AR = { code: 'ar', rtl: true };

describe('xliff', () => {
  const v12 = getAdapter('xliff').extract(V12);
  const v20 = getAdapter('xliff').extract(V20);

  it('translates sources, not notes, ids or translate="no" units', () => {
    const texts = v12.segments.map((s) => s.text).join(' | ');
    assert.match(texts, /Pay/);
    assert.doesNotMatch(texts, /checkout button|Shopify|Old text/);
  });

  for (const target of [FR, AR]) {
    it(`answers well-formed XLIFF 1.2 with a translated target per unit for ${target.code}`, () => {
      const answer = pseudoRender(v12, target);
      const units = parsedUnits(answer);
      for (const [id, source, translated] of units) {
        if (id === 'brand') assert.equal(translated, null);
        else assert.equal(unpseudo(translated!), source, id);
      }
      assert.match(answer, new RegExp(`source-language="en" datatype="plaintext" original="ng2.template" target-language="${target.code}"`));
      assert.equal(byteExactProblem(v12, target), undefined);
    });
  }

  it('creates a missing target after the source at its indentation, and marks every target translated', () => {
    const answer = pseudoRender(v12, FR);
    assert.ok(answer.includes('        <source>Pay <x id="INTERPOLATION" equiv-text="{{ amount }}"/> now</source>\n        <target state="translated">Ṗáý <x id="INTERPOLATION" equiv-text="{{ amount }}"/> ñöŵ</target>\n'));
    assert.ok(answer.includes('<target state="translated">Ŕéáḋ ţĥé <g id="1" ctype="x-a">ţéŕṁš &amp; çöñḋíţíöñš</g>.</target>'));
    assert.ok(answer.includes('<target state="translated">Çáñçéļ</target>'));
  });

  it('answers XLIFF 2.0 with trgLang, the target in the segment and state on the segment', () => {
    const answer = pseudoRender(v20, FR);
    assert.match(answer, /<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr">/);
    assert.match(answer, /<segment state="translated">\n {8}<source>Hello <pc id="1">world<\/pc>, you have <ph id="2" disp="\{count\}"\/> messages\.<\/source>\n {8}<target>Ĥéļļö <pc id="1">ŵöŕļḋ<\/pc>, ýöü ĥáṽé <ph id="2" disp="\{count\}"\/> ṁéššáĝéš\.<\/target>\n/);
    assert.equal(parsedUnits(answer).length, 1);
    assert.equal(byteExactProblem(v20, AR), undefined);
  });

  it('escapes a translation\u2019s own ampersands and angle brackets', () => {
    const doc = getAdapter('xliff').extract('<xliff version="1.2"><file source-language="en"><body><trans-unit id="a"><source>Save</source></trans-unit></body></file></xliff>');
    const answer = doc.render(['Sauver & <fermer>'], FR);
    assert.deepEqual(parsedUnits(answer), [['a', 'Save', 'Sauver & <fermer>']]);
  });

  it('refuses XML that is not well-formed with invalid_request naming the line', () => {
    assert.throws(
      () => getAdapter('xliff').extract('<xliff version="1.2">\n<file>\n<body>\n<trans-unit id="a"><source>Hi</target></trans-unit>\n</body></file></xliff>'),
      (error: unknown) => error instanceof ServiceError && error.code === 'invalid_request' && /line 4/.test(error.message),
    );
  });

  it('refuses an end tag that closes no open element, naming its line', () => {
    const stray = '<xliff version="1.2">\n<file source-language="en">\n<body>\n<trans-unit id="a"><source>Hi</source></trans-unit></foo>\n</body></file></xliff>';
    assert.throws(
      () => getAdapter('xliff').extract(stray),
      (error: unknown) => error instanceof ServiceError && error.code === 'invalid_request' && /line 4: <\/foo> closes no open element/.test(error.message),
    );
    // (expat, the judge, calls it a mismatched tag too.)
    assert.throws(() => parsedUnits(stray));
  });

  it('never expands entities (a billion laughs stays a few bytes)', () => {
    const laughs = '<?xml version="1.0"?>\n<!DOCTYPE xliff [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>\n<xliff version="1.2"><file source-language="en"><body><trans-unit id="a"><source>Laugh &b;</source></trans-unit></body></file></xliff>';
    const answer = pseudoRender(getAdapter('xliff').extract(laughs), FR);
    assert.ok(answer.includes('<target state="translated">Ļáüĝĥ &b;</target>'));
  });
});
