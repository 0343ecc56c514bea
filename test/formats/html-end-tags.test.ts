/**
 * End tags with a space or line break before their `>` (`</b\n>`), as DocBook-generated
 * pages in /usr/share/doc write them. htmlparser2's Parser ends such a tag at its name,
 * so the `>` looked like text and a translation wrote it back as `&gt;`. Found by
 * bench/formats/real-world.ts on 5 of 247 HTML pages.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getAdapter } from '../../src/formats/index.js';
import { identityRender, LTR, pseudoRender, RTL } from './helpers.js';
import { htmlShape } from './structure.js';

const CASES: Record<string, string> = {
  'line break before > of an inline end tag': '<p>Hi <b>there</b\n> now</p>',
  'space before > of an inline end tag': '<p>Read <a href="/x">the guide</a > first.</p>',
  'DocBook style, every tag broken before >': '<h3\n><a\nname="AEN14"\n></a\n>David Mandelberg</h3\n><p\nclass="COPYRIGHT"\n>Copyright &copy; 2005</p\n>',
  'block end tags with trailing spaces': '<div>One</div  >\n<p>Two</p\t>',
};

describe('html end tags with whitespace before >', () => {
  for (const [name, source] of Object.entries(CASES)) {
    it(name, () => {
      const doc = getAdapter('html').extract(source);
      assert.equal(identityRender(doc), source);
      for (const segment of doc.segments) {
        assert.ok(!segment.text.replace(/<\/?g\d+>|<x\d+\/>/g, '').includes('>'), `no stray > in ${segment.text}`);
      }
      for (const target of [LTR, RTL]) {
        const output = pseudoRender(doc, target);
        assert.ok(!output.includes('&gt;'), `no escaped > in ${output}`);
        assert.deepEqual(htmlShape(output, { ignoreDir: true }), htmlShape(source, { ignoreDir: true }));
      }
    });
  }
});
