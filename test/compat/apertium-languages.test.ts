/**
 * What the compatibility routes' /languages say for an engine that translates some
 * directions only (Apertium's installed pairs), from a real `apertium -l` listing shape:
 * LibreTranslate's lists each source with exactly its targets (apertium-es-ro installs
 * Romanian → Spanish only, so Spanish does not list Romanian), DeepL's lists sources and
 * targets apart, each only as far as an installed pair reaches, with no formality.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LanguageDirections } from '../../src/engines/engine.js';
import { ApertiumPairs } from '../../src/engines/apertium/pairs.js';
import { deeplLanguagesOf } from '../../src/http/compat/deepl/language-codes.js';
import { libreLanguagesOf } from '../../src/http/compat/libretranslate/language-codes.js';

function directionsOf(listing: string): LanguageDirections {
  const pairs = new ApertiumPairs(listing);
  return { supports: (source, target) => pairs.modeFor(source, target) !== undefined, list: () => pairs.directions() };
}

// eng-spa, spa-eng and spa-eng_US (apertium-eng-spa), ro-es (apertium-es-ro), fr-es (apertium-fr-es).
const LISTING = '  eng-spa\n  spa-eng\n  spa-eng_US\n  ro-es\n  fr-es\n';

describe('/languages of the compatibility routes for an engine with directions', () => {
  test('LibreTranslate: every language an installed pair reaches, each with exactly the targets it can go to', () => {
    const languages = libreLanguagesOf(directionsOf(LISTING));
    const targetsOf = (code: string) => languages.find((language) => language.code === code)?.targets;
    assert.deepEqual(targetsOf('ro'), ['es', 'es-MX'], 'Romanian goes to Spanish (and its region, served by the same pair)');
    assert.ok(!targetsOf('es')!.includes('ro'), 'no es-ro mode is installed: Spanish does not go to Romanian');
    assert.ok(targetsOf('es')!.includes('en') && targetsOf('es')!.includes('en-US'));
    assert.ok(!targetsOf('es')!.includes('fr'), 'fr-es is one way too');
    assert.deepEqual(targetsOf('fr'), ['es', 'es-MX']);
    assert.equal(targetsOf('de'), undefined, 'a language no pair has is not listed');
  });

  test('DeepL: sources with a target, targets a source reaches, no formality offered', () => {
    const { source, target } = deeplLanguagesOf(directionsOf(LISTING));
    assert.deepEqual(source.map((language) => language.language).sort(), ['EN', 'ES', 'FR', 'RO']);
    const targets = target.map((language) => language.language);
    assert.ok(targets.includes('ES') && targets.includes('EN-US') && targets.includes('EN-GB'), targets.join());
    assert.ok(!targets.includes('RO') && !targets.includes('FR') && !targets.includes('DE') && !targets.includes('EN'), targets.join());
    assert.ok(target.every((language) => language.supports_formality === false));
  });
});
