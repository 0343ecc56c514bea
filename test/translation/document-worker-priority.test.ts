/**
 * Document workers run below the main thread's priority (decision 0129): on Linux each
 * worker thread lowers its own nice value, and the main thread's stays as it was.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { getPriority } from 'node:os';
import { describe, it } from 'node:test';
import { DocumentPool } from '../../src/translation/document-pool.js';
import { prepareDocument } from '../../src/translation/translate-document.js';

/** Every thread of this process by id, with its nice value (field 19 of /proc/…/stat). */
function niceByThread(): Map<number, number> {
  const threads = new Map<number, number>();
  for (const id of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${id}/stat`, 'utf8');
    // The name in parentheses may hold spaces; the fields after it are space-separated.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    threads.set(Number(id), Number(fields[16]));
  }
  return threads;
}

async function threadsStartedBy(niceness: number): Promise<{ started: number[]; mainBefore: number; mainAfter: number }> {
  const mainBefore = getPriority();
  const before = niceByThread();
  const pool = new DocumentPool({ size: 1, maxSize: 1, niceness });
  try {
    // A prepare answers only once the worker has run its module, priority included.
    const prepared = await prepareDocument('# Title\n\nSome *text*.', 'markdown', { pool, largeDocumentChars: 0 });
    const started = [...niceByThread()].filter(([id]) => !before.has(id)).map(([, nice]) => nice);
    prepared.release();
    return { started, mainBefore, mainAfter: getPriority() };
  } finally {
    await pool.close();
  }
}

describe('document worker priority', { skip: process.platform !== 'linux' && 'per-thread nice values are Linux only' }, () => {
  it('a worker thread runs DOCUMENT_WORKER_NICENESS steps below the process; the main thread keeps its own', async () => {
    const { started, mainBefore, mainAfter } = await threadsStartedBy(7);
    assert.equal(mainAfter, mainBefore, 'the main thread is not lowered');
    assert.ok(
      started.includes(Math.min(19, mainBefore + 7)),
      `one new thread at nice ${mainBefore + 7}, got new threads at ${started.join(', ')}`,
    );
  });

  it('niceness 0 leaves every thread at the process priority', async () => {
    const { started, mainBefore } = await threadsStartedBy(0);
    assert.ok(started.length > 0, 'the pool started a thread');
    assert.deepEqual(
      started.filter((nice) => nice !== mainBefore),
      [],
      'no thread was lowered',
    );
  });
});
