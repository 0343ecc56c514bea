/**
 * sentence-parts.ts and the planner's use of it: where a string of several sentences may
 * be cut (the source's sentence rules, never inside markup, a plural or select branch or a
 * glossary term, never after an abbreviation), and that the parts' answers join back
 * byte for byte with the source's whitespace; planCalls cuts the string that decides a
 * small request's time on eight slots, and nothing on one slot or without a source.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CallBudget, EngineLanguage, TranslationEngine } from '../../src/engines/engine.js';
import { pseudoTranslate } from '../../src/engines/pseudo.js';
import { getAdapter } from '../../src/formats/index.js';
import { findLanguage } from '../../src/languages.js';
import { partOf } from '../../src/translation/plural-parts.js';
import { inlineDocument } from '../../src/translation/prepared-document.js';
import { distinctSegments, planCalls } from '../../src/translation/segment-work.js';
import { joinSentences, sentenceParts, sentenceSpans } from '../../src/translation/sentence-parts.js';
import { unpseudo } from '../formats/helpers.js';
import { countTokens, testTokenizer } from '../helpers/tokenizer.js';

/** The sentences sentenceSpans finds, as text. */
const sentences = (text: string, locale = 'en', terms: string[] = []): string[] | undefined =>
  sentenceSpans(text, locale, terms)?.map((span) => text.slice(span.start, span.end));

describe('where a string may be cut into sentences', () => {
  test('at the source language’s sentence ends, whitespace left between the parts', () => {
    assert.deepEqual(sentences('You are offline. Changes are kept on this device.'), ['You are offline.', 'Changes are kept on this device.']);
    assert.deepEqual(sentences('  Saved!\n\nReload the page?  Then try again. '), ['Saved!', 'Reload the page?', 'Then try again.']);
    assert.deepEqual(sentences('オフラインです。変更はこのデバイスに保存されます。', 'ja'), ['オフラインです。', '変更はこのデバイスに保存されます。']);
  });

  test('one sentence, or none that ends with a sentence mark, is not cut', () => {
    assert.equal(sentences('Your changes were saved.'), undefined);
    assert.equal(sentences('First line\nsecond line'), undefined);
    assert.equal(sentences('Version 2.5 is out'), undefined);
  });

  test('never after what reads as an abbreviation', () => {
    assert.deepEqual(sentences('Ask Mr. Smith about it. He knows the project.'), ['Ask Mr. Smith about it.', 'He knows the project.']);
    assert.equal(sentences('Contact Dr. Who today.'), undefined);
  });

  test('never inside markup or a plural branch; a placeholder stays in its sentence', () => {
    // `Reload <b>now. Please</b> wait.`: the pair spans the sentence end.
    assert.equal(sentences('Reload <g1>now. Please</g1> wait.'), undefined);
    assert.equal(sentences('<x1/><g1>One file. Delete it?</g1><g2><x2/> files. Delete them?</g2><x3/>'), undefined);
    assert.deepEqual(sentences('Saved <x1/> ago. Reload <g1>the page</g1> to see it.'), ['Saved <x1/> ago.', 'Reload <g1>the page</g1> to see it.']);
  });

  test('never inside a glossary term', () => {
    assert.deepEqual(sentences('Open Settings. Sync now.'), ['Open Settings.', 'Sync now.']);
    assert.equal(sentences('Open Settings. Sync now.', 'en', ['settings. sync']), undefined);
  });

  test('a text longer than 4,096 characters is not cut: each part would repeat it as its note', () => {
    const sentence = 'The export of this workspace finished without errors. ';
    const within = sentence.repeat(Math.floor(4096 / sentence.length));
    assert.equal(sentences(within)!.length, Math.floor(4096 / sentence.length));
    assert.equal(sentences(within + sentence), undefined);
  });

  test('a part without words is not a part of its own', () => {
    assert.equal(sentences('<x1/>. Then continue with the rest.'), undefined);
  });
});

