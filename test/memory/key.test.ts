/**
 * The translation-memory key (src/memory/key.ts, docs/memory.md "The key"): the sha256 of
 * the documented layout, the same whether its digest was remembered (MemoryKeys) or computed, for short
 * and long segments, before and after the remembered digests were dropped; every part
 * changes it. Rows already stored depend on this layout staying put.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { MAX_CACHED_DIGESTS, MemoryKeys, memoryKey, type MemoryKeyParts } from '../../src/memory/key.js';

const PARTS: MemoryKeyParts = {
  text: 'Save <x1/> changes',
  format: 'markdown',
  singleLine: true,
  source: 'en',
  target: 'de',
  engine: 'openai:gpt-4o-mini',
  promptVersion: '7',
  glossary: { id: 'gl_1', version: 3 },
  formality: 'formal',
  context: 'A button in a settings dialog',
};

/** The layout of docs/memory.md, computed with a Hash object fed part by part. */
function expectedKey(parts: MemoryKeyParts): string {
  const sha = (text: string) => createHash('sha256').update(text).digest('hex');
  const head = [
    'tm2',
    parts.engine,
    parts.promptVersion,
    parts.format,
    parts.singleLine ? '1' : '0',
    parts.source ?? '',
    parts.target,
    parts.glossary ? `${parts.glossary.id}@${parts.glossary.version}` : '',
    parts.formality ?? '',
    parts.context === undefined ? '' : sha(parts.context),
    ...(parts.plurals ? [`plurals:${parts.plurals}`] : []),
  ];
  const hash = createHash('sha256');
  for (const part of head) hash.update(part).update('\u0000');
  return hash.update(parts.text).digest('hex');
}

describe('the translation-memory key', () => {
  it('is the sha256 of the documented layout, computed or remembered, for short and long segments', () => {
    const long = { ...PARTS, text: 'word '.repeat(400) };
    const bare = { ...PARTS, source: undefined, glossary: undefined, formality: undefined, context: undefined };
    const counted = { ...PARTS, plurals: 'cardinal:icu:=0,one,other>one,few,many,other' };
    const keys = new MemoryKeys();
    for (const parts of [PARTS, long, bare, counted]) {
      const first = keys.key(parts);
      assert.equal(first, expectedKey(parts));
      assert.equal(memoryKey(parts), first, 'computed without remembering');
      assert.equal(keys.key(parts), first, 'asked again (remembered for short inputs)');
    }
  });

  it('stays right after the remembered digests were dropped for room', () => {
    const keys = new MemoryKeys();
    const before = keys.key(PARTS);
    for (let i = 0; i < 5_000; i++) {
      const parts = { ...PARTS, text: `string number ${i}` };
      assert.equal(keys.key(parts), expectedKey(parts));
    }
    assert.equal(keys.key(PARTS), before);
  });

  it('of a piece of work larger than the remembered digests is right and leaves them as they were', () => {
    const keys = new MemoryKeys();
    const remembered = keys.key(PARTS);
    const cached = keys.cachedDigests;
    const large = MAX_CACHED_DIGESTS + 1;
    for (let i = 0; i < 100; i++) {
      const parts = { ...PARTS, text: `string number ${i}` };
      assert.equal(keys.key(parts, large), expectedKey(parts));
    }
    assert.equal(keys.cachedDigests, cached, 'a large piece of work would only push the digests out one by one');
    assert.equal(keys.key(PARTS, large), remembered);
    for (let i = 0; i < 100; i++) keys.key({ ...PARTS, text: `string number ${i}` }, MAX_CACHED_DIGESTS);
    assert.equal(keys.cachedDigests, cached + 100, 'a piece of work the cache holds is remembered');
  });

  it('changes with every part', () => {
    const changed: MemoryKeyParts[] = [
      { ...PARTS, text: 'Save <x1/> change' },
      { ...PARTS, format: 'html' },
      { ...PARTS, singleLine: false },
      { ...PARTS, source: undefined },
      { ...PARTS, target: 'fr' },
      { ...PARTS, engine: 'pseudo' },
      { ...PARTS, promptVersion: '8' },
      { ...PARTS, glossary: { id: 'gl_1', version: 4 } },
      { ...PARTS, glossary: undefined },
      { ...PARTS, formality: 'informal' },
      { ...PARTS, context: 'A menu item' },
      { ...PARTS, context: undefined },
      { ...PARTS, plurals: 'cardinal:icu:one,other>one,few,many,other' },
    ];
    const keys = new Set([memoryKey(PARTS), ...changed.map((parts) => memoryKey(parts))]);
    assert.equal(keys.size, changed.length + 1);
  });
});

describe('the memory key of a segment with counted messages', () => {
  it('holds what the plural shape depends on: the source’s selectors and the target’s categories', async () => {
    const { distinctSegments, memoryKeys } = await import('../../src/translation/segment-work.js');
    const { prepareDocument } = await import('../../src/translation/translate-document.js');
    const { pseudo } = await import('../helpers/engines.js');
    const { targets } = await import('../translation/documents.js');
    // `one` and `=1` mask alike, and Russian and Polish ask for the same branches.
    const documents = await Promise.all(
      ['You have {n, plural, one {# file} other {# files}}.', 'You have {n, plural, =1 {# file} other {# files}}.', 'Plain words.'].map((content) =>
        prepareDocument(content, 'plain', { largeDocumentChars: Infinity }),
      ),
    );
    const languages = targets('ru', 'pl', 'de').map((target) => target.language);
    const { unique, positions } = await distinctSegments(documents, undefined, languages);
    const keys = await memoryKeys(new MemoryKeys(), unique, languages, { engine: pseudo() });
    const keyOf = (target: number, document: number) => keys[target]![positions[target]![document]![0]!]!;
    const all = [0, 1, 2].flatMap((target) => [0, 1].map((document) => keyOf(target, document)));
    assert.equal(new Set(all).size, all.length, 'no two of ru, pl, de × one, =1 share a key');
    assert.equal(unique[positions[0]![0]![0]!]!.segment.text, unique[positions[1]![0]![0]!]!.segment.text, 'ru and pl share one shaped text');
    // A segment without counted messages keeps the key it always had.
    const plainKey = keyOf(2, 2);
    assert.equal(
      plainKey,
      memoryKey({ text: 'Plain words.', format: 'plain', singleLine: false, source: undefined, target: 'de', engine: 'pseudo', promptVersion: (await import('../../src/engines/prompt.js')).PROMPT_VERSION, glossary: undefined, formality: undefined, context: undefined }),
    );
    for (const document of documents) document.release();
  });
});
