/**
 * Glossary terms in segment text (src/segments/terms.ts): whole words, outside marks,
 * longest first, the case rules, do-not-translate protection, and the indexed matcher
 * against the one regular expression it replaced, on random texts and term lists.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { markProblem, SEGMENT_MARK_PATTERN } from '../../src/segments/segment.js';
import { findTerms, protectTerms, TermMatcher, type TermMatch } from '../../src/segments/terms.js';
import { propertyRuns } from '../helpers/property-runs.js';

/** The first implementation: one alternation, longest first, with word-boundary lookarounds, run by run between marks. */
function regexFindTerms(text: string, terms: readonly string[], ignoreCase: boolean): TermMatch[] {
  const usable = terms.map((term, index) => ({ term, index })).filter(({ term }) => term.length > 0);
  if (usable.length === 0) return [];
  usable.sort((a, b) => b.term.length - a.term.length);
  const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(
    `(?<![\\p{L}\\p{M}\\p{N}_])(?:${usable.map(({ term }) => `(${escape(term)})`).join('|')})(?![\\p{L}\\p{M}\\p{N}_])`,
    ignoreCase ? 'giu' : 'gu',
  );
  const matches: TermMatch[] = [];
  let runStart = 0;
  const scan = (end: number) => {
    for (const match of text.slice(runStart, end).matchAll(pattern)) {
      const group = match.slice(1).findIndex((value) => value !== undefined);
      matches.push({ start: runStart + match.index, end: runStart + match.index + match[0].length, term: usable[group]!.index });
    }
  };
  for (const mark of text.matchAll(SEGMENT_MARK_PATTERN)) {
    scan(mark.index);
    runStart = mark.index + mark[0].length;
  }
  scan(text.length);
  return matches;
}

describe('finding glossary terms', () => {
  it('finds whole words only, outside marks, and prefers the longer of overlapping terms', () => {
    const text = 'The accountant opened an account; Acme Cloud <x1/>account<g1>Acme</g1> acc<x2/>ount.';
    const matches = findTerms(text, ['account', 'Acme', 'Acme Cloud'], { ignoreCase: false });
    assert.deepEqual(
      matches.map((m) => text.slice(m.start, m.end)),
      ['account', 'Acme Cloud', 'account', 'Acme'],
    );
    assert.equal(matches[1]!.term, 2);
  });

  it('ignores case only when asked', () => {
    const text = 'Account and ACCOUNT and account';
    assert.equal(findTerms(text, ['account'], { ignoreCase: true }).length, 3);
    assert.equal(findTerms(text, ['account'], { ignoreCase: false }).length, 1);
  });

  it('treats letters of any script, digits and underscores as word characters', () => {
    assert.deepEqual(findTerms('café cafés café_x café2 (café)', ['café'], { ignoreCase: false }).map((m) => m.start), [0, 25]);
    assert.deepEqual(findTerms('see .NET and x.NET', ['.NET'], { ignoreCase: false }).map((m) => m.start), [4]);
  });

  it('matches like the regular expression it replaced, on random texts and terms', () => {
    const alphabet = fc.constantFrom('a', 'b', 'A', 'é', ' ', '-', '.', '_', '1', '<x1/>', '<g2>', '</g2>');
    const word = fc.array(alphabet, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('').replace(/<[^>]*>/g, ''));
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 40 }).map((parts) => parts.join('')),
        fc.array(word, { maxLength: 6 }),
        fc.boolean(),
        (text, terms, ignoreCase) => {
          assert.deepEqual(findTerms(text, terms, { ignoreCase }), regexFindTerms(text, terms, ignoreCase));
        },
      ),
      propertyRuns(500),
    );
  });

  it('matches 5,000 terms against 200 KB of text in well under a second', () => {
    const terms = Array.from({ length: 5_000 }, (_, i) => `term${i} word`);
    const words = Array.from({ length: 40_000 }, (_, i) => (i % 97 === 0 ? `term${i % 5_000} word` : `filler${i}`));
    const text = words.join(' ');
    const started = performance.now();
    const matches = new TermMatcher(terms, { ignoreCase: true }).find(text);
    const ms = performance.now() - started;
    assert.equal(matches.length, words.filter((w) => w.startsWith('term')).length);
    assert.ok(ms < 1_000, `${ms} ms`);
  });
});

describe('protecting do-not-translate terms', () => {
  it('replaces each occurrence with a new atomic mark after the text\'s own, and restores it exactly', () => {
    const source = '<g1>Acme Cloud</g1> runs <x1/> on Acme Cloud.';
    const guarded = protectTerms(source, new TermMatcher(['Acme Cloud'], { ignoreCase: false }))!;
    assert.equal(guarded.text, '<g1><x2/></g1> runs <x1/> on <x3/>.');
    assert.equal(markProblem(guarded.text, '<x3/> läuft <x1/> auf <g1><x2/></g1>.'), null);
    assert.equal(guarded.restore('<x3/> läuft <x1/> auf <g1><x2/></g1>.'), 'Acme Cloud läuft <x1/> auf <g1>Acme Cloud</g1>.');
  });

  it('leaves a text without the terms alone', () => {
    assert.equal(protectTerms('acme cloud', new TermMatcher(['Acme Cloud'], { ignoreCase: false })), undefined);
  });
});
