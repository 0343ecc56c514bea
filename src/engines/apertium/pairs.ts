/**
 * Which of our languages the installed Apertium pairs translate, and by which mode.
 * `apertium -l` lists the installed modes by name: `eng-spa`, `spa-eng_US`, `es-pt_BR`,
 * `fr-es`. A name is a source and a target, each an ISO 639 code (two letters in older
 * pairs, three in newer) with an optional `_REGION` variant. Names of another shape
 * (`eco-es-fr`, debugging modes) and codes outside our languages are not ours to offer.
 *
 * A request's target is served by the mode for exactly it (`pt-BR` → `es-pt_BR`), else by
 * the mode for its base language (`es-MX` → `eng-spa`); its source by the mode for its
 * base language (Apertium's analysers read a language, not a region).
 */
import { LANGUAGES, findLanguage } from '../../languages.js';

/** ISO 639-2/3 codes of our base languages (terminology and bibliographic forms) → ours. */
const THREE_LETTER: Readonly<Record<string, string>> = {
  ara: 'ar', bul: 'bg', ces: 'cs', cze: 'cs', dan: 'da', deu: 'de', ger: 'de', ell: 'el', gre: 'el',
  eng: 'en', spa: 'es', est: 'et', fas: 'fa', per: 'fa', pes: 'fa', fin: 'fi', fra: 'fr', fre: 'fr',
  heb: 'he', hin: 'hi', hun: 'hu', ind: 'id', ita: 'it', jpn: 'ja', kor: 'ko', lit: 'lt', lav: 'lv',
  nob: 'nb', nld: 'nl', dut: 'nl', pol: 'pl', por: 'pt', ron: 'ro', rum: 'ro', rus: 'ru', slk: 'sk',
  slo: 'sk', slv: 'sl', swe: 'sv', tha: 'th', tur: 'tr', ukr: 'uk', urd: 'ur', vie: 'vi', zho: 'zh', chi: 'zh',
};

const MODE_NAME = /^([a-z]{2,3})(?:_([A-Za-z]+))?-([a-z]{2,3})(?:_([A-Za-z]+))?$/;

export interface ApertiumMode {
  /** The mode's name, as `apertium -l` lists it. */
  readonly name: string;
  /** Our code of its source (a base language) and target (a base language or a variant). */
  readonly source: string;
  readonly target: string;
}

/** Our code for an Apertium language code and variant, or undefined when it is not one of ours. */
function ourCode(code: string, variant: string | undefined): string | undefined {
  const base = code.length === 3 ? THREE_LETTER[code] : findLanguage(code)?.code;
  if (base === undefined) return undefined;
  if (variant === undefined) return base;
  return findLanguage(`${base}-${variant}`)?.code;
}

export class ApertiumPairs {
  /** source base code → target code → mode. */
  readonly #modes = new Map<string, Map<string, ApertiumMode>>();

  /** From the lines `apertium -l` prints. */
  constructor(listing: string) {
    for (const line of listing.split('\n')) {
      const name = line.trim();
      const match = MODE_NAME.exec(name);
      if (!match) continue;
      const source = ourCode(match[1]!, match[2]);
      const target = ourCode(match[3]!, match[4]);
      // A source variant (`eng_US-spa`) adds nothing for us: sources are read by base language.
      if (source === undefined || target === undefined || match[2] !== undefined) continue;
      let targets = this.#modes.get(source);
      if (!targets) this.#modes.set(source, (targets = new Map()));
      if (!targets.has(target)) targets.set(target, { name, source, target });
    }
  }

  get empty(): boolean {
    return this.#modes.size === 0;
  }

  /** The mode translating `source` into `target` (our codes), if one is installed. */
  modeFor(source: string, target: string): ApertiumMode | undefined {
    const targets = this.#modes.get(baseOf(source));
    if (!targets) return undefined;
    return targets.get(target) ?? targets.get(baseOf(target));
  }

  /**
   * Every source with what it can be translated into (our codes, variants included: a
   * variant is served by its base's mode where it has none of its own), in the order
   * of our language list.
   */
  directions(): ReadonlyMap<string, readonly string[]> {
    const out = new Map<string, string[]>();
    for (const source of LANGUAGES) {
      const targets = LANGUAGES.filter((target) => baseOf(target.code) !== baseOf(source.code) && this.modeFor(source.code, target.code));
      if (targets.length > 0) out.set(source.code, targets.map((target) => target.code));
    }
    return out;
  }
}

function baseOf(code: string): string {
  const dash = code.indexOf('-');
  return dash < 0 ? code : code.slice(0, dash);
}
