#!/usr/bin/env node
/**
 * translate-service's entry point: nothing to load before the early signal handlers and
 * V8's settings (run/heap-tuning.ts), then the commands (commands.ts) with everything they import.
 */
import { armEarlyExit } from './run/early-signals.js';
import { tuneHeap } from './run/heap-tuning.js';

armEarlyExit();
tuneHeap();
await import('./commands.js');
