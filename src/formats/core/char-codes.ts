/**
 * Character codes (UTF-16 code units, as `charCodeAt` gives them) that the readers of
 * formats/ compare against, by name: `c === BACKSLASH` says what `c === 92` did not.
 * Plain constants, not an enum object: the readers' inner loops compare against them
 * millions of times per document.
 *
 * A reader binds the ones it uses to constants of its own module once
 * (`import * as charCodes from …; const { SPACE, TAB } = charCodes;`) instead of importing
 * them by name. V8 (Node 20) reads an imported binding through the exporting module's
 * cell, with a check that it is initialized, at every use, even in optimized code; a
 * module's own `const` it compiles like the number itself. In the loops over every
 * character that was nearly all of plain text's +11–14% after the split into rooms
 * (docs/benchmarks.md, Formats).
 */
export const TAB = 9; // \t
export const LINE_FEED = 10; // \n
export const VERTICAL_TAB = 11; // \v
export const FORM_FEED = 12; // \f
export const CARRIAGE_RETURN = 13; // \r
export const SPACE = 32;
export const EXCLAMATION = 33; // !
export const DOUBLE_QUOTE = 34; // "
export const HASH = 35; // #
export const DOLLAR = 36; // $
export const PERCENT = 37; // %
export const AMPERSAND = 38; // &
export const SINGLE_QUOTE = 39; // '
export const LEFT_PAREN = 40; // (
export const RIGHT_PAREN = 41; // )
export const ASTERISK = 42; // *
export const PLUS = 43; // +
export const COMMA = 44; // ,
export const DASH = 45; // -
export const DOT = 46; // .
export const SLASH = 47; // /
export const DIGIT_0 = 48;
export const DIGIT_1 = 49;
export const DIGIT_9 = 57;
export const COLON = 58; // :
export const SEMICOLON = 59; // ;
export const LESS_THAN = 60; // <
export const EQUALS = 61; // =
export const GREATER_THAN = 62; // >
export const QUESTION = 63; // ?
export const AT = 64; // @
export const UPPER_A = 65;
export const UPPER_W = 87;
export const UPPER_X = 88;
export const UPPER_Z = 90;
export const LEFT_BRACKET = 91; // [
export const BACKSLASH = 92; // \
export const RIGHT_BRACKET = 93; // ]
export const CARET = 94; // ^
export const UNDERSCORE = 95; // _
export const BACKTICK = 96; // `
export const LOWER_A = 97;
export const LOWER_E = 101;
export const LOWER_F = 102;
export const LOWER_H = 104;
export const LOWER_O = 111;
export const LOWER_S = 115;
export const LOWER_T = 116;
export const LOWER_W = 119;
export const LOWER_X = 120;
export const LOWER_Z = 122;
export const LEFT_BRACE = 123; // {
export const RIGHT_BRACE = 125; // }
export const TILDE = 126; // ~
export const DELETE = 127;
/** The first code unit past ASCII: tables indexed by character code stop here. */
export const ASCII_END = 128;
/** The bit between an ASCII letter's upper and lower case: `c | CASE_BIT` is the lower case of a letter. */
export const CASE_BIT = 32;