describe('sentence parts joined', () => {
  const whole = { id: '3', text: '  You are offline. Changes are kept on this device.\nReconnect to sync them. ', note: 'key: offline' };
  const spans = sentenceSpans(whole.text, 'en')!;

  for (const count of [2, 3]) {
    test(`${count} parts carry the whole string as their note, and their answers join byte for byte`, () => {
      const parts = sentenceParts(whole, spans, count, countTokens)!;
      assert.equal(parts.length, count);
      assert.deepEqual(parts.map((part) => part.id), parts.map((_, i) => `3~${i}`));
      for (const part of parts) {
        assert.ok(part.note!.startsWith('key: offline; sentence'), part.note);
        assert.ok(part.note!.endsWith(`in: ${whole.text}`), 'the note holds the whole string');
        assert.equal(part.text, part.text.trim());
      }
      const answers = parts.map((part) => pseudoTranslate(part.text, false));
      const joined = joinSentences(whole.text, parts.map((part) => part.text), answers);
      assert.equal(joined, pseudoTranslate(whole.text, false));
      assert.equal(unpseudo(joined), whole.text);
    });
  }

  test('after a full-width sentence mark the space between parts is left out', () => {
    const text = 'You are offline. Changes are kept.';
    const parts = ['You are offline.', 'Changes are kept.'];
    assert.equal(joinSentences(text, parts, ['オフラインです。', '変更は保存されます。']), 'オフラインです。変更は保存されます。');
    assert.equal(joinSentences(text, parts, ['Sie sind offline.', 'Änderungen bleiben.']), 'Sie sind offline. Änderungen bleiben.');
  });
});

const FIVE = JSON.stringify(
  {
    save: 'Save changes',
    cancel: 'Discard your changes',
    saved: 'Your changes were saved.',
    offline: 'You are offline. Changes are kept on this device.',
    retry: 'Something went wrong. Please try again.',
  },
  null,
  2,
);

const engineWith = (parallelCalls: number): TranslationEngine => ({
  id: 'plan-only',
  budget: { maxInputTokens: 6000, maxOutputTokens: 16384, callOutputTokens: 1500, parallelCalls } satisfies CallBudget,
  translate: () => Promise.reject(new Error('planning makes no call')),
});

async function planned(content: string, codes: readonly string[], parallelCalls: number, source: string | undefined) {
  const targets: EngineLanguage[] = codes.map((code) => findLanguage(code)!);
  const { unique, pairs } = await distinctSegments([inlineDocument(getAdapter('json').extract(content), undefined)], undefined, targets);
  const calls = await planCalls(pairs, unique, targets, engineWith(parallelCalls), testTokenizer, source ? { source } : {});
  const parts = calls.flatMap(({ chunk }) => chunk.segments.filter((segment) => partOf(segment.id).part !== undefined));
  return { calls, parts };
}

describe('planCalls with a string of sentences that decides the request', () => {
  test('five strings into one target on eight slots: the two strings of two sentences go as sentences, each in a call of its own', async () => {
    const { calls, parts } = await planned(FIVE, ['de'], 8, 'en');
    assert.deepEqual(parts.map((part) => part.text).sort(), ['Changes are kept on this device.', 'Please try again.', 'Something went wrong.', 'You are offline.']);
    for (const part of parts) assert.equal(calls.find(({ chunk }) => chunk.segments.includes(part))!.chunk.segments.length, 1);
  });

  test('on one slot, without a known source, or into many targets nothing is cut', async () => {
    assert.deepEqual((await planned(FIVE, ['de'], 1, 'en')).parts, []);
    assert.deepEqual((await planned(FIVE, ['de'], 8, undefined)).parts, []);
    const many = ['de', 'fr', 'es', 'it', 'nl', 'pl', 'sv', 'da', 'fi', 'cs', 'hu', 'ro', 'pt', 'tr', 'el', 'bg'];
    assert.deepEqual((await planned(FIVE, many, 8, 'en')).parts, []);
  });

  test('a plural message whose branches hold sentences is never cut at them', async () => {
    const content = JSON.stringify({ a: 'Save', files: '{count, plural, one {One file was removed. You can restore it from the bin.} other {# files were removed. You can restore them from the bin.}}' });
    const { parts } = await planned(content, ['de'], 8, 'en');
    // It may go in parts by its forms (decision 0104), each form whole, never by sentences.
    for (const part of parts) {
      assert.match(part.text, /^<x1\/><g(\d)>[^<]*(?:<x2\/>[^<]*)?<\/g\1><x3\/>$/);
      assert.equal(part.note, undefined);
    }
  });
});
