// ICU's spoof checker (Unicode UTS #39), from Debian's libicu-dev, for user names that look like
// others. ICU renames its functions per version with macros (uspoof_open is uspoof_open_72),
// which Swift cannot follow; these small functions stand in for them.
#ifndef STOCKROOM_ICU_SHIM_H
#define STOCKROOM_ICU_SHIM_H

#include <unicode/unorm2.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>

// A checker at the highly restrictive level (UTS #39 §5.2): one script, or Latin with Han and
// Hiragana/Katakana, with Han and Bopomofo, or with Han and Hangul. NULL if ICU fails. ICU's
// checking and skeleton calls are safe from many threads on a checker nobody changes.
static inline USpoofChecker *sr_icu_open_checker(void) {
  UErrorCode error = U_ZERO_ERROR;
  USpoofChecker *checker = uspoof_open(&error);
  if (U_FAILURE(error)) return NULL;
  uspoof_setChecks(checker, USPOOF_RESTRICTION_LEVEL, &error);
  uspoof_setRestrictionLevel(checker, USPOOF_HIGHLY_RESTRICTIVE);
  if (U_FAILURE(error)) {
    uspoof_close(checker);
    return NULL;
  }
  return checker;
}

// Whether a UTF-8 name passes the highly restrictive level: 1 yes, 0 no, -1 ICU failed.
static inline int sr_icu_single_script(const USpoofChecker *checker, const char *utf8, int length) {
  UErrorCode error = U_ZERO_ERROR;
  int32_t result = uspoof_checkUTF8(checker, utf8, length, NULL, &error);
  if (U_FAILURE(error)) return -1;
  return result == 0 ? 1 : 0;
}

// The name's key for "looks like": the UTS #39 skeleton of its NFKC case fold, in UTF-8 in `out`.
// Returns the key's length, or -1 when ICU failed or `capacity` is too small.
static inline int sr_icu_lookalike_key(
  const USpoofChecker *checker, const char *utf8, int length, char *out, int capacity) {
  UErrorCode error = U_ZERO_ERROR;
  const UNormalizer2 *fold = unorm2_getNFKCCasefoldInstance(&error);
  if (U_FAILURE(error)) return -1;
  UChar text[1024];
  int32_t textLength = 0;
  u_strFromUTF8(text, 1024, &textLength, utf8, length, &error);
  if (U_FAILURE(error) || error == U_STRING_NOT_TERMINATED_WARNING) return -1;
  UChar folded[2048];
  int32_t foldedLength = unorm2_normalize(fold, text, textLength, folded, 2048, &error);
  if (U_FAILURE(error)) return -1;
  UChar skeleton[4096];
  int32_t skeletonLength = uspoof_getSkeleton(checker, 0, folded, foldedLength, skeleton, 4096, &error);
  if (U_FAILURE(error)) return -1;
  int32_t written = 0;
  u_strToUTF8(out, capacity, &written, skeleton, skeletonLength, &error);
  if (U_FAILURE(error) || written >= capacity) return -1;
  return written;
}

#endif
