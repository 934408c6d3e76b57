// ICU from Debian's libicu-dev: this module only links it (and makes apt install it). Its headers
// are included by CStockroomICU's C file alone, never by a Swift module: Foundation carries its own
// copy of ICU (_FoundationICU) whose enums differ from Debian's, and Clang refuses one C name with
// two definitions as soon as both reach a Swift module.
#ifndef STOCKROOM_CICU_SHIM_H
#define STOCKROOM_CICU_SHIM_H
#endif
