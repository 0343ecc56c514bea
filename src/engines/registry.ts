/**
 * The one place configuration picks an engine for each public model name.
 */
import type { Config } from '../config.js';
import type { TranslationEngine } from './engine.js';
import { PseudoEngine } from './pseudo.js';

export type PublicModel = 'standard' | 'advanced';

export type EngineRegistry = Readonly<Record<PublicModel, TranslationEngine>>;

export function createEngine(spec: string, config: Config): TranslationEngine {
  const budget = { maxInputTokens: config.maxInputTokensPerCall, maxOutputTokens: config.maxOutputTokensPerCall };
  if (spec === 'pseudo') return new PseudoEngine(budget);
  throw new Error(`engine ${spec} is not available in this build`);
}

export function createEngineRegistry(config: Config): EngineRegistry {
  const standard = createEngine(config.models.standard, config);
  const advanced =
    config.models.advanced === config.models.standard ? standard : createEngine(config.models.advanced, config);
  return { standard, advanced };
}
