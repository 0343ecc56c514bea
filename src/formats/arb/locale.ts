/**
 * A language code as ARB and Flutter's gen_l10n spell it: parts joined by `_`
 * (`pt_BR`, `zh_Hant_TW`), the form `@@locale` holds and `app_{locale}.arb` names use.
 */
export function arbLocale(code: string): string {
  return code.replaceAll('-', '_');
}
