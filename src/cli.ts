#!/usr/bin/env node
/**
 * translate-service's entry point: nothing to load before the early signal handlers,
 * then the commands (commands.ts) with everything they import.
 */
import { armEarlyExit } from './run/early-signals.js';

armEarlyExit();
await import('./commands.js');
