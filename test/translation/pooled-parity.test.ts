import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { FORMATS } from '../../src/formats/format.js';
import { DocumentPool } from '../../src/translation/document-pool.js';
import { LARGE_DOCUMENT_CHARS, prepareDocument, translatePrepared } from '../../src/translation/translate-document.js';
import { fixtures } from '../formats/helpers.js';
import { pseudo } from '../helpers/engines.js';
import { testTokenizer } from '../helpers/tokenizer.js';
import { pastThreshold, targets } from './documents.js';

const pool = new DocumentPool({ size: 2 });
after(() => pool.close());

const TARGETS = targets('fr', 'ar', 'pt-BR');

/** Translates `content` with the pseudo engine, inline or in the pool, and releases it. */
async function translate(content: string, format: (typeof FORMATS)[number] | undefined, pooled: boolean) {
  const prepared = await prepareDocument(content, format, pooled ? { pool, largeDocumentChars: 0 } : { largeDocumentChars: Infinity });
  try {
    const result = await translatePrepared({ prepared, targets: TARGETS, engine: pseudo(), tokenizer: testTokenizer });
    return { ...result, segments: prepared.segments, format: prepared.format, sourceLanguage: prepared.sourceLanguage };
  } finally {
    prepared.release();
  }
}

describe('the pooled path gives what the inline path gives', () => {
  for (const format of FORMATS) {
    it(`${format}: every fixture, as it is and grown past the threshold, named and detected`, async () => {
      for (const { name, content } of fixtures(format)) {
        // As they are: named and detected; grown past the threshold: named (detection is the same code path).
        for (const [document, formats] of [[content, [format, undefined]], [pastThreshold(format, content), [format]]] as const) {
          for (const named of formats) {
            const inline = await translate(document, named, false);
            const pooled = await translate(document, named, true);
            assert.deepEqual(pooled, inline, `${name} (${document.length} chars, format ${named ?? 'detected'})`);
          }
        }
      }
    });
  }

  it('a pooled locale file names its source language as an inline one does (decision 0101)', async () => {
    const po = 'msgid ""\nmsgstr ""\n"Language: de\\n"\n\nmsgid "Hallo"\nmsgstr ""\n';
    for (const pooled of [false, true]) {
      const prepared = await prepareDocument(po, 'po', pooled ? { pool, largeDocumentChars: 0 } : { largeDocumentChars: Infinity });
      assert.equal(prepared.sourceLanguage, 'de', pooled ? 'pooled' : 'inline');
      prepared.release();
    }
  });

  it('documents over LARGE_DOCUMENT_CHARS go to the pool by default, smaller ones stay inline', async () => {
    const small = await prepareDocument('Hello there', 'plain', { pool });
    const large = await prepareDocument('Hello there. '.repeat(Math.ceil(LARGE_DOCUMENT_CHARS / 13) + 1), 'plain', { pool });
    assert.equal(pool.stats().documents, 1, 'only the large document is held in a worker');
    small.release();
    large.release();
    assert.equal(pool.stats().documents, 0);
  });
});
