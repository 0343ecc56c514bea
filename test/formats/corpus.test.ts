import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Format } from '../../src/formats/format.js';
import { getAdapter } from '../../src/formats/index.js';
import { findPlaceholders } from '../helpers/placeholders.js';
import { fixtures, identityRender, LTR, pseudoRender, RTL, unpseudo } from './helpers.js';
import { htmlShape, markdownShape } from './structure.js';

const FORMATS: Format[] = ['plain', 'markdown', 'json', 'html'];

/** Every placeholder string of the source, counted, must be in the output as often. */
function placeholderCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const span of findPlaceholders(text)) {
    if (span.type !== 'atom') continue;
    const value = text.slice(span.start, span.end);
    if (!/^[{%$]/.test(value)) continue;
    counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return counts;
}

for (const format of FORMATS) {
  describe(`${format} corpus`, () => {
    for (const { name, content } of fixtures(format)) {
      it(`${name}: the identity translation renders the input byte for byte`, () => {
        const doc = getAdapter(format).extract(content);
        assert.ok(doc.segments.length > 0, 'the fixture has segments');
        // html changes <html lang>; rendering for the source language keeps it as is.
        const target = { code: /lang="([^"]+)"/.exec(content)?.[1] ?? 'fr', rtl: false };
        assert.equal(identityRender(doc, target), content);
        assert.equal(doc.render(new Map(), target), content);
      });

      it(`${name}: a pseudo translation keeps structure and placeholders`, () => {
        const doc = getAdapter(format).extract(content);
        for (const target of [LTR, RTL]) {
          const output = pseudoRender(doc, target);
          assert.notEqual(output, content);
          for (const [placeholder, count] of placeholderCounts(content)) {
            assert.ok(output.split(placeholder).length - 1 >= count, `placeholder ${placeholder} survives`);
          }
          if (format === 'plain') assert.equal(unpseudo(output), unpseudo(content));
          if (format === 'markdown') assert.deepEqual(markdownShape(output), markdownShape(content));
          if (format === 'json') assertJsonKeepsStructure(content, output);
          if (format === 'html') {
            assert.deepEqual(htmlShape(output, { ignoreDir: true }), htmlShape(content, { ignoreDir: true }));
          }
        }
      });
    }
  });
}

/** Same keys, same non-string values, same non-prose strings; prose strings are pseudo forms of the source. */
function assertJsonKeepsStructure(source: string, output: string): void {
  const before: unknown = JSON.parse(source);
  const after: unknown = JSON.parse(output);
  const walk = (a: unknown, b: unknown, path: string) => {
    if (typeof a === 'string') {
      assert.equal(typeof b, 'string', path);
      assert.equal(unpseudo(b as string), unpseudo(a), `${path} is the source text under the pseudo transform`);
      return;
    }
    if (a === null || typeof a !== 'object') {
      assert.equal(b, a, path);
      return;
    }
    assert.equal(Array.isArray(b), Array.isArray(a), path);
    assert.deepEqual(Object.keys(b as object), Object.keys(a), `${path} keys`);
    for (const key of Object.keys(a)) walk((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}.${key}`);
  };
  walk(before, after, '$');
}
