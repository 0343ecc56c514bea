/**
 * The shared model of locale files (docs/contract.md §6): a file is a list of entries,
 * each a key with a value to translate and what its developer wrote for translators,
 * found at byte ranges of the source. Every locale format (po, properties, yaml, xliff,
 * and later android, apple, arb) reads its syntax into this model and writes each
 * translated value back in place; everything else in the file stays as it was.
 */

/** One translatable entry of a locale file. */
export interface LocaleEntry {
  /**
   * What identifies the entry in its file, the way its ecosystem names it: a gettext
   * `msgctxt` + `msgid`, a YAML key path (`en.checkout.pay_button`), a properties key, an
   * XLIFF unit id. Sync compares files by it.
   */
  readonly key: string;
  /** The source text, decoded from the file's escaping. */
  readonly value: string;
  /** Notes for translators (gettext `#.` and `msgctxt`, XLIFF `<note>`), in file order. */
  readonly notes: readonly string[];
  /** The counted forms of a plural entry, by CLDR category (`one`, `other`), when it is one. */
  readonly forms?: Readonly<Record<string, string>>;
  /**
   * Where the entry's translation lies in the file (gettext's `msgstr` lines, a
   * properties value, a YAML scalar, XLIFF's `<target>` with the white space before it
   * or, with none, the empty place after `</source>` where it goes), for a format whose
   * files `sync` merges entry by entry (localize/entry-files.ts); and whether it holds
   * one (gettext's `msgstr ""` does not). An entry of such a format without one (a YAML
   * string in a sequence) makes `sync` send its file whole.
   */
  readonly region?: readonly [start: number, end: number];
  readonly translated?: boolean;
  /**
   * The whole lines that are the entry's alone (with the comments right above it), which
   * `sync` cuts out of a request or copies into a target with it, for a format whose
   * entries sit inside other markup (a YAML mapping, an XLIFF `<body>`): without it the
   * entry's lines are taken back to a blank line or the entry before (gettext,
   * properties). From a line's start to the next line's start — or, for an entry that
   * shares its line with other text (an Android file on one line), its own bytes
   * (entries/entry-lines.ts).
   */
  readonly block?: readonly [start: number, end: number];
}

/** The target of one render: the API's language code and its direction. */
export interface EntryTarget {
  readonly code: string;
  readonly rtl: boolean;
}

/**
 * A byte range of the source that a render replaces: a value's place, or one of the few
 * language lines a format names (gettext's `Language:`, XLIFF's `target-language`).
 * `render` gets the translated texts of the document's values, by value index, decoded.
 */
export interface EntryEdit {
  readonly start: number;
  readonly end: number;
  render(target: EntryTarget, translated: readonly string[]): string;
}
