/**
 * The compact rank table (tokenizer/compact-ranks.ts) must answer every lookup as
 * gpt-tokenizer's own map does, the service's tokenizer must really use it, and counts must
 * not change: compared with the packaged tokenizer on text nobody on the team wrote (the
 * translations Debian installs under /usr/share/locale, in every language there, and the
 * documentation under /usr/share/doc).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { GptEncoding } from 'gpt-tokenizer/esm/GptEncoding';
import { countTokens as packagedCount } from 'gpt-tokenizer/encoding/o200k_base';
import { Tokenizer } from '../../src/tokens.js';

const tokenizer = new Tokenizer();
const countTokens = (text: string) => tokenizer.countTokens(text);
import { useCompactRanks } from '../../src/library-patches/gpt-tokenizer.js';
import { CompactRankTable } from '../../src/tokenizer/compact-ranks.js';
import { readO200kRanks } from '../../src/tokenizer/o200k-ranks.js';
import { filesUnder } from '../helpers/files.js';
import { installedTranslations } from '../helpers/mo-files.js';

/** Files under /usr/share/doc not compressed (READMEs, copyright files, examples), up to `limit` characters in all. */
function installedDocs(limit: number): string[] {
  const texts: string[] = [];
  let chars = 0;
  for (const path of filesUnder('/usr/share/doc', '')) {
    if (path.endsWith('.gz') || chars >= limit) continue;
    const text = readFileSync(path, 'utf8');
    texts.push(text);
    chars += text.length;
  }
  return texts;
}

/** A few texts the corpus may lack: several scripts, emoji with modifiers, a leading byte-order mark. */
const ACROSS_SCRIPTS = [
  'The weather is lovely today, so we are going for a walk.',
  'Ça coûte 12,50 € — naïve façade, Größe, Straße; Ελληνικά; Русский текст.',
  '日本語のテキストと中文文本，以及한국어 문장。',
  'مرحبا بالعالم — שלום עולם — नमस्ते दुनिया',
  '{"key": "value\\n", "n": [1, 2, 3]} <b>bold</b> **md** `code` 🙂👍🏽',
  '\uFEFFA leading byte-order mark, then \t tabs and   spaces\r\n',
];

describe('CompactRankTable', () => {
  const ranks = readO200kRanks();
  const table = new CompactRankTable(ranks);

  it("answers every token's text with its rank, as gpt-tokenizer's map does", () => {
    const encoding = GptEncoding.getEncodingApi('o200k_base', () => readO200kRanks());
    const map = (encoding as unknown as { bytePairEncodingCoreProcessor: { bytePairStringRankEncoder: Map<string, number> } })
      .bytePairEncodingCoreProcessor.bytePairStringRankEncoder;
    assert.ok(map instanceof Map && map.size > 190_000);
    assert.equal(table.size, map.size);
    for (const [text, rank] of map) assert.equal(table.get(text), rank, JSON.stringify(text));
  });

  it('answers undefined for text that is no token', () => {
    for (const text of ['', 'zzqxqzzqxq', ' the weather is lovely', '\uD800', 'ÿÿÿÿÿÿÿÿ', 'x'.repeat(300)]) {
      assert.equal(table.get(text), undefined, JSON.stringify(text));
    }
  });
});

describe('the tokenizer on the compact table', () => {
  it('is what the service counts with: the encoder reads the table in place of its map', () => {
    assert.equal(tokenizer.usesCompactRanks, true, "gpt-tokenizer's encoder no longer keeps its map where useCompactRanks looks");
    const encoding = GptEncoding.getEncodingApi('o200k_base', () => readO200kRanks());
    assert.equal(useCompactRanks(encoding, new CompactRankTable(readO200kRanks())), true);
    assert.equal(encoding.countTokens('hello world'), 2);
    // A table that knows nothing: if the encoder still read its own map, it would count on.
    (encoding as unknown as { bytePairEncodingCoreProcessor: { bytePairStringRankEncoder: unknown } }).bytePairEncodingCoreProcessor.bytePairStringRankEncoder = {
      get: () => undefined,
    };
    assert.throws(() => encoding.countTokens('hello world'));
  });

  it('counts as the packaged tokenizer does, across scripts, on installed translations and documentation', () => {
    // countTokens estimates runs of over 256 characters without a space (tokens.ts); the
    // rest it counts exactly, and only that is compared.
    const texts = [...ACROSS_SCRIPTS, ...installedTranslations(3), ...installedDocs(1_500_000)].filter((text) => !/\S{257,}/.test(text));
    assert.ok(texts.length > 2_000, `only ${texts.length} texts found`);
    const differing = texts.filter((text) => countTokens(text) !== packagedCount(text));
    assert.deepEqual(differing.map((text) => text.slice(0, 80)), []);
  });
});
