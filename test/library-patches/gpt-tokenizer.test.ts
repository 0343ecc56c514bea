/**
 * The changes library-patches/gpt-tokenizer.ts makes inside gpt-tokenizer are made in the
 * service's tokenizer, and do what they are for. A gpt-tokenizer release that moves the
 * private fields they reach fails here first, with the version they were written for.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { countTokens as packagedCount } from 'gpt-tokenizer/encoding/o200k_base';
import { MAX_CACHED_WORD, boundMergeCache } from '../../src/library-patches/gpt-tokenizer.js';
import { Tokenizer } from '../../src/tokens.js';

const tokenizer = new Tokenizer();
const countTokens = (text: string) => tokenizer.countTokens(text);

const WRITTEN_FOR = '4.0.0';
const installed = (JSON.parse(readFileSync(new URL('../../node_modules/gpt-tokenizer/package.json', import.meta.url), 'utf8')) as { version: string }).version;
const upgradeHint = `written for gpt-tokenizer ${WRITTEN_FOR}, ${installed} is installed: see src/library-patches/README.md`;

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

describe("the tokenizer's changes inside gpt-tokenizer", () => {
  it('are both made in the service\'s tokenizer', () => {
    assert.equal(tokenizer.usesCompactRanks, true, `the rank map is no longer where useCompactRanks looks (${upgradeHint})`);
    assert.equal(tokenizer.boundsMergeCache, true, `the merge cache is no longer where boundMergeCache looks (${upgradeHint})`);
  });

  it('leave nothing of a counted document behind: the merge cache keeps copies of short words', () => {
    // 40 distinct documents of 256 KiB: ordinary words (tokens of their own, never cached)
    // and one word the vocabulary lacks, which is merged and cached.
    const documentOf = (n: number) => `${'the weather is lovely today '.repeat(9_710)}qzxv${n.toString(36)}wqzkhjd`;
    countTokens(documentOf(-1));
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    for (let n = 0; n < 40; n++) countTokens(documentOf(n));
    collectGarbage();
    const grownMiB = (process.memoryUsage().heapUsed - before) / 2 ** 20;
    // Kept whole, the documents would be 40 × 0.25 MiB.
    assert.ok(grownMiB < 3, `the heap kept ${grownMiB.toFixed(1)} MiB after counting 40 distinct documents`);
  });

  it('count as the packaged tokenizer does with words longer than the cache keeps', () => {
    const long = `${'supercalifragilistic'.repeat(Math.ceil((MAX_CACHED_WORD + 10) / 20))} and some ordinary words`;
    assert.equal(countTokens(long), packagedCount(long));
    assert.equal(countTokens(long), packagedCount(long), 'the same count the second time (nothing wrongly cached)');
  });

  it('the merge cache empties itself before the library would evict (whose first-key walk cost seconds on many distinct words)', () => {
    const core = { mergeCache: new Map<string, number[]>() };
    assert.equal(boundMergeCache({ bytePairEncodingCoreProcessor: core }, 4), true);
    const cache = core.mergeCache;
    cache.set('alpha', [1]);
    cache.set('beta', [2]);
    // The library's refresh on a hit: delete, then set again; the word stays, its value too.
    assert.equal(cache.delete('alpha'), true);
    cache.set('alpha', [1]);
    assert.deepEqual([...cache.keys()], ['alpha', 'beta']);
    cache.set('gamma', [3]);
    assert.equal(cache.size, 3);
    // One short of the library's own bound (4): emptied, so `size >= mergeCacheSize` never holds there.
    cache.set('delta', [4]);
    assert.deepEqual([...cache.entries()], [['delta', [4]]]);
    for (let i = 0; i < 100; i++) cache.set(`word${i}`, [i]);
    assert.ok(cache.size < 4, `size ${cache.size}`);
  });

  it('counts as the packaged tokenizer does past the cache bound, many times over', () => {
    const words = Array.from({ length: 30_000 }, (_, i) => `label_${i.toString(36)} option ${i}`).join(' ');
    assert.equal(countTokens(words), packagedCount(words));
    assert.equal(countTokens(words), packagedCount(words));
  });

  it('boundMergeCache is false for an encoder whose cache is not a Map where gpt-tokenizer 4 keeps it', () => {
    assert.equal(boundMergeCache({}, 10), false);
    assert.equal(boundMergeCache({ bytePairEncodingCoreProcessor: { mergeCache: {} } }, 10), false);
  });
});
