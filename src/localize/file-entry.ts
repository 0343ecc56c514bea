/** A locale file's entry as `sync` sees it (entry-files.ts), and the edits a merge makes. */
import type { Format } from './api.js';

export interface FileEntry {
  readonly key: string;
  /** What the source says: value, plural forms and notes; its hash tells a changed entry. */
  readonly unit: string;
  /** The translation's bytes in the file, and whether it holds one. */
  readonly regionText: string;
  readonly translated: boolean;
  readonly region: readonly [number, number];
  /** Its lines, comments included, to the end of its last line. */
  readonly blockStart: number;
  readonly blockEnd: number;
  /** Where the blank lines before the block start. */
  readonly gapStart: number;
}

/** A file's entries by key, in file order. */
export interface FileEntries extends ReadonlyMap<string, FileEntry> {
  readonly format: Format;
  /** Where an entry goes when none of the file's is left to follow (the adapter's `entriesEnd`: before `</resources>`). */
  readonly entriesEnd: number | undefined;
}

/** A replacement of a range of a file's text. */
export interface Splice {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /**
   * Of an insertion into a nested file: its lines' indentation. Insertions at one place go
   * deepest first: a deeper one continues the mapping before it, a shallower one ends it.
   */
  readonly indent?: number;
}

/** Where an entry a target lacks goes, and its text. */
export interface Insertion {
  readonly at: number;
  readonly text: string;
  /** Put in where the root's content ends, no entry of the target being left to follow. */
  readonly atRootEnd?: boolean;
}
