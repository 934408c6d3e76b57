// ICU's spoof checker (Unicode UTS #39), for user names that look like others, behind plain C
// types: no ICU type or name appears here, so this header cannot clash with Foundation's own ICU.
// ICU renames its functions per version with macros (uspoof_open is uspoof_open_72), which Swift
// cannot follow either.
#ifndef STOCKROOM_ICU_H
#define STOCKROOM_ICU_H

// An opaque checker at the highly restrictive level (UTS #39 §5.2): one script, or Latin with Han
// and Hiragana/Katakana, with Han and Bopomofo, or with Han and Hangul. NULL if ICU fails. ICU's
// checking and skeleton calls are safe from many threads on a checker nobody changes.
const void *sr_icu_open_checker(void);

// Whether a UTF-8 name passes the highly restrictive level: 1 yes, 0 no, -1 ICU failed.
int sr_icu_single_script(const void *checker, const char *utf8, int length);

// Which form of a name `sr_icu_skeleton` takes the skeleton of.
enum {
  // The name as typed: `reaIuser` (capital I) looks like `realuser`.
  SR_ICU_AS_TYPED = 0,
  // Its NFKC case fold: `RealUser` is `realuser` in another case.
  SR_ICU_CASE_FOLDED = 1,
  // Its full upper case: `alice` written `ALICE` looks like `ALlCE`; `ʀ` becomes `Ʀ`, an R.
  SR_ICU_UPPER_CASED = 2,
  // The case fold of its skeleton: Greek `ΤΟΜ` looks like `TOM`, which is `tom`.
  SR_ICU_LOOK_FOLDED = 3,
};

// The UTS #39 skeleton of one form of a UTF-8 name, in UTF-8 in `out`. Returns its length, or -1
// when ICU failed or `capacity` is too small.
int sr_icu_skeleton(const void *checker, const char *utf8, int length, int form, char *out, int capacity);

// The script of a code point, as the look-alike rules need it.
enum { SR_ICU_LATIN = 0, SR_ICU_COMMON = 1, SR_ICU_OTHER_SCRIPT = 2 };
int sr_icu_script_kind(unsigned int codepoint);

#endif
