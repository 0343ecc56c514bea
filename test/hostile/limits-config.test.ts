/** The limits on hostile input are configuration: defaults as documented, bad values named. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { DEFAULT_DOCUMENT_LIMITS } from '../../src/formats/format.js';
import { createDocumentProcessing } from '../../src/translation/document-processing.js';

describe('document and request limits in configuration', () => {
  it('defaults are the documented ones', () => {
    const config = loadConfig({});
    assert.deepEqual(config.documentLimits, DEFAULT_DOCUMENT_LIMITS);
    assert.equal(config.documentTimeLimitMs, 3_000);
    assert.equal(config.documentMemoryLimitMb, 256);
    assert.equal(config.documentWorkerNiceness, 10);
    assert.equal(config.headersTimeoutMs, 10_000);
    assert.equal(config.requestTimeoutMs, 30_000);
  });

  it('each variable reaches what it limits', async () => {
    const config = loadConfig({
      MAX_NESTING_DEPTH: '64',
      MAX_PLACEHOLDER_DEPTH: '8',
      MAX_SEGMENTS: '1000',
      DOCUMENT_TIME_LIMIT_MS: '1500',
      DOCUMENT_MEMORY_LIMIT_MB: '128',
      DOCUMENT_WORKER_NICENESS: '0',
    });
    assert.deepEqual(config.documentLimits, { maxNestingDepth: 64, maxPlaceholderDepth: 8, maxSegments: 1000 });
    const documents = createDocumentProcessing(config);
    assert.deepEqual(documents.limits, config.documentLimits);
    assert.equal(documents.pool.timeLimitMs, 1500);
    assert.equal(documents.pool.memoryLimitMb, 128);
    assert.equal(documents.pool.niceness, 0);
    await documents.pool.close();
  });

  it('a bad value stops start-up with the variable named', () => {
    assert.throws(() => loadConfig({ MAX_SEGMENTS: 'many' }), (error: unknown) => error instanceof ConfigError && /MAX_SEGMENTS/.test(error.message));
    assert.throws(() => loadConfig({ DOCUMENT_TIME_LIMIT_MS: '5' }), /DOCUMENT_TIME_LIMIT_MS must be between/);
    assert.throws(() => loadConfig({ DOCUMENT_WORKER_NICENESS: '20' }), /DOCUMENT_WORKER_NICENESS must be between 0 and 19/);
    assert.throws(
      () => loadConfig({ HEADERS_TIMEOUT_SECONDS: '60', REQUEST_TIMEOUT_SECONDS: '30' }),
      /HEADERS_TIMEOUT_SECONDS \(60\) must not be longer than REQUEST_TIMEOUT_SECONDS \(30\)/,
    );
  });
});
