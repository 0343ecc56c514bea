/**
 * The detector's reach into eld (library-patches/eld.ts) still works with the eld
 * installed, and the table the build wrote (generated/eld-medium.json) is the one the
 * installed eld gives now. An eld release that moves `createEld` or its tables, or changes
 * their data, fails here first, with the version the patch was written for.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ELD_SUBSET } from '../../src/detection/detect-language.js';
import { loadEldDetector } from '../../src/detection/eld-detector.js';
import { LEAN_TABLE_FILE, leanTableOf, readLeanTable } from '../../src/detection/lean-table.js';
import { createEldOver, eldVersion, importEldTable } from '../../src/library-patches/eld.js';

const WRITTEN_FOR = '2.1.0';

describe("the detector's reach into eld", () => {
  it('makes a detector over the lean table with the eld installed', async () => {
    const installed = await eldVersion();
    const hint = `written for eld ${WRITTEN_FOR}, ${installed} is installed: see src/library-patches/README.md`;
    const { table } = await readLeanTable();
    const eld = await createEldOver(table, ELD_SUBSET);
    assert.ok(eld !== undefined, `eld's createEld is no longer where library-patches/eld.ts looks (${hint})`);
    assert.equal(eld.detect('Das Wetter ist heute sehr schön, wir gehen spazieren.').language, 'de');
    assert.equal((await loadEldDetector(ELD_SUBSET)).loader, 'lean table', hint);
  });

  it("the generated table is what the installed eld's medium table gives now", async () => {
    const written = JSON.parse(readFileSync(LEAN_TABLE_FILE, 'utf8')) as ReturnType<typeof leanTableOf>;
    const table = await importEldTable('medium');
    const now = leanTableOf({ version: await eldVersion(), table: 'medium', type: table.type }, table as Parameters<typeof leanTableOf>[1], ELD_SUBSET);
    assert.equal(written.eld.version, now.eld.version, 'the table was generated from another eld: run npm run build');
    assert.ok(written.keys.length > 50_000, `only ${written.keys.length} n-grams`);
    assert.deepStrictEqual(written, JSON.parse(JSON.stringify(now)), 'the generated table differs from the installed eld\'s: run npm run build');
  });

  it('falls back to eld\'s public entry when asked, with the same answers', async () => {
    const lean = await loadEldDetector(ELD_SUBSET);
    const fallback = await loadEldDetector(ELD_SUBSET, { lean: false });
    assert.equal(fallback.loader, 'eld/medium');
    for (const text of ['The weather is lovely today.', 'Il fait beau aujourd’hui, allons nous promener.', 'Сегодня прекрасная погода.', '今日はいい天気ですね。']) {
      const answer = (result: ReturnType<typeof lean.eld.detect>) => JSON.stringify([result.language, result.getScores(), result.isReliable()]);
      assert.equal(answer(lean.eld.detect(text)), answer(fallback.eld.detect(text)), text);
    }
  });
});
