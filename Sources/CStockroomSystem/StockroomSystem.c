// Everything is in the header; SwiftPM needs a C target to have one source file.
#include "StockroomSystem.h"
