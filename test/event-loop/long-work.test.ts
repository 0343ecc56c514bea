/**
 * Every long loop on the main thread says when it yields (src/event-loop/long-work.ts,
 * decision 0131): the HTTP room takes its request hops off only while it hears them, so a
 * long loop that yields with a bare setImmediate would make every request wait behind it
 * twice (docs/event-loop.md). Each loop the service has is run here over work long enough
 * to yield, and must be heard; short work must not be.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { hearLongWork, yieldFromLongWork } from '../../src/event-loop/long-work.js';
import { Turns } from '../../src/event-loop/turns.js';
import { AnswerInSlices, serializeInTurns } from '../../src/http/plugins/large-answers.js';
import { PseudoEngine } from '../../src/engines/pseudo.js';
import type { Tokenizer } from '../../src/tokens.js';
import { testTokenizer } from '../helpers/tokenizer.js';

let heard = 0;
let stopHearing: (() => void) | undefined;

function listen(): void {
  heard = 0;
  stopHearing = hearLongWork(() => heard++);
}

afterEach(() => {
  stopHearing?.();
  stopHearing = undefined;
});

/** A text of about `chars` characters, words and spaces, as a long segment is. */
function longText(chars: number): string {
  return 'The quick brown fox jumps over the lazy dog. '.repeat(Math.ceil(chars / 45));
}

const FRENCH = { code: 'fr', name: 'French', rtl: false };

/**
 * The pseudo engine over a tokenizer that counts at once, so that what is heard is the
 * engine's own yields and not the real tokenizer's (heard in a test of its own below).
 */
function pseudo(): PseudoEngine {
  const instantCounts = { countTokensYielding: async (text: string) => Math.ceil(text.length / 4) } as unknown as Tokenizer;
  return new PseudoEngine({ maxInputTokens: 6000, maxOutputTokens: 16384 }, instantCounts);
}

describe('long work is heard when it yields (decision 0131)', () => {
  it('yieldFromLongWork tells every listener, and a removed listener hears nothing more', async () => {
    listen();
    await yieldFromLongWork();
    assert.equal(heard, 1);
    stopHearing!();
    await yieldFromLongWork();
    assert.equal(heard, 1);
  });

  it('Turns.yield is heard: every loop that takes turns through Turns', async () => {
    listen();
    await new Turns().yield();
    assert.equal(heard, 1);
  });

  it('the pseudo engine is heard while it transforms a segment of several slices, and not for a sentence', async () => {
    listen();
    await pseudo().translate({ segments: [{ id: 's1', text: 'Hello, world.' }], targets: [FRENCH], format: 'plain' });
    assert.equal(heard, 0, 'a sentence is not long work: its yield before the call stays a bare one');
    await pseudo().translate({ segments: [{ id: 's1', text: longText(300_000) }], targets: [FRENCH], format: 'plain' });
    assert.ok(heard > 0);
  });

  it('the tokenizer is heard while it counts a long text in slices', async () => {
    listen();
    // Slices are counted until a turn has lasted TURN_MS: a few MiB take several turns.
    await testTokenizer.countTokensYielding(longText(4_000_000));
    assert.ok(heard > 0);
  });

  it('a large answer serialized in turns is heard', async () => {
    listen();
    await serializeInTurns({ translations: [{ fr: longText(200_000) }] });
    assert.ok(heard > 0);
  });

  it('a large answer is heard while its slices are written', async () => {
    listen();
    let bytes = 0;
    for await (const slice of new AnswerInSlices([longText(400_000)])) bytes += (slice as Buffer).length;
    assert.ok(bytes >= 400_000);
    assert.ok(heard > 0);
  });
});
