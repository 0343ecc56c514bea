import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describe, it } from 'node:test';
import { FORMATS } from '../../src/formats/format.js';
import { detectionScores } from '../../src/formats/detect.js';
import { detectFormat } from '../../src/formats/index.js';
import { confusion } from '../../bench/formats/confusion.js';
import { SAMPLES } from '../fixtures/formats/detection/samples.js';

describe('detectFormat', () => {
  it('the labelled corpus has at least 50 samples of every format', () => {
    for (const format of FORMATS) assert.ok(SAMPLES.filter((s) => s.format === format).length >= 50, format);
  });

  it('is at least 97% accurate on the labelled corpus', () => {
    const { correct, total, misses } = confusion();
    assert.ok(correct / total >= 0.97, `accuracy ${correct}/${total}\n${misses.join('\n')}`);
  });

  it('gives a confidence in [0, 1] for every sample', () => {
    for (const sample of SAMPLES) {
      const { confidence } = detectFormat(sample.content);
      assert.ok(confidence >= 0 && confidence <= 1, `${confidence} for ${sample.content}`);
    }
  });

  it('calls json only what parses as an object or array', () => {
    assert.equal(detectFormat('{"a": 1}').format, 'json');
    assert.equal(detectFormat('"just a string"').format, 'plain');
    assert.equal(detectFormat('42').format, 'plain');
    assert.equal(detectFormat('{"a": 1,}').format, 'plain');
  });

  const PAGE_SCORE = 0.98;
  it('calls a page html when it opens with a doctype, html, head or body tag after an XML declaration and comments', () => {
    const pages = [
      '<!-- generated -->\n<!-- by hand -->\n<!DOCTYPE html><title>x</title>Some words',
      '<?XML version="1.0"?>\n<!-- a --><html><p>words and words</p></html>',
      '  <!-- a -->  <!---->\n<BODY>text only, barely any markup',
    ];
    for (const page of pages) {
      assert.equal(detectFormat(page).format, 'html', page);
      assert.equal(detectionScores(page).html, PAGE_SCORE, page);
    }
    // A page stays html when what it shows looks like a locale file: a PO entry in a
    // `<pre>` at line starts (gettext's tutorial), release notes of indented `Word:` lines
    // (libxslt's news page, read as YAML keys before).
    const showing = [
      '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML i18n//EN">\n<html><body>\n<p>An entry:</p>\n<pre>\nmsgid "Open file"\nmsgstr "Datei öffnen"\n</pre>\n</body></html>',
      `<?xml version="1.0"?>\n<!DOCTYPE html>\n<html><body><p>Release notes</p><ul>\n${['Security: two fixes', 'Fixes: three', 'Docs: one']
        .map((line) => `  ${line}<br />`)
        .join('\n')}\n${Array.from({ length: 30 }, (_, i) => `  Fixed problem number ${i}<br />`).join('\n')}\n</ul></body></html>`,
    ];
    for (const page of showing) assert.equal(detectFormat(page).format, 'html', page);
    // An unclosed comment before it, or prose before the first comment: not a page's opening.
    assert.notEqual(detectionScores('<!-- a <html>').html, PAGE_SCORE);
    assert.notEqual(detectionScores('Intro\n<!-- a -->\n<html>').html, PAGE_SCORE);
  });

  it('is sure of clear cases and less sure of borderline ones', () => {
    assert.ok(detectFormat('<!doctype html><html><body><p>x</p></body></html>').confidence >= 0.9);
    assert.ok(detectFormat('{"a": "b"}').confidence >= 0.9);
    const borderline = detectFormat('Read the [docs](https://x.y).');
    assert.equal(borderline.format, 'markdown');
    assert.ok(borderline.confidence < 0.8);
  });
  it('calls one line without markup characters plain at once, as the full scoring does', () => {
    // The shortcut in detectFormat: every json, html and markdown signal needs one of
    // these characters, so the scores of a line without them must be plain 1, others 0.
    const marks = new Set('\n\r\u2028\u2029<>[{`*_#|');
    const char = fc.oneof(
      fc.constantFrom(...' -=+!~.:;,()"\'/\\0123456789\t%&@$?'.split('')),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
    );
    const line = fc.array(char, { maxLength: 80 }).map((chars) => chars.join('')).filter((text) => ![...text].some((c) => marks.has(c)));
    fc.assert(
      fc.property(line, (text) => {
        assert.deepEqual(detectionScores(text), { strings: 0, stringsdict: 0, xcstrings: 0, po: 0, properties: 0, yaml: 0, xliff: 0, android: 0, arb: 0, json: 0, html: 0, markdown: 0, plain: 1 }, JSON.stringify(text));
        assert.deepEqual(detectFormat(text), { format: 'plain', confidence: 1 });
      }),
      { numRuns: 2_000, seed: 18 },
    );
    // One such character sends it to the full scoring.
    assert.equal(detectFormat('Read the [docs](https://x.y).').format, 'markdown');
    assert.equal(detectFormat('## Install').format, 'markdown');
  });
});
