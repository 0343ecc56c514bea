import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getAdapter } from '../../src/formats/index.js';
import { identityRender, pseudoRender, RTL, unpseudo } from './helpers.js';
import { byteExactProblem } from './byte-exact.js';

const html = getAdapter('html');

describe('html attributes inside atomic elements', () => {
  const page = [
    '<video controls src="talk.mp4">',
    '  <track kind="captions" srclang="en" label="English captions" src="en.vtt">',
    '  <track kind="subtitles" label="German subtitles" src="de.vtt">',
    '  Your browser cannot play this video.',
    '</video>',
    '<picture><source srcset="cat.webp"><img src="cat.png" alt="A sleeping cat"></picture>',
    '<map name="plan"><area shape="rect" coords="0,0,9,9" href="#hall" alt="Main hall"></map>',
    '<p>Press <kbd title="Keyboard key">Enter</kbd> or <audio><track label="Inline cue"></audio> now.</p>',
    '<p class="notranslate"><img src="logo.png" alt="Brand name"></p>',
    '<svg><a title="Graphics link"><title>Graphics</title></a></svg>',
  ].join('\n');

  it('translates label of track and alt of img/area inside video, audio, picture and map (docs/contract.md §4); kbd is translated', () => {
    const doc = html.extract(page);
    const attributes = doc.segments.filter((s) => s.kind === 'attr').map((s) => [s.ctx, s.text]);
    assert.deepEqual(attributes, [
      ['track@label', 'English captions'],
      ['track@label', 'German subtitles'],
      ['img@alt', 'A sleeping cat'],
      ['area@alt', 'Main hall'],
      ['kbd@title', 'Keyboard key'],
      ['track@label', 'Inline cue'],
    ]);
    // Code-like, untranslated and graphics content stay atoms or template; the video's
    // fallback text is translated (test/formats/html-fallback-content.test.ts).
    assert.ok(!doc.segments.some((s) => /Brand|Graphics/.test(s.text)));
    assert.ok(doc.segments.some((s) => s.ctx === 'video' && /Your browser cannot play this video\.$/.test(s.text)));
    // A key's name is localised (Ctrl is Strg in German): kbd's text is part of its paragraph.
    assert.ok(doc.segments.some((s) => /Press <g1>Enter<\/g1>/.test(s.text)));
    assert.equal(identityRender(doc), page);
    assert.equal(byteExactProblem(doc, RTL), undefined);
    assert.match(unpseudo(pseudoRender(doc, RTL)), /label="English captions"/);
    assert.notEqual(pseudoRender(doc, RTL).match(/label="([^"]*)"/)![1], 'English captions');
  });
});
