#include "StockroomICU.h"

#include <unicode/unorm2.h>
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

int sr_icu_lookalike_key(const void *checker, const char *utf8, int length, char *out, int capacity) {
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
  int32_t skeletonLength = uspoof_getSkeleton(
    (const USpoofChecker *)checker, 0, folded, foldedLength, skeleton, 4096, &error);
  if (U_FAILURE(error)) return -1;
  int32_t written = 0;
  u_strToUTF8(out, capacity, &written, skeleton, skeletonLength, &error);
  if (U_FAILURE(error) || written >= capacity) return -1;
  return written;
}
