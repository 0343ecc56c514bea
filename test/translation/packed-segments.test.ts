import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deserialize, serialize } from 'node:v8';
import { Turns } from '../../src/event-loop/turns.js';
import { SEGMENT_KINDS, type Segment } from '../../src/segments/segment.js';
import { packSegments, unpackSegments } from '../../src/translation/packed-segments.js';
import { columnInTurns, columnOf, stringsOf } from '../../src/translation/string-column.js';

/** What crossing a thread does to a message: structured cloning, as postMessage does it. */
const crossed = <T>(value: T): T => deserialize(serialize(value)) as T;

const segments: Segment[] = [
  { id: 's1', text: 'Hello <g1>world</g1>', kind: 'block' },
  { id: 's2', text: '', kind: 'cell', singleLine: true },
  { id: 's3', text: 'Grüße 👋 مرحبا', kind: 'value', ctx: 'menu', note: 'Shown on the <b>start</b> page' },
  { id: 's4', text: '<g1>{count} file</g1><g2>{count} files</g2>', kind: 'value', plurals: [{ type: 'cardinal', style: 'icu', branches: [{ selector: 'one', pair: 1 }, { selector: 'other', pair: 2 }] }] },
  { id: 's5', text: 'only a note', kind: 'heading', note: '' },
  { id: 's6', text: 'x', kind: 'line', ctx: '' },
];

describe('segments crossing from a document worker', () => {
  it('come back equal, every field, after structured cloning', async () => {
    assert.deepEqual(await unpackSegments(crossed(packSegments(segments))), segments);
  });

  it('keep ids that are not s1, s2, …', async () => {
    const renamed = segments.map((segment, i) => ({ ...segment, id: `unit-${i}` }));
    assert.deepEqual(await unpackSegments(crossed(packSegments(renamed))), renamed);
  });

  it('every kind survives', async () => {
    const everyKind = SEGMENT_KINDS.map((kind, i): Segment => ({ id: `s${i + 1}`, text: kind, kind }));
    assert.deepEqual(await unpackSegments(crossed(packSegments(everyKind))), everyKind);
  });
});

describe('a string column', () => {
  const strings = ['', 'a', 'Grüße 👋', '', 'مرحبا', 'x'.repeat(10_000), ''];

  it('gives back every string, empty ones included', () => {
    assert.deepEqual(stringsOf(crossed(columnOf(strings))), strings);
  });

  it('joined in turns equals joined at once, and takes turns on a long list', async () => {
    const long = Array.from({ length: 300_000 }, (_, i) => `translation ${i} `);
    let yields = 0;
    const turns = new Turns(() => 0, 0);
    const yieldOnce = turns.yield.bind(turns);
    turns.yield = async () => {
      yields++;
      await yieldOnce();
    };
    const inTurns = await columnInTurns(long, turns);
    assert.deepEqual(inTurns, columnOf(long));
    assert.deepEqual(stringsOf(crossed(inTurns)), long, 'every string comes back from it');
    assert.ok(yields > 0, 'the main thread joined it taking turns');
    assert.deepEqual(await columnInTurns(strings, new Turns()), columnOf(strings));
  });
});
