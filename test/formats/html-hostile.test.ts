import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectFormat, getAdapter } from '../../src/formats/index.js';
import { pseudoRender, RTL } from './helpers.js';

// A request body may hold 2 MiB; whatever its shape, the html reader must answer within
// seconds or refuse it with document_too_complex (docs/errors.md), never hold a worker
// for minutes. The bounds are generous (the machine is shared); the old code took from
// 10 s to minutes on several of these.
const TWO_MIB = 2 * 1024 * 1024;
const BOUND_MS = 3000;

/** `unit` repeated to `size` characters. */
function fill(unit: string, size = TWO_MIB): string {
  return unit.repeat(Math.floor(size / unit.length));
}

function timed<T>(work: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = work();
  return { value, ms: performance.now() - started };
}

/** Detection (format omitted), then extract and a right-to-left pseudo render; the time of it all. */
function translateAsRequest(content: string): { format: string; segments: number; ms: number } {
  const { value, ms } = timed(() => {
    const { format } = detectFormat(content);
    const doc = getAdapter(format).extract(content);
    pseudoRender(doc, RTL);
    return { format, segments: doc.segments.length };
  });
  return { ...value, ms };
}

describe('hostile html', () => {
  it('one long run of inline elements (`<b>Hi</b> ` to 2 MiB, a dir patch in every tag) renders in linear time', () => {
    const { format, segments, ms } = translateAsRequest(fill('<b>Hi</b> '));
    assert.equal(format, 'html');
    assert.equal(segments, 1);
    assert.ok(ms < BOUND_MS, `${ms.toFixed(0)} ms`);
  });

  it('a translatable attribute in every inline tag of one run renders in linear time', () => {
    const { format, segments, ms } = translateAsRequest(fill('<span title="A tip">x</span> '));
    assert.equal(format, 'html');
    assert.ok(segments > 50_000, `${segments} segments`);
    assert.ok(ms < BOUND_MS, `${ms.toFixed(0)} ms`);
  });
});
