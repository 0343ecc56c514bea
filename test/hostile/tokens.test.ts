/**
 * Counting tokens of untrusted text stays fast and leaves nothing behind: a blob is
 * estimated rather than merged character by character, ordinary text is counted exactly,
 * and the yielding count used on the main thread gives the same numbers.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { countTokens as exactO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { PseudoEngine, pseudoTranslate } from '../../src/engines/pseudo.js';
import { findLanguage } from '../../src/languages.js';
import { countTokens, countTokensYielding, testTokenizer } from '../helpers/tokenizer.js';
import { HOSTILE_SHAPES } from './shapes.js';

const CORPUS_DIR = 'bench/prompt-tokens/corpus';
const corpus = readdirSync(CORPUS_DIR)
  .map((name) => readFileSync(`${CORPUS_DIR}/${name}`, 'utf8'))
  .join('\n\n');

describe('token counts of hostile text', () => {
  it('ordinary documents are counted exactly, whole and in yielding slices', async () => {
    const large = corpus.repeat(Math.ceil(200_000 / corpus.length));
    const exact = exactO200k(large);
    assert.equal(countTokens(large), exact);
    assert.equal(await countTokensYielding(large), exact);
  });

  it('a 1.9 MB base64 blob is counted in well under a second, never below its real count', () => {
    const blob = HOSTILE_SHAPES.find((shape) => shape.name.includes('base64'))!.content(1_900_000);
    const started = performance.now();
    const counted = countTokens(blob);
    const elapsed = performance.now() - started;
    assert.ok(elapsed < 1_000, `${elapsed.toFixed(0)} ms (exactly it took ~6.6 s)`);
    assert.ok(counted >= exactO200k(blob.slice(0, 20_000)) * (blob.length / 20_000) * 0.9, 'an estimate from above');
  });

  it('the pseudo engine translates a huge segment in turns, with the same text as in one piece', async () => {
    const text = 'Hello <g1>bold</g1> and <x2/> world, '.repeat(12_000);
    const engine = new PseudoEngine({ maxInputTokens: 1_000_000, maxOutputTokens: 10_000_000 }, testTokenizer);
    const fr = findLanguage('fr')!;
    const ar = findLanguage('ar')!;
    const result = await engine.translate({ segments: [{ id: 's1', text }], targets: [fr, ar], format: 'plain' });
    assert.equal(result.translations.get('fr')!.get('s1'), pseudoTranslate(text, false));
    assert.equal(result.translations.get('ar')!.get('s1'), pseudoTranslate(text, true));
  });
});
