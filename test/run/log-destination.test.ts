/**
 * The default log destination (src/log-destination.ts): every line arrives, in order,
 * through a pipe its reader drains slowly (the writes meet a full pipe), when the process
 * exits with lines still gathered, and when it dies of an uncaught exception; flush calls
 * back only when the lines are in the file; a closed destination loses lines without
 * throwing into the code that logs.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BatchedLineWriter, GATHER_MS } from '../../src/log-destination.js';
import { createLogger } from '../../src/logger.js';
import { pino } from 'pino';

const MODULE = new URL('../../src/log-destination.ts', import.meta.url).href;

/** Runs `body` in a child node whose stdout is a pipe; returns its stdout and exit code. */
function runChild(body: string, options: { readSlowly?: boolean } = {}): Promise<{ stdout: string; code: number | null }> {
  const script = `import { BatchedLineWriter } from ${JSON.stringify(MODULE)};\n${body}`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    if (options.readSlowly) {
      // Sips: the child meets a full pipe again and again.
      child.stdout.pause();
      setTimeout(() => child.stdout.resume(), 1);
    }
  });
  // Let the pipe fill (64 KiB) before reading anything.
  if (options.readSlowly) {
    child.stdout.pause();
    setTimeout(() => child.stdout.resume(), 300);
  }
  return new Promise((resolve) => {
    child.once('close', (code) => resolve({ stdout: Buffer.concat(chunks).toString('utf8'), code }));
  });
}

const numbered = (stdout: string) => stdout.split('\n').filter(Boolean).map((line) => Number(/^line (\d+) /.exec(line)?.[1]));
const inOrder = (count: number) => Array.from({ length: count }, (_, i) => i);

describe('the default log destination', () => {
  const dir = mkdtempSync(join(tmpdir(), 'log-destination-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('delivers every line in order through a pipe whose reader is slow, though the pipe is non-blocking and full', async () => {
    const count = 20_000;
    const { stdout, code } = await runChild(
      `process.stdout.fd; // makes fd 1 non-blocking, as any use of process.stdout does
       const writer = new BatchedLineWriter(1);
       const filler = 'x'.repeat(100);
       for (let i = 0; i < ${count}; i++) {
         writer.write('line ' + i + ' ' + filler + ' ü\\n');
         if (i % 1000 === 0) await new Promise((resolve) => setImmediate(resolve));
       }
       await new Promise((resolve) => writer.flush(resolve));`,
      { readSlowly: true },
    );
    assert.equal(code, 0);
    assert.deepEqual(numbered(stdout), inOrder(count));
  });

  it('writes lines still gathered when the process exits, and when it dies of an uncaught exception', async () => {
    const exited = await runChild(`const writer = new BatchedLineWriter(1); for (let i = 0; i < 50; i++) writer.write('line ' + i + ' before exit\\n'); process.exit(3);`);
    assert.equal(exited.code, 3);
    assert.deepEqual(numbered(exited.stdout), inOrder(50));

    const crashed = await runChild(`const writer = new BatchedLineWriter(1); for (let i = 0; i < 50; i++) writer.write('line ' + i + ' before a crash\\n'); setImmediate(() => { throw new Error('boom'); });`);
    assert.equal(crashed.code, 1);
    assert.deepEqual(numbered(crashed.stdout), inOrder(50));
  });

  it('gathers lines and writes them within GATHER_MS; flush calls back once they are in the file', async () => {
    const path = join(dir, 'gathered.log');
    const fd = openSync(path, 'w');
    try {
      const writer = new BatchedLineWriter(fd);
      writer.write('line 0 a\n');
      writer.write('line 1 b\n');
      assert.equal(readFileSync(path, 'utf8'), '', 'nothing is written while the logging code runs');
      await new Promise((resolve) => setTimeout(resolve, GATHER_MS * 5));
      assert.equal(readFileSync(path, 'utf8'), 'line 0 a\nline 1 b\n');

      for (let i = 2; i < 1000; i++) writer.write(`line ${i} c\n`);
      await new Promise<void>((resolve) => writer.flush(resolve));
      assert.deepEqual(numbered(readFileSync(path, 'utf8')), inOrder(1000));
    } finally {
      closeSync(fd);
    }
  });

  it('loses the lines of a closed destination without throwing, and still answers flush', async () => {
    // A descriptor number no file holds (a closed one could be reused by the next open).
    const writer = new BatchedLineWriter(2 ** 30);
    assert.doesNotThrow(() => writer.write('line 0 lost\n'));
    await new Promise<void>((resolve) => writer.flush(resolve));
  });

  it('is what createLogger writes to when given no destination', () => {
    const logger = createLogger('info');
    const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
    assert.ok(stream instanceof BatchedLineWriter);
  });
});
