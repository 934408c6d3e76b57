#include "StockroomICU.h"

#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uscript.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>

const void *sr_icu_open_checker(void) {
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

int sr_icu_single_script(const void *checker, const char *utf8, int length) {
  UErrorCode error = U_ZERO_ERROR;
  int32_t result = uspoof_checkUTF8((const USpoofChecker *)checker, utf8, length, NULL, &error);
  if (U_FAILURE(error)) return -1;
  return result == 0 ? 1 : 0;
}

enum { CAPACITY = 1024 };

static int32_t fold(const UChar *text, int32_t length, UChar *out, UErrorCode *error) {
  const UNormalizer2 *folding = unorm2_getNFKCCasefoldInstance(error);
  if (U_FAILURE(*error)) return -1;
  return unorm2_normalize(folding, text, length, out, CAPACITY, error);
}

static int32_t skeleton(const void *checker, const UChar *text, int32_t length, UChar *out, UErrorCode *error) {
  return uspoof_getSkeleton((const USpoofChecker *)checker, 0, text, length, out, CAPACITY, error);
}

int sr_icu_skeleton(const void *checker, const char *utf8, int length, int form, char *out, int capacity) {
  UErrorCode error = U_ZERO_ERROR;
  UChar text[CAPACITY], changed[CAPACITY], look[CAPACITY];
  int32_t textLength = 0;
  u_strFromUTF8(text, CAPACITY, &textLength, utf8, length, &error);
  if (U_FAILURE(error) || error == U_STRING_NOT_TERMINATED_WARNING) return -1;
  const UChar *source = text;
  int32_t sourceLength = textLength;
  switch (form) {
  case SR_ICU_AS_TYPED:
    break;
  case SR_ICU_CASE_FOLDED:
    sourceLength = fold(text, textLength, changed, &error);
    source = changed;
    break;
  case SR_ICU_UPPER_CASED:
    sourceLength = u_strToUpper(changed, CAPACITY, text, textLength, "", &error);
    source = changed;
    break;
  case SR_ICU_LOOK_FOLDED: {
    // What the name looks like, then that look's case fold: `ΤΟΜ` looks like `TOM`, which folds
    // to `tom`; folding first would give Greek `τομ`, which looks like nothing Latin.
    int32_t lookLength = skeleton(checker, text, textLength, look, &error);
    if (U_FAILURE(error)) return -1;
    sourceLength = fold(look, lookLength, changed, &error);
    source = changed;
    break;
  }
  default:
    return -1;
  }
  if (U_FAILURE(error) || error == U_STRING_NOT_TERMINATED_WARNING) return -1;
  int32_t lookLength = skeleton(checker, source, sourceLength, look, &error);
  if (U_FAILURE(error) || error == U_STRING_NOT_TERMINATED_WARNING) return -1;
  int32_t written = 0;
  u_strToUTF8(out, capacity, &written, look, lookLength, &error);
  if (U_FAILURE(error) || written >= capacity) return -1;
  return written;
}

int sr_icu_script_kind(unsigned int codepoint) {
  UErrorCode error = U_ZERO_ERROR;
  UScriptCode script = uscript_getScript((UChar32)codepoint, &error);
  if (U_FAILURE(error)) return -1;
  if (script == USCRIPT_LATIN) return SR_ICU_LATIN;
  if (script == USCRIPT_COMMON || script == USCRIPT_INHERITED) return SR_ICU_COMMON;
  return SR_ICU_OTHER_SCRIPT;
}
