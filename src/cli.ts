#!/usr/bin/env node
/**
 * translate-service's entry point: nothing to load before the early signal handlers, V8's
 * settings (run/heap-tuning.ts) and the tick object held for nextTick's speed
 * (library-patches/tick-object-shape.ts), then the commands (commands.ts) with everything
 * they import.
 */
import { holdTickObjectShape } from './library-patches/tick-object-shape.js';
import { armEarlyExit } from './run/early-signals.js';
import { tuneHeap } from './run/heap-tuning.js';

armEarlyExit();
tuneHeap();
holdTickObjectShape();
await import('./commands.js');
