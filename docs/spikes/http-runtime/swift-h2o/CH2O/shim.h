#ifndef SPIKE_H2O_SHIM_H
#define SPIKE_H2O_SHIM_H
#define H2O_USE_LIBUV 0          /* Debian's libh2o-evloop.pc does not set it; without it h2o.h wants uv.h */
#include <h2o.h>
#include <netinet/in.h>
#include <sys/socket.h>

/* A handler with a context pointer for Swift (h2o_create_handler allocates sizeof this). */
typedef struct { h2o_handler_t super; void *context; } spike_handler_t;
typedef int (*spike_on_req)(spike_handler_t *self, h2o_req_t *req);

static inline spike_handler_t *spike_register(h2o_pathconf_t *path, spike_on_req cb, void *context) {
    spike_handler_t *h = (spike_handler_t *)h2o_create_handler(path, sizeof *h);
    h->super.on_req = (int (*)(h2o_handler_t *, h2o_req_t *))cb;
    h->context = context;
    return h;
}
/* Macros that Swift does not import. */
static inline const h2o_token_t *spike_token_content_type(void) { return H2O_TOKEN_CONTENT_TYPE; }
static inline h2o_hostconf_t *spike_default_host(h2o_globalconf_t *c) {
    return h2o_config_register_host(c, h2o_iovec_init(H2O_STRLIT("default")), 65535);
}
static inline void spike_accept(h2o_accept_ctx_t *actx, h2o_socket_t *listener) {
    h2o_socket_t *sock = h2o_evloop_socket_accept(listener);
    if (sock != NULL) h2o_accept(actx, sock);
}
static const int spike_flag_dont_read = H2O_SOCKET_FLAG_DONT_READ;
#endif
