/**
 * One document into many targets: detect the format if needed, extract segments,
 * translate each distinct segment once (chunked to the engine's budget), check every
 * answer, and render one document per target. The synchronous routes and the job
 * worker both call this.
 */
import type { EngineLanguage, TokenUsage, TranslationEngine } from '../engines/engine.js';
import { EngineError } from '../engines/engine.js';
import type { DetectionResult, ExtractedDocument, Format } from '../formats/format.js';
import { detectFormat, getAdapter } from '../formats/index.js';
import { tokenProblem, type Segment } from '../formats/segment.js';
import type { Language } from '../languages.js';
import { planChunks } from './plan.js';

/** A target as requested: the canonical language plus the caller's spelling of its code. */
export interface RequestedTarget {
  readonly requested: string;
  readonly language: Language;
}

export interface PreparedDocument {
  readonly document: ExtractedDocument;
  /** Present when the format was omitted and detection ran. */
  readonly detection?: DetectionResult;
}

export interface DocumentTranslation {
  /** Keyed by the caller's spelling of each target code. */
  readonly translations: Record<string, string>;
  readonly usage: TokenUsage;
  readonly detection?: DetectionResult;
}

/** Chunks of one document translated at once; the engine caps calls per provider itself. */
const CHUNK_CONCURRENCY = 4;

/** Detects and extracts; throws ServiceError('invalid_request') for unreadable content. */
export function prepareDocument(content: string, format: Format | undefined): PreparedDocument {
  const detection = format === undefined ? detectFormat(content) : undefined;
  const document = getAdapter(format ?? detection!.format).extract(content);
  return detection ? { document, detection } : { document };
}

export async function translatePrepared(options: {
  prepared: PreparedDocument;
  targets: readonly RequestedTarget[];
  source?: Language;
  engine: TranslationEngine;
  signal?: AbortSignal;
}): Promise<DocumentTranslation> {
  const { prepared, targets, engine, signal } = options;
  const { document } = prepared;

  // Identical segments are translated once: the first carries the text for all.
  const representative = new Map<string, Segment>();
  const representativeOf = new Map<string, Segment>();
  for (const segment of document.segments) {
    const key = `${segment.singleLine ? 1 : 0}\u0000${segment.text}`;
    const first = representative.get(key) ?? segment;
    representative.set(key, first);
    representativeOf.set(segment.id, first);
  }
  const unique = [...representative.values()];

  const engineTargets: EngineLanguage[] = targets.map((t) => t.language);
  const chunks = planChunks(unique, engineTargets, engine.budget);
  const byTarget = new Map<string, Map<string, string>>(engineTargets.map((t) => [t.code, new Map()]));
  let inputTokens = 0;
  let outputTokens = 0;

  await runLimited(chunks, CHUNK_CONCURRENCY, async (chunk) => {
    const result = await engine.translate({
      segments: chunk.segments,
      targets: chunk.targets,
      ...(options.source ? { source: options.source } : {}),
      format: document.format,
      ...(signal ? { signal } : {}),
    });
    inputTokens += result.usage.inputTokens;
    outputTokens += result.usage.outputTokens;
    for (const target of chunk.targets) {
      const translated = result.translations.get(target.code);
      for (const segment of chunk.segments) {
        const text = translated?.get(segment.id);
        if (text === undefined) throw new EngineError('the model did not translate every segment', true);
        const problem = tokenProblem(segment.text, text);
        if (problem) throw new EngineError(`the model broke the document's markup (${problem})`, true);
        byTarget.get(target.code)!.set(segment.id, text);
      }
    }
  });

  const translations: Record<string, string> = {};
  for (const { requested, language } of targets) {
    const unique = byTarget.get(language.code)!;
    const perSegment = new Map<string, string>();
    for (const segment of document.segments) {
      perSegment.set(segment.id, unique.get(representativeOf.get(segment.id)!.id)!);
    }
    translations[requested] = document.render(perSegment, { code: language.code, rtl: language.rtl });
  }
  return {
    translations,
    usage: { inputTokens, outputTokens },
    ...(prepared.detection ? { detection: prepared.detection } : {}),
  };
}

/** Runs `work` over `items` with at most `limit` at once; the first failure rejects. */
async function runLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const lane = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
