#ifndef PASSKEY_CSODIUM_SHIM_H
#define PASSKEY_CSODIUM_SHIM_H
#include <sodium.h>
#endif
