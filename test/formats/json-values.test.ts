/**
 * Which JSON string values are prose, and how markup inside them is kept (docs/contract.md §4,
 * json): shaped like the failures found on real files — package manifests' version
 * ranges, country names in locale files, tags in diagnostic messages and in the
 * numbered-tag syntax of i18n libraries.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getAdapter } from '../../src/formats/index.js';
import { isProse } from '../../src/formats/json.js';
import { LTR, pseudoRender, RTL, unpseudo } from './helpers.js';

const json = getAdapter('json');
const texts = (source: string) => json.extract(source).segments.map((segment) => segment.text);

describe('version ranges and dependency specifiers are not prose', () => {
  const ranges = [
    '^7.0.0-beta.44',
    '~1.2.3',
    '>=2.0.0 <3',
    '>= 2.1.2 < 3.0.0',
    '1.x',
    '2.x.x',
    '^1.0.0 || ^2.0.0-rc.1',
    '1.0.0 - 2.9999.9999',
    '>=1.0.0-alpha.3 <1.0.0-beta',
    '=1.2.3',
    'v2.0.1',
    '<0.13.0 || >=0.14.0-0',
    'npm:string-width@^4.2.0',
    'workspace:^',
    'github:owner/project#v1.2.0',
  ];
  for (const range of ranges) it(`leaves ${JSON.stringify(range)} as it is`, () => assert.equal(isProse(range), false));

  it('a manifest keeps its dependencies and translates its description', () => {
    const manifest = JSON.stringify(
      {
        name: 'example-tool',
        version: '3.1.0-next.2',
        description: 'A small tool that formats dates',
        engines: { node: '>=18.12 <23' },
        dependencies: { 'left-pad': '^1.3.0', chalk: '~5.3.0 || 5.4.x', legacy: '1.x', aliased: 'npm:other@^2' },
        peerDependencies: { react: '^16.8.0 || ^17.0.0 || ^18.0.0' },
      },
      null,
      2,
    );
    assert.deepEqual(texts(manifest), ['A small tool that formats dates']);
  });

  it('words that look a little like ranges are still prose', () => {
    for (const value of ['x', 'X marks the spot', 'v2 is out', '1 item', '10 new messages', '>= 2 people', '* required']) {
      assert.equal(isProse(value), true, value);
    }
  });
});

describe('paths, scoped names, pointers, options and colon-joined ids are not prose', () => {
  const values = ['lib/', '.github/workflows', '@types/node', 'safari/5.1..latest', '.npmrc', '#/definitions/nonNegativeInteger', 'meta/core#/$defs/anchor', '#meta', '$data', '_stream_wrap', '--exclude', '--max-old-space-size=4096', '-v', 'common:save', 'user:pass', '2001:db8::1', 'urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6', 'catalog:', '0980cefebe0ae461da8883703be049fe13ca96cf'];
  for (const value of values) it(`leaves ${JSON.stringify(value)} as it is`, () => assert.equal(isProse(value), false));

  it('a label with a colon, a slash between words with spaces or a lone dash stay prose', () => {
    for (const value of ['Note:', 'Warning: unsaved changes', 'Read / write', '- none -', 'Next', 'Facade', 'deadbeef']) assert.equal(isProse(value), true, value);
  });
});

describe('a capitalised hyphenated name is prose, an identifier is not', () => {
  it('translates country and place names', () => {
    const source = '{"AG": "Antigua-et-Barbuda", "GW": "Guinea-Bissau", "TL": "Timor-Leste", "PM": "Saint-Pierre-et-Miquelon"}';
    assert.deepEqual(texts(source), ['Antigua-et-Barbuda', 'Guinea-Bissau', 'Timor-Leste', 'Saint-Pierre-et-Miquelon']);
    assert.equal(unpseudo(pseudoRender(json.extract(source))), source);
  });

  it('leaves kebab-case ids, upper-case header names and mixed identifiers alone', () => {
    for (const value of ['kebab-case-id', 'X-Request-Id', 'UTF-8', 'Ab-1', 'FooBar-baz', 'Snake_Case', 'Dotted.Key']) assert.equal(isProse(value), false, value);
  });
});

describe('markup inside a string value is kept like a placeholder', () => {
  it('a tag in a diagnostic message is an atom', () => {
    const source = '{"m": "\'<reference>\' directive is not allowed here."}';
    assert.deepEqual(texts(source), ["'<x1/>' directive is not allowed here."]);
    assert.equal(pseudoRender(json.extract(source)), '{"m": "\'<reference>\' ḋíŕéçţíṽé íš ñöţ áļļöŵéḋ ĥéŕé."}');
  });

  it('numbered tags of i18n libraries pair, empty ones are atoms', () => {
    const source = '{"welcome": "Hello <1>{{name}}</1>, you have <3>new</3> messages.<5/>"}';
    assert.deepEqual(texts(source), ['Hello <g1><x1/></g1>, you have <g2>new</g2> messages.<x2/>']);
    const doc = json.extract(source);
    // A model may move a pair: the tags go with it, byte for byte.
    assert.equal(doc.render(['<g2>Nouveaux</g2> messages pour <g1><x1/></g1>.<x2/>'], LTR), '{"welcome": "<3>Nouveaux</3> messages pour <1>{{name}}</1>.<5/>"}');
  });

  it('HTML tags pair by name, with attributes, and an unmatched or crossing tag is an atom', () => {
    assert.deepEqual(texts('{"a": "Read <a href=\\"/terms\\" class=\'x\'>the terms</a> first"}'), ['Read <g1>the terms</g1> first']);
    assert.deepEqual(texts('{"a": "One<br>two<br/>three"}'), ['One<x1/>two<x2/>three']);
    assert.deepEqual(texts('{"a": "<b>bold <i>both</b> italic</i>"}'), ['<x1/>bold <g1>both<x2/> italic</g1>']);
    assert.deepEqual(texts('{"a": "<strong>Warning:</strong> unsaved"}'), ['<g1>Warning:</g1> unsaved']);
  });

  it('a value that is only markup is no segment', () => {
    assert.deepEqual(texts('{"a": "<br/>", "b": "<0></0>", "c": "<hr />"}'), []);
  });

  it('tags do not pair across the branches of an ICU message', () => {
    const source = '{"a": "{n, plural, one {<b>one} other {many</b>}} left"}';
    assert.deepEqual(texts(source), ['<x1/><g1><x2/>one</g1><g2>many<x3/></g2><x4/> left']);
    const inside = '{"a": "{n, plural, one {<b>#</b> file} other {<b>#</b> files}}"}';
    assert.deepEqual(texts(inside), ['<x1/><g1><g2><x2/></g2> file</g1><g3><g4><x3/></g4> files</g3><x4/>']);
  });

  it('text that only looks like a comparison is not a tag', () => {
    assert.deepEqual(texts('{"a": "Use a < b and c > d"}'), ['Use a < b and c > d']);
    assert.deepEqual(texts('{"a": "I <3 this"}'), ['I <3 this']);
  });

  it('is kept in escaped string values too, and renders byte-exact', () => {
    const source = '{"a": "Say \\"<em>hi</em>\\"\\n<br/>", "b": "\\u003cb\\u003ebold\\u003c/b\\u003e text"}';
    assert.deepEqual(texts(source), ['Say "<g1>hi</g1>"\n<x1/>', '<g1>bold</g1> text']);
    const doc = json.extract(source);
    for (const target of [LTR, RTL]) assert.deepEqual(JSON.parse(unpseudo(pseudoRender(doc, target))), JSON.parse(source));
  });

  it('is text in plain documents, where a tag is prose', () => {
    assert.equal(getAdapter('plain').extract('Press <Enter> to go on').segments[0]!.text, 'Press <Enter> to go on');
  });
});
