// libqrencode, from Debian's libqrencode-dev: the board's join link drawn as a QR code.
#ifndef STOCKROOM_QRENCODE_SHIM_H
#define STOCKROOM_QRENCODE_SHIM_H

#include <qrencode.h>

#endif
