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

// The name's key for "looks like": the UTS #39 skeleton of its NFKC case fold, in UTF-8 in `out`.
// Returns the key's length, or -1 when ICU failed or `capacity` is too small.
int sr_icu_lookalike_key(const void *checker, const char *utf8, int length, char *out, int capacity);

#endif
