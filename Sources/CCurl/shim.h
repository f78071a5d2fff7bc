#ifndef PASSKEY_CCURL_SHIM_H
#define PASSKEY_CCURL_SHIM_H
#include <curl/curl.h>

/* curl_easy_setopt is variadic, which Swift cannot call: one typed wrapper per argument kind. */
static inline CURLcode passkey_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode passkey_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode passkey_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode passkey_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
typedef size_t (*passkey_curl_read_callback)(char *buffer, size_t size, size_t count, void *state);
static inline CURLcode passkey_curl_set_read_function(CURL *handle, passkey_curl_read_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_READFUNCTION, callback);
}
typedef size_t (*passkey_curl_write_callback)(char *data, size_t size, size_t count, void *state);
static inline CURLcode passkey_curl_set_write_function(CURL *handle, passkey_curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}
static inline CURLcode passkey_curl_response_code(CURL *handle, long *code) {
    return curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, code);
}
#endif
