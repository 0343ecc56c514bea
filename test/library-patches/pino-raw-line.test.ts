/**
 * The access line is written by hand through pino's internals (library-patches/pino-raw-line.ts)
 * with the service's own logger. A pino release that renames what the patch reads makes the
 * service log through pino's public path (the same bytes, slower) and fails here, with the
 * version the patch was written for.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { canWriteRawLines, writeRawInfoLine } from '../../src/library-patches/pino-raw-line.js';
import { createLogger } from '../../src/logger.js';

const WRITTEN_FOR = '10';
const installed = (JSON.parse(readFileSync(new URL('../../node_modules/pino/package.json', import.meta.url), 'utf8')) as { version: string }).version;

describe("the access line's reach into pino", () => {
  it("can write for the service's logger and its request children", () => {
    const logger = createLogger('info', { write: () => {} });
    const hint = `written for pino ${WRITTEN_FOR}, ${installed} is installed: see src/library-patches/README.md`;
    assert.ok(installed.startsWith(`${WRITTEN_FOR}.`), hint);
    assert.equal(canWriteRawLines(logger), true, hint);
    assert.equal(canWriteRawLines(logger.child({ reqId: 'r' })), true, hint);
  });

  it("writes pino's own prefix and end around the fields", () => {
    const lines: string[] = [];
    const logger = pino({ base: { pid: 1 }, timestamp: () => ',"time":0' }, { write: (line: string) => lines.push(line) }).child({ reqId: 'abc' });
    assert.equal(writeRawInfoLine(logger, '"a":1,"b":{"c":"d"}', 'done'), true);
    logger.info({ a: 1, b: { c: 'd' } }, 'done');
    assert.equal(lines.length, 2);
    assert.equal(lines[0], lines[1]);
  });

  it('writes nothing for a logger it cannot write for, and says so', () => {
    const lines: string[] = [];
    const logger = pino({ mixin: () => ({}) }, { write: (line: string) => lines.push(line) });
    assert.equal(writeRawInfoLine(logger, '"a":1', 'x'), false);
    assert.deepEqual(lines, []);
  });
});
