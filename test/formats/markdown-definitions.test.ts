/**
 * Blocks the marked path cannot prove are parsed by mdast on their own, with the
 * document's link and footnote definitions appended — now only the ones the block
 * mentions (all of them made Node's deprecations.md take 2–3 s). A reference must still
 * resolve whatever its case and line breaks.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getAdapter } from '../../src/formats/index.js';
import { definitionsUsedBy, GROUP_SIZE, parseDefinitions } from '../../src/formats/markdown/adapter.js';
import { identityRender, LTR, pseudoRender } from './helpers.js';
import { markdownShape } from './structure.js';

const FILLER = 'A filler paragraph that only adds length to the document.\n\n'.repeat(Math.ceil(GROUP_SIZE / 50));

describe('markdown fallback blocks and reference definitions', () => {
  it('a footnote (an mdast fallback) resolves a reference written in another case and over a line break', () => {
    const source = `${FILLER}Text with a note.[^1]\n\n[^1]: See the [Release\n    Notes] for details.\n\n[release notes]: https://example.com/r\n[unused]: https://example.com/u\n`;
    const doc = getAdapter('markdown').extract(source);
    const note = doc.segments.find((segment) => segment.text.includes('for details'));
    assert.ok(note, 'the footnote text is a segment');
    // A resolved shortcut reference is one atom; unresolved it would be bracketed text.
    assert.equal(note.text, 'See the <x1/> for details.');
    assert.equal(identityRender(doc), source);
    assert.deepEqual(markdownShape(pseudoRender(doc, LTR)), markdownShape(source));
  });

  it('a label the block does not mention stays text, as mdast reads the whole document', () => {
    const source = `${FILLER}[^1]: A [missing] reference.\n\n[other]: https://example.com/o\n`;
    const doc = getAdapter('markdown').extract(source);
    const note = doc.segments.find((segment) => segment.text.includes('reference'));
    assert.equal(note?.text, 'A [missing] reference.');
  });

  it('many definitions and many fallback blocks stay linear', () => {
    const definitions = Array.from({ length: 400 }, (_, i) => `[label ${i}]: https://example.com/${i}`).join('\n');
    const notes = Array.from({ length: 400 }, (_, i) => `Note ${i}.[^n${i}]\n\n[^n${i}]: See [label ${i}].\n`).join('\n');
    const source = `${FILLER}${notes}\n${definitions}\n`;
    const started = performance.now();
    const doc = getAdapter('markdown').extract(source);
    const elapsed = performance.now() - started;
    assert.equal(doc.segments.filter((segment) => /^See <x1\/>\.$/.test(segment.text)).length, 400);
    // All 400 definitions in each of the 400 fallback parses took 66 s here; now about
    // 1 s. The bound is loose so that a loaded CI machine does not fail it.
    assert.ok(elapsed < 20_000, `took ${elapsed.toFixed(0)} ms`);
  });

  it('a fallback block gets only the definitions it mentions', () => {
    const definitions = ['[release notes]: #', '[unused]: #', '[a \\[b\\]]: #', '[^1]: #'].join('\n');
    assert.equal(definitionsUsedBy('See the [Release\n   Notes].', parseDefinitions(definitions)), '[release notes]: #');
    assert.equal(definitionsUsedBy('Escaped [a [b]] label and a note[^1].', parseDefinitions(definitions)), '[a \\[b\\]]: #\n[^1]: #');
    assert.equal(definitionsUsedBy('Nothing here.', parseDefinitions(definitions)), '');
    // micromark folds case as lower- then upper-case: `[STRASSE]` refers to `[straße]`.
    assert.equal(definitionsUsedBy('See [STRASSE].', parseDefinitions('[straße]: #')), '[straße]: #');
  });
});
