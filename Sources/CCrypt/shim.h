#ifndef PASSKEY_CCRYPT_SHIM_H
#define PASSKEY_CCRYPT_SHIM_H
#include <crypt.h>
#endif
