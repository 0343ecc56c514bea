/**
 * The translation-memory key: everything that shaped a segment's translation, hashed
 * (sha256, hex) to a fixed width so a 2 MiB segment costs as much to index as a word.
 * The parts are joined with a separator no part can hold (NUL; a segment's text is
 * hashed last, so it needs none), and each part is named by its position: changing any
 * one changes the key.
 */
import { hash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

export interface MemoryKeyParts {
  /** The segment as the engine saw it: masked text with its segment marks. */
  readonly text: string;
  /** The format's name: the prompt says it, so it may shape the answer. */
  readonly format: string;
  /** Headings, cells and attributes are asked for on one line. */
  readonly singleLine: boolean;
  /** Canonical source code; undefined when the engine identified it itself. */
  readonly source: string | undefined;
  /** Canonical target code. */
  readonly target: string;
  /** The engine and model behind the public model (`pseudo`, `openai:gpt-4o-mini`). */
  readonly engine: string;
  readonly promptVersion: string;
  /** The glossary in force, with its version; undefined for none. */
  readonly glossary: { readonly id: string; readonly version: number } | undefined;
  /** `formal` or `informal` as the prompt says it; undefined for none. */
  readonly formality: string | undefined;
  /** The request's context text; undefined for none. Hashed apart, since it may hold any character. */
  readonly context: string | undefined;
  /**
   * What the segment's plural shape depends on (the source's selectors and the target's
   * CLDR categories per message, `pluralSignature`); absent for a segment without counted
   * messages, whose key is as it always was.
   */
  readonly plurals?: string;
  /** What a locale file says about the entry (segments/segment.ts `note`); undefined for none. Hashed apart. */
  readonly note?: string | undefined;
}

/** Bump when the parts or their order change, so old rows stop matching rather than mismatching. */
const KEY_LAYOUT = 'tm2';
/** The layout of a key with a note: one more part, so its own name (keys without one stay as they were). */
const NOTED_KEY_LAYOUT = 'tm2n';

export function memoryKey(parts: MemoryKeyParts, digest: (input: string) => string = sha256Hex): string {
  // One-shot hash of the joined string: the same digest as updating a Hash with the head,
  // NUL and the text in turn, without a Hash object per key (which showed in the request profile).
  return digest(keyHead(parts, digest) + parts.text);
}

/** The parts other than the text. */
export type KeyHeadParts = Omit<MemoryKeyParts, 'text'>;

/**
 * memoryKey of each text with the other parts fixed: the head is joined once, not per key
 * (a request keys every segment into every target, and the head is the same for most of them).
 */
export function memoryKeyOf(parts: KeyHeadParts, digest: (input: string) => string = sha256Hex): (text: string) => string {
  const head = keyHead(parts, digest);
  return (text) => digest(head + text);
}

/** Every part but the text, joined, and the separator before the text. */
function keyHead(parts: KeyHeadParts, digest: (input: string) => string): string {
  const head = [
    parts.note === undefined ? KEY_LAYOUT : NOTED_KEY_LAYOUT,
    parts.engine,
    parts.promptVersion,
    parts.format,
    parts.singleLine ? '1' : '0',
    parts.source ?? '',
    parts.target,
    parts.glossary ? `${parts.glossary.id}@${parts.glossary.version}` : '',
    parts.formality ?? '',
    parts.context === undefined ? '' : digest(parts.context),
  ];
  // Pushed, not spread in (a spread makes and walks an array): a key is made for every
  // segment and target of every request.
  if (parts.note !== undefined) head.push(digest(parts.note));
  // Last and only when present, so keys of segments without plurals are unchanged.
  if (parts.plurals) head.push(`plurals:${parts.plurals}`);
  return `${head.join('\u0000')}\u0000`;
}

/**
 * memoryKey with the digests of short inputs remembered: the same UI string is keyed
 * again on every request that carries it, and its sha256 was a visible share of a request
 * answered from memory (docs/benchmarks.md, issue 18). Bounded: inputs up to
 * CACHED_INPUT_CHARS, MAX_CACHED_DIGESTS of them, least recently used out. One per process
 * (memory/translation-memory.ts).
 */
export class MemoryKeys {
  private readonly digests = new LRUCache<string, string>({ max: MAX_CACHED_DIGESTS });

  /** Made once: a key is computed per segment and target of every request. */
  private readonly digest = (input: string): string => this.sha256Hex(input);

  /**
   * `keysInWork`: how many keys the caller's piece of work makes. One with more than the
   * cache holds bypasses it: its digests would only push each other out, an eviction per
   * key that costs more than the hash (docs/benchmarks.md, issue 37).
   */
  key(parts: MemoryKeyParts, keysInWork = 1): string {
    return memoryKey(parts, keysInWork > MAX_CACHED_DIGESTS ? sha256Hex : this.digest);
  }

  /** `key` of each text with the other parts fixed (memoryKeyOf). */
  keyOf(parts: KeyHeadParts, keysInWork = 1): (text: string) => string {
    return memoryKeyOf(parts, keysInWork > MAX_CACHED_DIGESTS ? sha256Hex : this.digest);
  }

  /** Digests remembered now, for tests. */
  get cachedDigests(): number {
    return this.digests.size;
  }

  clear(): void {
    this.digests.clear();
  }

  private sha256Hex(input: string): string {
    if (input.length > CACHED_INPUT_CHARS) return sha256Hex(input);
    let digest = this.digests.get(input);
    if (digest === undefined) this.digests.set(input, (digest = sha256Hex(input)));
    return digest;
  }
}

const CACHED_INPUT_CHARS = 512;
/** Digests kept; a piece of work with more keys than this does not use them. */
export const MAX_CACHED_DIGESTS = 2_048;

function sha256Hex(input: string): string {
  return hash('sha256', input, 'hex');
}
