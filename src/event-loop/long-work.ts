/**
 * Long work says when it hands the event loop a turn (docs/decisions/0131).
 *
 * A loop that has held the main thread for a turn (TURN_MS) yields with
 * `yieldFromLongWork()` instead of a bare setImmediate. Besides yielding, it publishes on a
 * diagnostics channel, and the HTTP room listens: while long work is taking turns in the
 * check phase, a request sent there to be handled would wait behind every long loop's next
 * turn, and its answer behind the turn after that (docs/event-loop.md, "Why a request
 * waited for more than one turn"). So the HTTP room handles requests where they arrive while
 * it hears of long work (src/http/plugins/handle-in-turns.ts).
 *
 * A channel and not an object passed in: the event loop is the process's, and so is the
 * fact that something holds it. Node keeps the channel's listeners, per process; nothing
 * here keeps state of its own, and a listener is removed with the app that added it.
 */
import { channel, subscribe, unsubscribe } from 'node:diagnostics_channel';
import { setImmediate as nextTurn } from 'node:timers/promises';

const LONG_WORK_YIELDS = 'translation-api:long-work-yields';
const longWorkYields = channel(LONG_WORK_YIELDS);

/** Hands the event loop a turn, after saying that long work is doing so. */
export function yieldFromLongWork(): Promise<void> {
  if (longWorkYields.hasSubscribers) longWorkYields.publish(undefined);
  return nextTurn();
}

/** Calls `listener` each time long work yields; returns what removes it. */
export function hearLongWork(listener: () => void): () => void {
  subscribe(LONG_WORK_YIELDS, listener);
  return () => {
    unsubscribe(LONG_WORK_YIELDS, listener);
  };
}
