import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { ApertiumEngine } from '../../src/engines/apertium/apertium-engine.js';
import { ModelEngine } from '../../src/engines/model-engine.js';
import { PseudoEngine } from '../../src/engines/pseudo.js';
import { ProviderLimits } from '../../src/engines/provider-limit.js';
import { createEngineRegistry } from '../../src/engines/registry.js';
import { testTokenizer } from '../helpers/tokenizer.js';

const parts = () => ({ providerLimits: new ProviderLimits(), tokenizer: testTokenizer });
import { apertiumSkip } from '../helpers/apertium.js';

test('the registry builds model engines from MODEL_STANDARD / MODEL_ADVANCED, pseudo by default', () => {
  const registry = createEngineRegistry(
    loadConfig({
      MODEL_STANDARD: 'openai:qwen2.5:7b',
      OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
      MODEL_ADVANCED: 'anthropic:claude-sonnet-4-5',
      ANTHROPIC_API_KEY: 'ak-test',
      MAX_OUTPUT_TOKENS_PER_CALL: '8192',
    }),
    parts(),
  );
  assert.ok(registry.standard instanceof ModelEngine);
  assert.equal(registry.standard.id, 'openai:qwen2.5:7b');
  assert.equal(registry.advanced.id, 'anthropic:claude-sonnet-4-5');
  assert.equal(registry.advanced.budget.maxOutputTokens, 8192);
  assert.ok(createEngineRegistry(loadConfig({}), parts()).standard instanceof PseudoEngine);
});

test('OPENAI_RESPONSE_FORMAT accepts json_schema, json_object or none only', () => {
  assert.equal(loadConfig({}).openai.responseFormat, 'json_schema');
  assert.equal(loadConfig({ OPENAI_RESPONSE_FORMAT: 'none' }).openai.responseFormat, 'none');
  assert.throws(() => loadConfig({ OPENAI_RESPONSE_FORMAT: 'yaml' }), ConfigError);
});

test('MODEL_STANDARD=apertium builds one apertium engine for both names, with the installed directions', { skip: apertiumSkip() }, () => {
  const registry = createEngineRegistry(loadConfig({ MODEL_STANDARD: 'apertium', MODEL_ADVANCED: 'apertium' }), parts());
  assert.ok(registry.standard instanceof ApertiumEngine);
  assert.equal(registry.advanced, registry.standard);
  assert.equal(registry.standard.directions?.supports('en', 'es'), true);
  assert.equal(registry.standard.directions?.supports('en', 'de'), false);
  assert.throws(() => loadConfig({ MODEL_STANDARD: 'apertium:eng-spa' }), /pseudo, apertium, openai/);
});
