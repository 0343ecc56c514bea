/**
 * Source-language detection over the text a document's segments hold. `eld` is limited to
 * this service's 36 base languages (a smaller candidate set is both faster and more
 * accurate), and two of its codes are renamed to ours: its Norwegian is `no` (we serve
 * Bokmål, `nb`), and it has Malay (`ms`) but no Indonesian, which shares most of its
 * vocabulary and spelling: we report `id` (docs/decisions/0026).
 */
import { LRUCache } from 'lru-cache';
import { findLanguage, type Language } from '../languages.js';
import { loadEldDetector, type Eld } from './eld-detector.js';

export interface SourceDetection {
  /** A base language of languages.ts. */
  readonly language: Language;
  /** In [0, 1]: eld's score of the winner, halved when eld itself calls the result unreliable. */
  readonly confidence: number;
}

/** Our code for each of eld's that differs. */
const FROM_ELD: Readonly<Record<string, string>> = { no: 'nb', ms: 'id' };
const TO_ELD: Readonly<Record<string, string>> = { nb: 'no', id: 'ms' };

const BASE_CODES = [
  'ar', 'bg', 'cs', 'da', 'de', 'el', 'en', 'es', 'et', 'fa', 'fi', 'fr', 'he', 'hi', 'hu', 'id', 'it', 'ja',
  'ko', 'lt', 'lv', 'nb', 'nl', 'pl', 'pt', 'ro', 'ru', 'sk', 'sl', 'sv', 'th', 'tr', 'uk', 'ur', 'vi', 'zh',
] as const;

/** eld's codes for our base languages: the only candidates it is allowed to answer. */
export const ELD_SUBSET: readonly string[] = BASE_CODES.map((code) => TO_ELD[code] ?? code);

/**
 * The text sampled from a document: enough for a confident answer, bounded so a 2 MiB
 * document costs no more than a page (eld's time grows with the text).
 */
export const SAMPLE_CHARS = 4_000;

const NOTHING = 'nothing to judge';

/**
 * Short texts recently judged keep their answer: detection is a pure function of the
 * sample, product text repeats (the same button label, the same notification), and eld
 * is not free for a sentence — on a request answered from translation memory it was the
 * largest single step (docs/benchmarks.md, "HTTP request path"). Bounded in entries and
 * in the length of what it keeps (at most ~2 MB of samples).
 */
const CACHED_SAMPLE_CHARS = 256;
const CACHED_SAMPLES = 4_096;

/**
 * The process's language detector, made by the composition root (services.ts) and passed
 * to whatever detects. eld over its medium table is loaded on first use (it takes a
 * moment, so processes that never detect never pay; eld-detector.ts says how it is loaded
 * lean); bench/detection compares the table sizes (docs/detection.md).
 */
export class LanguageDetector {
  #loading: Promise<Eld> | undefined;
  readonly #recent = new LRUCache<string, SourceDetection | typeof NOTHING>({ max: CACHED_SAMPLES });

  /**
   * The language of `texts` taken together (the segments of one document, in order), or
   * undefined when they hold nothing eld can judge (digits, symbols, placeholders only).
   */
  detect(texts: Iterable<string>): Promise<SourceDetection | undefined> {
    const sample = sampleOf(texts);
    if (sample.length > CACHED_SAMPLE_CHARS) return this.#judge(sample);
    const cached = this.#recent.get(sample);
    // Not an async function: a remembered answer costs one resolved promise, no more.
    if (cached !== undefined) return Promise.resolve(cached === NOTHING ? undefined : cached);
    return this.#judge(sample).then((detection) => {
      this.#recent.set(sample, detection ?? NOTHING);
      return detection;
    });
  }

  /**
   * Loads the table now rather than on the first detection: `serve` does so before it
   * listens, so the first requests of a start do not wait behind it (docs/benchmarks.md,
   * "The soak").
   */
  async load(): Promise<void> {
    await this.#eld();
  }

  /** Forgets the remembered answers; the table, once loaded, goes with the detector. */
  close(): void {
    this.#recent.clear();
  }

  #eld(): Promise<Eld> {
    return (this.#loading ??= loadEldDetector(ELD_SUBSET).then(({ eld }) => eld));
  }

  async #judge(sample: string): Promise<SourceDetection | undefined> {
    if (sample.trim().length === 0) return undefined;
    const result = (await this.#eld()).detect(sample);
    if (!result.language) return undefined;
    const language = findLanguage(FROM_ELD[result.language] ?? result.language);
    if (!language) return undefined;
    const score = result.getScores()[result.language] ?? 0;
    const confidence = clamp01(result.isReliable() ? score : score / 2);
    return { language, confidence: Math.round(confidence * 1000) / 1000 };
  }
}

function sampleOf(texts: Iterable<string>): string {
  let sample = '';
  for (const text of texts) {
    if (sample.length >= SAMPLE_CHARS) break;
    sample += (sample ? '\n' : '') + text.slice(0, SAMPLE_CHARS - sample.length);
  }
  return sample;
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}
