import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { htmlAdapter, htmlDrafts } from '../../src/formats/html/adapter.js';
import { TemplateDocument } from '../../src/formats/core/document.js';
import { propertyRuns } from '../helpers/property-runs.js';
import { fixtures, LTR, pseudoRender, RTL } from './helpers.js';

/**
 * The html adapter gives segments straight to the DocumentBuilder; HTML inside markdown
 * takes the same segments as SegmentDrafts (htmlDrafts). Both must make one document.
 */
function sameBothWays(source: string): void {
  const direct = htmlAdapter.extract(source);
  const { drafts, patches } = htmlDrafts(source);
  const viaDrafts = new TemplateDocument('html', source, drafts, patches);
  assert.deepEqual(viaDrafts.segments, direct.segments, JSON.stringify(source));
  for (const target of [LTR, RTL]) assert.equal(pseudoRender(viaDrafts, target), pseudoRender(direct, target));
}

describe('html segments, direct and as drafts', () => {
  it('make the same document from every html fixture', () => {
    for (const { content } of fixtures('html')) sameBothWays(content);
  });

  it('make the same document from generated markup', () => {
    const piece = fc.constantFrom(
      '<p>', '</p>', '<div title="Box">', '</div>', '<a href="/x" title="Go">', '</a>', '<b>', '</b>', '<span/>', '</span>',
      '<img src="i.png" alt="A cat">', '<code>x()</code>', '<span class="notranslate">', '<h2>', '</h2>', '<td>', '</td>',
      '<input type="submit" value="Send">', '<!-- c -->', '<br>', 'Hello', ' world', '\n  ', '{name}', '&amp;', '&lt;g1&gt;',
      '<x2/>', '{n, plural, one {# item} other {# items}}', '<html lang="en">', '<script>x</script>',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => sameBothWays(pieces.join(''))),
      propertyRuns(300),
    );
  });
});
