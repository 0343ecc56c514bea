/**
 * The per-segment loops of translation/segment-work.ts on the main thread: a small request
 * gets its distinct segments and memory keys at once, with no promise (decision 0121), and a
 * large one the same answer taking turns; a target's rows cost no promise (decision 0120).
 */
import assert from 'node:assert/strict';
import { createHook } from 'node:async_hooks';
import { describe, it } from 'node:test';
import { Turns } from '../../src/event-loop/turns.js';
import { MemoryKeys } from '../../src/memory/key.js';
import type { SegmentMemory } from '../../src/memory/translation-memory.js';
import { targetOf } from '../../src/translation/pairs.js';
import { distinctSegments, memoryKeys, translateSegments } from '../../src/translation/segment-work.js';
import { prepareDocument } from '../../src/translation/translate-document.js';
import { pseudo } from '../helpers/engines.js';
import { testTokenizer } from '../helpers/tokenizer.js';
import { targets } from './documents.js';

const languages = targets('fr', 'de').map((target) => target.language);
const neverDue = () => new Turns(() => 0, 8);
/** Every look at the clock (each 64 steps) finds the turn over. */
const alwaysDue = () => new Turns(() => 0, 0);

describe('the distinct segments and memory keys of a piece of work', () => {
  it('are answered at once, not as a promise, for a small request', async () => {
    const document = await prepareDocument('The weather is lovely today, so we are going for a walk.', 'plain', {});
    const found = distinctSegments([document], undefined, languages, neverDue());
    assert.ok(!(found instanceof Promise), 'distinctSegments answered with a promise');
    const keys = memoryKeys(new MemoryKeys(), found.unique, languages, { engine: pseudo() }, neverDue());
    assert.ok(!(keys instanceof Promise), 'memoryKeys answered with a promise');
    assert.equal(keys.length, 2);
    document.release();
  });

  it('take turns on a large one and come out the same', async () => {
    const lines = Array.from({ length: 3_000 }, (_, i) => `Line ${i % 1_000} of a long list.`);
    const document = await prepareDocument(lines.join('\n\n'), 'plain', {});
    const atOnce = distinctSegments([document], undefined, languages, neverDue());
    assert.ok(!(atOnce instanceof Promise));
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    const inTurns = distinctSegments([document], undefined, languages, alwaysDue());
    assert.ok(inTurns instanceof Promise, 'a turn fell due, so the rest went on later');
    const found = await inTurns;
    assert.deepEqual(found, atOnce);
    assert.equal(found.unique.length, 1_000);
    const keysInTurns = memoryKeys(new MemoryKeys(), found.unique, languages, { engine: pseudo() }, alwaysDue());
    assert.ok(keysInTurns instanceof Promise);
    assert.deepEqual(await keysInTurns, memoryKeys(new MemoryKeys(), found.unique, languages, { engine: pseudo() }, neverDue()));
    assert.ok(timerRan, 'a timer ran while they took turns');
    document.release();
  });

  it("count each target's own pairs as they are made, plural shapes of other targets left out", async () => {
    // Japanese has one plural form and Russian four: each gets its own shape of the message.
    const content = JSON.stringify({ files: '{count, plural, one {# file} other {# files}}', title: 'Your files' });
    const document = await prepareDocument(content, 'json', {});
    const codes = targets('ja', 'ru', 'fr').map((target) => target.language);
    const found = await distinctSegments([document], undefined, codes, alwaysDue());
    const counted = codes.map((_, t) => Array.from(found.pairs).filter((pair) => targetOf(pair) === t).length);
    assert.deepEqual(found.pairsOfTarget, counted);
    assert.deepEqual(found.pairsOfTarget, [2, 2, 2], 'each target needs the title and its own shape of the message');
    assert.ok(found.unique.length > counted[0]!, 'each target has only its own plural shape');
    document.release();
  });
});

/** A memory that holds every key (the usual repeat request), its lookup answered at once. */
function memoryHoldingEverything(): SegmentMemory {
  const keys = new MemoryKeys();
  return {
    keyOf: (parts, keysInWork) => keys.keyOf(parts, keysInWork),
    lookup: (wanted) => Promise.resolve(new Map(wanted.map((key) => [key, `remembered ${key.slice(0, 8)}`]))),
    save: () => Promise.resolve(),
    flight: () => assert.fail('nothing is left to translate'),
  };
}

/** The promises made while `work` runs to its end. */
async function promisesMadeBy(work: () => Promise<unknown>): Promise<number> {
  let made = 0;
  const hook = createHook({ init: (_id, type) => void (type === 'PROMISE' && made++) }).enable();
  try {
    await work();
  } finally {
    hook.disable();
  }
  return made;
}

describe('a request answered from memory', () => {
  it('makes as many promises into five targets as into one: none a target for its rows', async () => {
    const document = await prepareDocument('The weather is lovely today, so we are going for a walk.', 'plain', {});
    const translate = (codes: string[]) => () =>
      translateSegments([document], { targets: targets(...codes), engine: pseudo(), tokenizer: testTokenizer, memory: memoryHoldingEverything() });
    await translate(['fr'])(); // not counted: a first run loads what the work imports on first use
    const one = await promisesMadeBy(translate(['fr']));
    const five = await promisesMadeBy(translate(['fr', 'de', 'es', 'it', 'ja']));
    assert.equal(five, one, `one target: ${one} promises, five: ${five}`);
    const work = await translate(['fr', 'de'])();
    assert.equal(work.cachedSegments, 2);
    assert.equal(work.translations[0]![1]![0]!.startsWith('remembered '), true);
    document.release();
  });
});
