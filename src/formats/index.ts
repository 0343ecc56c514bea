/**
 * The format layer's public face: one adapter per format and detection. Callers never
 * import an adapter file directly.
 */
import type { Format, FormatAdapter } from './format.js';
import { htmlAdapter } from './html/adapter.js';
import { jsonAdapter } from './json.js';
import { markdownAdapter } from './markdown/adapter.js';
import { plainAdapter } from './plain.js';
import { poAdapter } from './po/adapter.js';
import { propertiesAdapter } from './properties/adapter.js';
import { yamlAdapter } from './yaml/adapter.js';
import { xliffAdapter } from './xliff/adapter.js';
import { androidAdapter } from './android/adapter.js';
import { arbAdapter } from './arb/adapter.js';
import { stringsAdapter } from './strings/adapter.js';
import { stringsdictAdapter } from './stringsdict/adapter.js';
import { xcstringsAdapter } from './xcstrings/adapter.js';

export { detectFormat } from './detect.js';
export { pluralSignature, shapePlurals, type PluralShape } from './core/plural-shape.js';

const ADAPTERS: Readonly<Record<Format, FormatAdapter>> = {
  plain: plainAdapter,
  markdown: markdownAdapter,
  json: jsonAdapter,
  html: htmlAdapter,
  po: poAdapter,
  properties: propertiesAdapter,
  yaml: yamlAdapter,
  xliff: xliffAdapter,
  android: androidAdapter,
  arb: arbAdapter,
  strings: stringsAdapter,
  stringsdict: stringsdictAdapter,
  xcstrings: xcstringsAdapter,
};

export function getAdapter(format: Format): FormatAdapter {
  return ADAPTERS[format];
}

/** Xcode's JSON layout, for the sync of String Catalogs (localize/string-catalog.ts), which merges every target into one file. */
export { writeXcodeJson, type XcodeValue } from './xcstrings/xcode-json.js';
