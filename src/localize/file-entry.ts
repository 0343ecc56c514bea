/** A locale file's entry as `sync` sees it (entry-files.ts), and the edits a merge makes. */

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
}
