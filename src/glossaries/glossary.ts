/** A user's glossary, as stored and as a translation applies it (docs/glossaries.md). */
import type { GlossaryTerm } from '../engines/engine.js';

/** Limits of one glossary and of a user's glossaries (400 invalid_request past them). */
export const GLOSSARY_LIMITS = {
  /** Glossaries one user may hold. */
  perUser: 100,
  /** Entries (terms with translations) in one glossary. */
  entries: 5_000,
  /** Do-not-translate terms in one glossary. */
  doNotTranslate: 1_000,
  /** Characters (UTF-16 code units) of a term or of one of its translations. */
  termChars: 200,
  /** Characters of a glossary's name. */
  nameChars: 200,
} as const;

/** What POST and PUT accept, validated; language codes canonical. */
export interface GlossaryInput {
  readonly name: string;
  readonly source: string;
  readonly entries: readonly GlossaryTerm[];
  readonly doNotTranslate: readonly string[];
}

export interface Glossary extends GlossaryInput {
  readonly id: string;
  readonly userId: string;
  /** 1 on creation, +1 on every PUT; part of the translation-memory key. */
  readonly version: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What a translation needs of a glossary: its identity for the memory key, its terms. */
export interface AppliedGlossary {
  readonly id: string;
  readonly version: number;
  readonly source: string;
  readonly entries: readonly GlossaryTerm[];
  readonly doNotTranslate: readonly string[];
}
