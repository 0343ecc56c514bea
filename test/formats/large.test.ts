import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getAdapter } from '../../src/formats/index.js';
import { GROUP_SIZE } from '../../src/formats/markdown/adapter.js';
import { identityRender, pseudoRender } from './helpers.js';

/** A list-heavy document: the shape that makes mdast quadratic. `[^n]` sends its items through the mdast fallback. */
function listHeavy(bytes: number, eol = '\n', footnotes = true): string {
  const parts: string[] = ['---', 'title: Big', '---', ''];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const block = `## Section ${i}${eol}${eol}- item *${i}* with [a link][ref]${eol}- second item \`code\`${eol}  continued${eol}${eol}1. ordered${footnotes ? ' [^n]' : ''}${eol}2. two${eol}${eol}`;
    parts.push(block);
    size += block.length;
  }
  parts.push(`[ref]: https://ref.example${eol}[^n]: A footnote.${eol}`);
  return parts.join(eol);
}

describe('large markdown', () => {
  it('a document over GROUP_SIZE (marked path, footnote items through mdast) renders byte-exact, with references resolved everywhere', () => {
    for (const eol of ['\n', '\r\n']) {
      const source = listHeavy(GROUP_SIZE * 3, eol);
      const doc = getAdapter('markdown').extract(source);
      assert.equal(identityRender(doc), source);
      // `[a link][ref]` stays a pair (a full reference) in every group, far from its definition.
      const linked = doc.segments.filter((s) => s.text.includes('with <g2>a link</g2>'));
      assert.ok(linked.length > 30, `${linked.length} list items kept their reference link (${eol === '\n' ? 'LF' : 'CRLF'})`);
      // `[^n]` stays a footnote reference (an atom) in every group.
      assert.equal(doc.segments.filter((s) => s.text === 'ordered <x1/>').length, linked.length);
      assert.notEqual(pseudoRender(doc), source);
    }
  });

  it('extract + render time grows linearly, not quadratically, with list-heavy size', () => {
    const time = (bytes: number) => {
      const source = listHeavy(bytes, '\n', false);
      const started = performance.now();
      assert.equal(identityRender(getAdapter('markdown').extract(source)), source);
      return performance.now() - started;
    };
    time(16 * 1024); // warm up the parsers
    const small = Math.min(time(32 * 1024), time(32 * 1024));
    const large = Math.min(time(128 * 1024), time(128 * 1024));
    // 4× the input: linear is ~4×, quadratic ~16×.
    assert.ok(large / small < 8, `32 KiB ${small.toFixed(0)} ms, 128 KiB ${large.toFixed(0)} ms`);
  });
});
