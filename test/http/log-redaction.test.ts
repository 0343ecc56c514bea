/** No credential reaches a log line, in any shape this service logs one (src/log-redaction.ts). */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { CENSOR, redactCredentials } from '../../src/log-redaction.js';
import { createLogger } from '../../src/logger.js';

const SECRET = 'tsk_s3cret-value';

describe('credentials in log lines', () => {
  it('are replaced at the top level, one level down and in headers one level down, whatever their case', () => {
    const shapes: Record<string, unknown>[] = [
      { authorization: `Bearer ${SECRET}` },
      { Authorization: `Bearer ${SECRET}` },
      { apiKey: SECRET },
      { headers: { authorization: SECRET, 'content-type': 'application/json' } },
      { provider: { apiKey: SECRET, baseUrl: 'http://x' } },
      { request: { headers: { 'X-Api-Key': SECRET } } },
      { upstream: { Authorization: SECRET } },
    ];
    for (const shape of shapes) {
      const redacted = redactCredentials(shape);
      assert.ok(!JSON.stringify(redacted).includes(SECRET), JSON.stringify(shape));
      assert.ok(JSON.stringify(redacted).includes(CENSOR));
      assert.ok(JSON.stringify(shape).includes(SECRET), 'the logged object itself is not changed');
    }
  });

  it('leave a line without credentials as it is, the same object', () => {
    const line = { reqId: 'r1', work: { modelCalls: 1, inputTokens: 3 }, responseTime: 1.5, tags: ['a'] };
    assert.equal(redactCredentials(line), line);
  });

  it('are redacted by the service logger, also in child loggers', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger('info', sink);
    logger.info({ headers: { authorization: `Bearer ${SECRET}` } }, 'calling');
    logger.child({ reqId: 'r2' }).warn({ provider: { apiKey: SECRET } }, 'failed');
    logger.info({ authorization: SECRET, kept: 'visible' }, 'top');
    assert.equal(lines.length, 3);
    for (const line of lines) assert.ok(!line.includes(SECRET), line);
    assert.equal(JSON.parse(lines[2]!).kept, 'visible');
  });
});
