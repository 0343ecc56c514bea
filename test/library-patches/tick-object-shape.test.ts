/**
 * The tick object held for nextTick's speed (library-patches/tick-object-shape.ts,
 * decision 0132) against the Node that runs the tests. Each case runs in a process of its
 * own, as the slowdown is for the life of a process. A Node that no longer makes tick
 * objects, or no longer slows `nextTick` after collections, fails here, naming its version:
 * then the patch is adapted or deleted (src/library-patches/README.md).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { catchTickObject } from '../../src/library-patches/tick-object-shape.js';

const WRITTEN_FOR = 'Node 20';
const HINT = `written for ${WRITTEN_FOR}, running ${process.version}: see src/library-patches/README.md`;
const CHILD = new URL('./tick-churn.child.ts', import.meta.url).pathname;

function nsPerTick(mode: 'hold' | 'none'): { held: boolean; nsPerTick: number } {
  const out = execFileSync(process.execPath, ['--expose-gc', '--conditions=source', '--import', 'tsx', CHILD, mode], { encoding: 'utf8' });
  return JSON.parse(out) as { held: boolean; nsPerTick: number };
}

describe('the tick object held for nextTick (decision 0132)', () => {
  it("catches one of Node's tick objects", () => {
    const caught = catchTickObject();
    assert.ok(caught !== undefined, `no TickObject resource was made around process.nextTick (${HINT})`);
    assert.equal(typeof (caught as { callback?: unknown }).callback, 'function', HINT);
  });

  it('keeps nextTick fast after collections that find no tick pending; without it nextTick slows for good', () => {
    const without = nsPerTick('none');
    const held = nsPerTick('hold');
    assert.equal(held.held, true, HINT);
    const detail = `held ${held.nsPerTick.toFixed(0)} ns a tick, without ${without.nsPerTick.toFixed(0)} ns`;
    assert.ok(
      without.nsPerTick > 2 * held.nsPerTick,
      `nextTick no longer slows after collections, or the hold no longer prevents it: ${detail} (${HINT})`,
    );
  });
});
