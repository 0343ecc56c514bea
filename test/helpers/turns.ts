/**
 * The turns a test's own loops take (src/event-loop/turns.ts): the service's parts get theirs
 * from the composition root, one queue a process, as here one a test process.
 */
import { TurnQueue, type Turns } from '../../src/event-loop/turns.js';

export const testTurnQueue = new TurnQueue();

export const testTurns = (): Turns => testTurnQueue.turns();
