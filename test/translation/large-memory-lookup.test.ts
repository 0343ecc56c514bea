/**
 * A request whose memory keys are many is looked up one target at a time (decision 0128,
 * `lookupByTarget`): each hit must still go to its own target, and only the pairs memory
 * did not hold go to the engine.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryKeys } from '../../src/memory/key.js';
import { SingleFlight } from '../../src/memory/single-flight.js';
import type { SegmentMemory } from '../../src/memory/translation-memory.js';
import { translateSegments } from '../../src/translation/segment-work.js';
import { prepareDocument } from '../../src/translation/translate-document.js';
import { pseudo } from '../helpers/engines.js';
import { testTokenizer } from '../helpers/tokenizer.js';
import { targets } from './documents.js';

const CODES = ['fr', 'de', 'es', 'it', 'ja', 'ru', 'pl', 'nl', 'sv', 'tr'];

describe('memory looked up a target at a time', () => {
  it('7,000 strings into 10 targets (70,000 keys): hits go to their own target, the rest to the engine', async () => {
    const strings = Array.from({ length: 7_000 }, (_, i) => `String number ${i} of the catalog`);
    const document = await prepareDocument(JSON.stringify(strings), 'json', {});
    const keys = new MemoryKeys();
    const held = new Map<string, string>();
    const lookups: number[] = [];
    const flights = new SingleFlight();
    const memory: SegmentMemory = {
      keyOf: (parts, keysInWork) => keys.keyOf(parts, keysInWork),
      lookup: (wanted) => {
        lookups.push(wanted.length);
        return Promise.resolve(new Map(wanted.flatMap((key) => (held.has(key) ? [[key, held.get(key)!] as const] : []))));
      },
      save: async (entries) => {
        for (const { key, translation } of entries) held.set(key, translation);
      },
      flight: () => flights.flight('user'),
    };
    const into = (codes: string[]) => translateSegments([document], { targets: targets(...codes), engine: pseudo(), tokenizer: testTokenizer, memory });

    // German alone first: memory then holds German's keys and no other target's.
    const german = await into(['de']);
    assert.deepEqual(lookups, [7_000], 'one lookup for 7,000 keys');
    for (const key of held.keys()) held.set(key, `remembered ${held.get(key)}`);

    lookups.length = 0;
    const all = await into(CODES);
    assert.deepEqual(lookups, CODES.map(() => 7_000), 'a lookup for each target');
    assert.equal(all.cachedSegments, 7_000, 'German, and only German, came from memory');
    const [translations] = all.translations;
    CODES.forEach((code, t) => {
      for (const i of [0, 3_500, 6_999]) {
        const text = translations![t]![i]!;
        if (code === 'de') assert.equal(text, `remembered ${german.translations[0]![0]![i]}`, `de ${i}`);
        else assert.ok(!text.startsWith('remembered'), `${code} ${i}: ${text}`);
      }
    });
    document.release();
  });
});
