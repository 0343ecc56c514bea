/**
 * Keeps `process.nextTick` fast for the life of the process, written for Node 20
 * (docs/decisions/0132).
 *
 * Node 20 makes each tick an object literal with two computed keys (its async ids), and V8
 * caches the literal's property definitions by the maps the object passes through. Those
 * maps live only while some tick object does. A full collection that finds no tick pending
 * (loading the language detector's table before listening does several) frees them, the
 * next tick makes new ones, and after a few such collections the definitions go megamorphic
 * for good: every `nextTick` then takes V8's runtime path, about eight times the cost (a
 * request makes about nine). Holding one tick object keeps its maps, and the fast path,
 * alive.
 *
 * The tick object is caught with a public API: an async hook enabled around one
 * `nextTick`, then disabled. Where Node makes no `TickObject` resource (a later Node that
 * changed its ticks), nothing is held and the service runs as it would without this.
 * test/library-patches/tick-object-shape.test.ts fails, naming Node's version, when the
 * hold no longer catches a tick object or no longer keeps `nextTick` fast.
 */
import { createHook } from 'node:async_hooks';

/** One of Node's tick objects, caught as it is made; undefined where Node makes none. */
export function catchTickObject(): object | undefined {
  let caught: object | undefined;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') caught ??= resource;
    },
  });
  hook.enable();
  process.nextTick(() => {});
  hook.disable();
  return caught;
}

/**
 * Holds one tick object until the process exits; says whether it caught one. Called first
 * thing at start, before any full collection can free the maps.
 */
export function holdTickObjectShape(): boolean {
  const held = catchTickObject();
  if (held === undefined) return false;
  // The exit listener is what holds it: it lives exactly as long as the process.
  process.once('exit', () => void held);
  return true;
}
