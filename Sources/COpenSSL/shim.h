#ifndef PASSKEY_COPENSSL_SHIM_H
#define PASSKEY_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/pem.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/rsa.h>
#include <openssl/asn1.h>
#include <openssl/objects.h>
#include <openssl/hmac.h>

/* Stable parameter names: OSSL_PARAM keeps the pointer, so Swift must not pass temporaries. */
static const char *const PASSKEY_PARAM_GROUP_NAME = OSSL_PKEY_PARAM_GROUP_NAME;
static const char *const PASSKEY_PARAM_PUB_KEY = OSSL_PKEY_PARAM_PUB_KEY;
static const char *const PASSKEY_PARAM_RSA_N = OSSL_PKEY_PARAM_RSA_N;
static const char *const PASSKEY_PARAM_RSA_E = OSSL_PKEY_PARAM_RSA_E;
static const char *const PASSKEY_PARAM_EC_POINT_FORMAT = OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT;

/* Function-like or compound macros that do not import. */
static const int PASSKEY_EVP_PKEY_PUBLIC_KEY = EVP_PKEY_PUBLIC_KEY;
static const int PASSKEY_RSA_PKCS1_PADDING = RSA_PKCS1_PADDING;
static const int PASSKEY_RSA_PKCS1_PSS_PADDING = RSA_PKCS1_PSS_PADDING;
static const int PASSKEY_RSA_PSS_SALTLEN_DIGEST = RSA_PSS_SALTLEN_DIGEST;

/* AES-GCM controls (macros). */
static const int PASSKEY_EVP_CTRL_GCM_GET_TAG = EVP_CTRL_GCM_GET_TAG;
static const int PASSKEY_EVP_CTRL_GCM_SET_TAG = EVP_CTRL_GCM_SET_TAG;
static const int PASSKEY_EVP_CTRL_GCM_SET_IVLEN = EVP_CTRL_GCM_SET_IVLEN;

/* STACK_OF(X509) helpers (the sk_X509_* functions are macro-generated). */
static inline STACK_OF(X509) *passkey_x509_stack_new(void) { return sk_X509_new_null(); }
static inline int passkey_x509_stack_push(STACK_OF(X509) *stack, X509 *certificate) {
    return sk_X509_push(stack, certificate);
}
static inline void passkey_x509_stack_free(STACK_OF(X509) *stack) { sk_X509_free(stack); }

/* BASIC_CONSTRAINTS of a certificate: -1 absent or unparseable, 0 CA false, 1 CA true. */
static inline int passkey_x509_basic_constraints_ca(X509 *certificate) {
    int critical = 0;
    BASIC_CONSTRAINTS *bc = X509_get_ext_d2i(certificate, NID_basic_constraints, &critical, NULL);
    if (bc == NULL) { return -1; }
    int ca = bc->ca ? 1 : 0;
    BASIC_CONSTRAINTS_free(bc);
    return ca;
}
#endif
