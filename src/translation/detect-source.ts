/**
 * The source language of a request that omits it: detected on the text of the document's
 * segments with their marks removed (never on the markup, whose tag and attribute names
 * are English whatever the text), reported to the caller, and passed to the model as the
 * source when the detector is confident enough (docs/decisions/0026).
 */
import { detectLanguage, type SourceDetection } from '../detection/detect-language.js';
import type { Language } from '../languages.js';
import { SEGMENT_MARK_PATTERN } from '../segments/segment.js';
import type { PreparedDocument } from './prepared-document.js';

export type { SourceDetection } from '../detection/detect-language.js';

/**
 * Below this confidence the model gets no source line and identifies the language itself:
 * a wrong hint misleads it more than no hint (bench/detection: short UI strings are where
 * the detector errs, and its confidence is lower there).
 */
export const HINT_CONFIDENCE = 0.6;

export async function detectSource(document: PreparedDocument): Promise<SourceDetection | undefined> {
  return detectLanguage(textsOf(document));
}

/** The source hint for documents translated together: one only when they all agree confidently. */
export function sourceHint(detections: ReadonlyArray<SourceDetection | undefined>): Language | undefined {
  const first = detections[0];
  if (!first) return undefined;
  const agree = detections.every((d) => d !== undefined && d.language === first.language && d.confidence >= HINT_CONFIDENCE);
  return agree ? first.language : undefined;
}

function* textsOf(document: PreparedDocument): Iterable<string> {
  for (const segment of document.segments) yield segment.text.replace(SEGMENT_MARK_PATTERN, ' ');
}
