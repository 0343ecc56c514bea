import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { HtmlTree } from '../../src/formats/html/tree.js';
import type { TagAttributes } from '../../src/formats/html/tree.js';
import { propertyRuns } from '../helpers/property-runs.js';

/**
 * HtmlTree is a port of htmlparser2's Parser onto its Tokenizer: for any input it must
 * report the same events, in the same order, with the positions Parser's startIndex and
 * endIndex give at each callback and the same values for the attributes the adapter reads.
 */
type Event = readonly (string | number | boolean | undefined)[];

const KEPT = ['translate', 'class', 'type', 'name', 'property'] as const;
const kept = (attribs: { readonly [K in (typeof KEPT)[number]]?: string | undefined }) => KEPT.map((key) => attribs[key]);

function parserEvents(source: string): Event[] {
  const events: Event[] = [];
  const parser: Parser = new Parser(
    {
      onopentag(name, attribs, implied) {
        events.push(['open', name, implied, parser.startIndex, parser.endIndex + 1, ...kept(attribs)]);
      },
      onclosetag(name, implied) {
        events.push(['close', name, implied, parser.startIndex, parser.endIndex + 1]);
      },
      ontext() {
        events.push(['text', parser.startIndex, parser.endIndex + 1]);
      },
      oncomment() {
        events.push(['other', parser.endIndex + 1]);
      },
      onprocessinginstruction() {
        events.push(['other', parser.endIndex + 1]);
      },
    },
    { decodeEntities: false, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(source);
  return events;
}

function treeEvents(source: string): Event[] {
  const events: Event[] = [];
  new HtmlTree({
    openTag(name: string, attribs: TagAttributes, implied: boolean, start: number, end: number) {
      events.push(['open', name, implied, start, end, ...kept(attribs)]);
    },
    closeTag(name: string, implied: boolean, start: number, end: number) {
      events.push(['close', name, implied, start, end]);
    },
    text(start: number, end: number) {
      events.push(['text', start, end]);
    },
    other(end: number) {
      events.push(['other', end]);
    },
  }).parse(source);
  return events;
}

const same = (source: string) => assert.deepEqual(treeEvents(source), parserEvents(source), JSON.stringify(source));

describe('html tree (htmlparser2 Parser port)', () => {
  it('reports what Parser reports on the html and markdown fixtures', () => {
    for (const dir of ['test/fixtures/formats/html', 'test/fixtures/formats/markdown']) {
      for (const file of readdirSync(dir)) same(readFileSync(`${dir}/${file}`, 'utf8'));
    }
  });

  it('reports what Parser reports for each quirk of its tree building', () => {
    for (const source of [
      '<p>One<p>Two<div>Three</p></div>', // implied closes, `</p>` with no open p
      '<ul><li>a<li>b</ul><table><tr><td>x<td>y<tr><th>z</table>',
      '<p>a</br>b<br/>c</p>', // `</br>` is a br; `/>` is ignored in HTML
      '<form><form class="x"><input></form></form>', // a nested form is ignored
      '<svg><clipPath/><foreignObject><p>in</p></foreignObject><path d="M0"/></svg>after',
      '<svg><foreignObject><svg></svg><b>x</b></foreignobject></svg>', // SVG-cased end tag at an integration point
      '<math><mi>x</mi><![CDATA[ raw ]]></math><![CDATA[ comment ]]>',
      '<image src="x.png" alt="An image"><svg><image/></svg>',
      '<basefont><command><isindex>text</basefont>',
      '<!DOCTYPE html><?pi x?><!-- c --></>< p><3 a<b </ >',
      '<span translate=no TRANSLATE=yes class="a notranslate" type=x name=n property=p>t</span>',
      '<p title="unterminated', '<div><b>open at the end', '<a href=x',
    ]) {
      same(source);
    }
  });

  it('reports what Parser reports on markup soup full of implied tags, foreign content and broken tags', () => {
    const piece = fc.constantFrom(
      '<svg>', '</svg>', '<math>', '</math>', '<path/>', '<circle r=1 />', '<foreignObject>', '</foreignObject>', '<foreignobject>',
      '<clipPath>', '</clippath>', '<title>', '</title>', '<desc>', '<mi>', '</mi>', '<![CDATA[x y]]>', '<form>', '</form>',
      '<form class=notranslate>', '</p>', '<p>', '</br>', '<br/>', '<image src=x alt=y>', '<IMAGE>', '<table>', '<tr>', '<td>',
      '</td>', '<th>', '<li>', '<dd>', '<dt>', '<select>', '<option label=x>', '<input type=Submit value=Go>', '<textarea>',
      '</textarea>', '<basefont>', '<command>', '<isindex>', '</basefont>', '<a title="t">', '</a>', '<b>', '</b>',
      '<span TRANSLATE=no translate=yes>', '</span>', '<h1>', '<h2>', '</h1>', '<body>', '<head>', '<link>', '<script>',
      '</script>', '<style>', '</style>', '<meta name="description" content="d">', '<meta property=og:title content=t>',
      'text', ' ', '\n', '&amp;', '<!-- c -->', '<?x y?>', '<!DOCTYPE html>', '<!x>', '</>', '</ >', '< p>', '<p', '<a title="un',
      '<b title=', '<b class="x" class="y">', '<i class>', '<3', 'a<b', '<html lang=en dir=rtl>', '<div>', '</div>', '<pre>',
      '</pre>', '<code>', '</code>', '<x2/>', '"', "'", '=', '/', '>',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => same(pieces.join(''))),
      propertyRuns(1500),
    );
  });
});
