import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { getAdapter } from '../../src/formats/index.js';
import { pseudoTranslate } from '../../src/engines/pseudo.js';
import { ServiceError } from '../../src/errors.js';
import { DocumentPool } from '../../src/translation/document-pool.js';
import { prepareDocument, prepareDocuments, translatePrepared } from '../../src/translation/translate-document.js';
import { GatedEngine, pseudo } from '../helpers/engines.js';
import { targets } from './documents.js';

const pool = new DocumentPool({ size: 2, maxSize: 2 });
after(() => pool.close());
const POOLED = { pool, largeDocumentChars: 0 } as const;

function inlineError(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

describe('the document pool', () => {
  it('an adapter ServiceError crosses the thread boundary with its code and message', async () => {
    const broken = `{"title": "Hello", "items": [${'"x", '.repeat(50_000)}`;
    const expected = inlineError(() => getAdapter('json').extract(broken));
    assert.ok(expected instanceof ServiceError);
    await assert.rejects(prepareDocument(broken, 'json', POOLED), (error: unknown) => {
      assert.ok(error instanceof ServiceError, `a ServiceError, got ${String(error)}`);
      assert.equal(error.code, 'invalid_request');
      assert.equal(error.message, expected.message);
      return true;
    });
    assert.deepEqual(pool.stats(), { ...pool.stats(), documents: 0, pending: 0 }, 'a failed prepare holds nothing');
  });

  it('release frees the worker entry; a released document no longer renders', async () => {
    const prepared = await prepareDocument('# Title\n\nSome *text*.', 'markdown', POOLED);
    assert.equal(pool.stats().documents, 1);
    prepared.release();
    prepared.release(); // idempotent
    assert.equal(pool.stats().documents, 0);
    await assert.rejects(
      prepared.renderAll([{ key: 'fr', target: { code: 'fr', rtl: false }, translations: prepared.segments.map((s) => s.text) }]),
      /released/,
    );
  });

  it('an aborted translation, released by its caller, frees its worker entry', async () => {
    const engine = new GatedEngine();
    const abort = new AbortController();
    const prepared = await prepareDocument('Hello, {name}!\n\nSee you soon.', 'plain', POOLED);
    const running = translatePrepared({ prepared, targets: targets('fr'), engine, signal: abort.signal }).finally(() =>
      prepared.release(),
    );
    while (engine.started === 0) await new Promise((resolve) => setImmediate(resolve));
    abort.abort(new Error('client went away'));
    await assert.rejects(running, /client went away/);
    assert.equal(pool.stats().documents, 0);
  });

  it('prepareDocuments releases the prepared ones when one fails, and throws the first failure in order', async () => {
    const items = [
      { content: 'One paragraph.', format: 'plain' as const },
      { content: '{"a": ', format: 'json' as const },
      { content: '[1, ', format: 'json' as const },
    ];
    const expected = inlineError(() => getAdapter('json').extract('{"a": '));
    await assert.rejects(prepareDocuments(items, POOLED), (error: unknown) => {
      assert.ok(error instanceof ServiceError);
      assert.equal(error.message, expected.message);
      return true;
    });
    assert.equal(pool.stats().documents, 0);
  });

  it('pins a document to its worker across prepare and render, and spreads documents over workers', async () => {
    const texts = ['First text.', 'Second text.', 'Third text.'];
    const documents = await Promise.all(texts.map((content) => prepareDocument(content, 'plain', POOLED)));
    assert.equal(pool.stats().workers, 2);
    const results = await Promise.all(
      documents.map((prepared) => translatePrepared({ prepared, targets: targets('de', 'he'), engine: pseudo() })),
    );
    assert.deepEqual(
      results.map((r) => r.translations.de),
      texts.map((text) => pseudoTranslate(text, false)),
    );
    for (const prepared of documents) prepared.release();
    assert.equal(pool.stats().documents, 0);
  });

  it('a closed pool refuses work and its workers are gone', async () => {
    const own = new DocumentPool({ size: 1 });
    (await prepareDocument('Hi there.', 'plain', { pool: own, largeDocumentChars: 0 })).release();
    assert.equal(own.stats().workers, 1);
    await own.close();
    assert.equal(own.stats().workers, 0);
    await assert.rejects(prepareDocument('Hi there.', 'plain', { pool: own, largeDocumentChars: 0 }), /closed/);
  });
});
