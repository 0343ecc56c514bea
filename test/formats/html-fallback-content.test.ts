/**
 * Issue 31, class 3 (decision 0059): the content of `<video>`, `<audio>`, `<object>` and
 * `<canvas>` is fallback content, shown to the readers whose browser cannot play or
 * show the element, so it is translated like any text: in the html adapter and in the
 * HTML inside markdown. Their `<source>`, `<track>` and `<param>` stay as they are.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getAdapter } from '../../src/formats/index.js';
import { byteExactProblem } from './byte-exact.js';
import { identityRender, LTR, pseudoRender, RTL } from './helpers.js';

const page = [
  '<div class="player">',
  '  <video controls width="640" poster="poster.jpg">',
  '    <source src="/media/intro.webm" type="video/webm">',
  '    <track kind="captions" srclang="en" src="intro.vtt">',
  '    To view this video please enable JavaScript, and consider upgrading to a',
  '    web browser that <a href="https://example.org/html5-video">supports HTML5 video</a>.',
  '  </video>',
  '  <audio controls src="/media/theme.ogg">Your browser does not support the <code>audio</code> element.</audio>',
  '  <object data="/media/diagram.pdf" type="application/pdf" width="600">',
  '    <param name="view" value="fit">',
  '    <p>The diagram cannot be shown here: <a href="/media/diagram.pdf">download it</a>.</p>',
  '  </object>',
  '  <canvas id="chart">A bar chart of monthly sign-ups.</canvas>',
  '  <video src="/media/silent.mp4"></video>',
  '</div>',
].join('\n');

const texts = [
  'To view this video please enable JavaScript, and consider upgrading to a web browser that <g1>supports HTML5 video</g1>.',
  'Your browser does not support the <x1/> element.',
  'The diagram cannot be shown here: <g1>download it</g1>.',
  'A bar chart of monthly sign-ups.',
];

describe('fallback content of media elements', () => {
  it('is translated in the html adapter, around the sources and tracks it holds', () => {
    const doc = getAdapter('html').extract(page);
    const segments = doc.segments.filter((s) => s.kind !== 'attr').map((s) => s.text.replace(/^(?:<x\d+\/> )+/, ''));
    assert.deepEqual(segments, texts);
    const out = pseudoRender(doc, LTR);
    assert.match(out, /Ţö ṽíéŵ ţĥíš ṽíḋéö/);
    assert.match(out, /<source src="\/media\/intro.webm" type="video\/webm">/);
    assert.match(out, /<code>audio<\/code>/);
    assert.match(out, /<param name="view" value="fit">/);
    assert.equal(identityRender(doc), page);
    for (const target of [LTR, RTL]) assert.equal(byteExactProblem(doc, target), undefined);
  });

  it('is translated in an HTML block of a markdown document too', () => {
    const markdown = `# Media\n\n${page}\n\nAfter the player.\n`;
    const doc = getAdapter('markdown').extract(markdown);
    const segments = doc.segments.map((s) => s.text.replace(/^(?:<x\d+\/>)+/, '').replace(/<x\d+\/>/g, ' ').replace(/ +/g, ' '));
    for (const text of texts.slice(2)) assert.ok(segments.includes(text), `${text} in ${JSON.stringify(segments)}`);
    assert.ok(segments.some((s) => s.startsWith('To view this video please enable JavaScript')), JSON.stringify(segments));
    assert.ok(segments.some((s) => s.startsWith('Your browser does not support the')), JSON.stringify(segments));
    for (const target of [LTR, RTL]) assert.equal(byteExactProblem(doc, target), undefined);
  });

  it('leaves a media element without fallback text out of every segment', () => {
    const doc = getAdapter('html').extract('<p>Intro</p><video src="a.mp4"><track src="a.vtt"></video>');
    assert.deepEqual(doc.segments.map((s) => s.text), ['Intro']);
  });
});
