import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { getAdapter } from '../../src/formats/index.js';
import { pseudoTranslate } from '../../src/engines/pseudo.js';
import { ServiceError } from '../../src/errors.js';
import { DocumentPool } from '../../src/translation/document-pool.js';
import { MAX_TOKENS_PER_SEGMENT, asTooComplex, extractDocument } from '../../src/translation/extract-document.js';
import { prepareDocument, prepareDocuments, translatePrepared } from '../../src/translation/translate-document.js';
import { GatedEngine, pseudo } from '../helpers/engines.js';
import { testTokenizer } from '../helpers/tokenizer.js';
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
    const running = translatePrepared({ prepared, targets: targets('fr'), engine, tokenizer: testTokenizer, cancellation: abort }).finally(() =>
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
      documents.map((prepared) => translatePrepared({ prepared, targets: targets('de', 'he'), engine: pseudo(), tokenizer: testTokenizer })),
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

describe('the document pool bounds each document', () => {
  /** ~1.9 MB of ordinary markdown: ~0.8 s to extract on an idle machine. */
  function heavyMarkdown(): string {
    const parts: string[] = [];
    for (let i = 0, size = 0; size < 1_900_000; i++) {
      const part = `Paragraph ${i} with *emphasis* and a [link](https://example.com/${i}).\n\n`;
      parts.push(part);
      size += part.length;
    }
    return parts.join('');
  }

  it('a prepare past the time limit is refused 422; the documents waiting on or pinned to that worker carry on', async () => {
    const own = new DocumentPool({ size: 1, maxSize: 1, timeLimitMs: 150 });
    after(() => own.close());
    const options = { pool: own, largeDocumentChars: 0 };
    const pinned = await prepareDocument('Pinned to the only worker.', 'plain', options);
    const heavy = prepareDocument(heavyMarkdown(), 'markdown', options);
    const queued = prepareDocument('Queued behind the heavy one.', 'plain', options);
    await assert.rejects(heavy, (error: unknown) => {
      assert.ok(error instanceof ServiceError);
      assert.equal(error.code, 'document_too_complex');
      assert.match(error.message, /150 ms/);
      return true;
    });
    const queuedDocument = await queued;
    assert.deepEqual(queuedDocument.segments.map((s) => s.text), ['Queued behind the heavy one.']);
    const rendered = await pinned.renderAll([{ key: 'fr', target: { code: 'fr', rtl: false }, translations: ['Épinglé.'] }]);
    assert.deepEqual(rendered, { fr: 'Épinglé.' }, 'the pinned document was prepared again on the new worker');
    pinned.release();
    queuedDocument.release();
    assert.deepEqual(own.stats(), { workers: 1, documents: 0, pending: 0, replaced: 1 });
  });

  it('a document that runs its worker out of memory is refused 422, and the pool goes on', async () => {
    const own = new DocumentPool({ size: 1, memoryLimitMb: 64, timeLimitMs: 60_000 });
    after(() => own.close());
    const options = { pool: own, largeDocumentChars: 0 };
    await assert.rejects(prepareDocument('<i>a</i>'.repeat(240_000), 'html', options), (error: unknown) => {
      assert.ok(error instanceof ServiceError, String(error));
      assert.equal(error.code, 'document_too_complex');
      assert.match(error.message, /64 MiB/);
      return true;
    });
    const next = await prepareDocument('<p>Still here.</p>', 'html', options);
    assert.equal(next.segments.length, 1);
    next.release();
    assert.equal(own.stats().replaced, 1);
  });

  it('a stack overflow while reading is turned into 422 document_too_complex, whatever the reader', () => {
    const recurse = (depth: number): number => (depth === 0 ? 0 : 1 + recurse(depth - 1));
    assert.throws(
      () => asTooComplex(() => recurse(10_000_000)),
      (error: unknown) => error instanceof ServiceError && error.code === 'document_too_complex' && /nests too deeply/.test(error.message),
    );
    assert.throws(() => asTooComplex(() => { throw new RangeError('Invalid array length'); }), RangeError, 'other errors pass through');
  });

  it('one paragraph with more placeholder tokens than MAX_TOKENS_PER_SEGMENT is refused; one at the limit is read', () => {
    const paragraph = (n: number) => `Hello {name} ${'{a} '.repeat(n - 1)}end.`;
    assert.equal(extractDocument(paragraph(MAX_TOKENS_PER_SEGMENT), 'plain').document.segments.length, 1);
    assert.throws(
      () => extractDocument(paragraph(MAX_TOKENS_PER_SEGMENT + 1), 'plain'),
      (error: unknown) => error instanceof ServiceError && error.code === 'document_too_complex' && /10000/.test(error.message),
    );
  });
});
