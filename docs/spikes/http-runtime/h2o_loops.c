/* Spike for issue 24: h2o 2.2.5 (libh2o-evloop), one h2o_evloop per thread, each with its own
 * SO_REUSEPORT listener on the same port; a shared h2o_globalconf_t.
 *
 * usage: h2o_loops PORT NLOOPS REQ_TIMEOUT_MS MAX_BODY
 * paths: /        -> "loop N"
 *        /later   -> answered 50 ms later: a helper thread posts a message through the loop's
 *                    h2o_multithread_queue; the receiver (on the loop thread) sends the response
 *        /post    -> "loop N got LEN bytes" (h2o buffers the whole body before calling us)
 */
#define _GNU_SOURCE
#define H2O_USE_LIBUV 0
#include <h2o.h>
#include <h2o/multithread.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int PORT, NLOOPS;
static h2o_globalconf_t config;

struct loop {
  int id;
  h2o_context_t ctx;
  h2o_accept_ctx_t accept_ctx;
  h2o_multithread_queue_t *queue;
  h2o_multithread_receiver_t receiver;
};
static struct loop *loops;
static __thread struct loop *self_loop;

struct later { h2o_multithread_message_t super; h2o_req_t *req; int *alive; struct loop *l; };

static int reply(h2o_req_t *req, int status, const char *reason, const char *body) {
  req->res.status = status; req->res.reason = reason;
  h2o_add_header(&req->pool, &req->res.headers, H2O_TOKEN_CONTENT_TYPE, NULL, H2O_STRLIT("text/plain"));
  h2o_send_inline(req, body, strlen(body));
  return 0;
}

static void req_disposed(void *p) { int *alive = p; *alive = 0; }   /* req's pool is being freed */

static void *helper(void *p) {
  struct later *m = p; usleep(50000);
  /* another thread: only allowed to post a message to the loop's receiver */
  h2o_multithread_send_message(&m->l->receiver, &m->super);
  return NULL;
}

static void on_messages(h2o_multithread_receiver_t *r, h2o_linklist_t *messages) {
  (void)r;
  while (!h2o_linklist_is_empty(messages)) {
    struct later *m = H2O_STRUCT_FROM_MEMBER(struct later, super.link, messages->next);
    h2o_linklist_unlink(&m->super.link);
    char b[80]; snprintf(b, sizeof b, "loop %d (tid %ld) answered later\n", self_loop->id, (long)gettid());
    if (*m->alive) reply(m->req, 200, "OK", b); else fprintf(stderr, "request gone before the answer\n");
    free(m);
  }
}

static int on_req(h2o_handler_t *h, h2o_req_t *req) {
  (void)h; char b[120];
  if (h2o_memis(req->path_normalized.base, req->path_normalized.len, H2O_STRLIT("/later"))) {
    struct later *m = calloc(1, sizeof *m);
    m->req = req; m->l = self_loop;
    m->alive = h2o_mem_alloc_shared(&req->pool, sizeof(int), req_disposed); *m->alive = 1;
    pthread_t t; pthread_create(&t, NULL, helper, m); pthread_detach(t);
    return 0;                     /* response comes later */
  }
  if (h2o_memis(req->path_normalized.base, req->path_normalized.len, H2O_STRLIT("/post"))) {
    int ncl = 0, nte = 0;
    for (ssize_t i = -1; (i = h2o_find_header(&req->headers, H2O_TOKEN_CONTENT_LENGTH, i)) != -1;) ncl++;
    for (ssize_t i = -1; (i = h2o_find_header(&req->headers, H2O_TOKEN_TRANSFER_ENCODING, i)) != -1;) nte++;
    snprintf(b, sizeof b, "loop %d got %zu bytes; content-length headers seen: %d, transfer-encoding: %d; authority len %zu\n",
             self_loop->id, req->entity.len, ncl, nte, req->input.authority.len);
    return reply(req, 200, "OK", b);
  }
  snprintf(b, sizeof b, "loop %d\n", self_loop->id);
  return reply(req, 200, "OK", b);
}

/* A filter that turns every error answer h2o builds through the request pipeline (status >= 400,
 * not already problem+json) into a problem+json body. */
struct swallow { h2o_ostream_t super; h2o_iovec_t body; };
static void swallow_send(h2o_ostream_t *self, h2o_req_t *req, h2o_iovec_t *bufs, size_t n, h2o_send_state_t st) {
  (void)bufs; (void)n; struct swallow *os = (void *)self;
  if (h2o_send_state_is_in_progress(st)) h2o_ostream_send_next(self, req, NULL, 0, st);
  else h2o_ostream_send_next(self, req, &os->body, 1, st);
}
static void problem_setup(h2o_filter_t *f, h2o_req_t *req, h2o_ostream_t **slot) {
  (void)f;
  ssize_t ct = h2o_find_header(&req->res.headers, H2O_TOKEN_CONTENT_TYPE, -1);
  int ours = ct >= 0 && h2o_memis(req->res.headers.entries[ct].value.base, req->res.headers.entries[ct].value.len,
                                  H2O_STRLIT("application/problem+json"));
  if (req->res.status >= 400 && !ours) {
    fprintf(stderr, "[filter] rewriting %d %s\n", req->res.status, req->res.reason);
    h2o_set_header(&req->pool, &req->res.headers, H2O_TOKEN_CONTENT_TYPE, H2O_STRLIT("application/problem+json"), 1);
    struct swallow *os = (void *)h2o_add_ostream(req, sizeof *os, slot);
    os->super.do_send = swallow_send;
    char *b = h2o_mem_alloc_pool(&req->pool, 128);
    int len = snprintf(b, 128, "{\"type\":\"about:blank\",\"status\":%d,\"code\":\"invalid-request\"}", req->res.status);
    os->body = h2o_iovec_init(b, len); req->res.content_length = len;
    slot = &os->super.next;
  }
  h2o_setup_next_ostream(req, slot);
}

/* Connection limit in our own accept callback: count with sock->on_close (as h2o's own server
 * does for max-connections); over LIMIT answer a raw 503 problem and close. */
static int LIMIT = 1 << 30;
static __thread int open_conns;
static void on_close(void *data) { (void)data; open_conns--; }
static const char P503[] = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/problem+json\r\n"
  "Connection: close\r\nContent-Length: 65\r\n\r\n{\"type\":\"about:blank\",\"status\":503,\"code\":\"service-unavailable\"}";
static void on_accept(h2o_socket_t *listener, const char *err) {
  if (err) return;
  h2o_socket_t *sock = h2o_evloop_socket_accept(listener);
  if (!sock) return;
  if (open_conns >= LIMIT) {
    ssize_t w = send(h2o_socket_get_fd(sock), P503, sizeof P503 - 1, MSG_NOSIGNAL);
    shutdown(h2o_socket_get_fd(sock), SHUT_WR);
    fprintf(stderr, "[loop%d] over the limit (%d open): raw 503 (%zd bytes)\n", self_loop->id, open_conns, w);
    h2o_socket_close(sock);
    return;
  }
  open_conns++; sock->on_close.cb = on_close; sock->on_close.data = NULL;
  h2o_accept(&self_loop->accept_ctx, sock);
}

static void *run(void *p) {
  struct loop *l = p; self_loop = l;
  h2o_context_init(&l->ctx, h2o_evloop_create(), &config);
  l->accept_ctx.ctx = &l->ctx; l->accept_ctx.hosts = config.hosts;
  l->queue = h2o_multithread_create_queue(l->ctx.loop);
  h2o_multithread_register_receiver(l->queue, &l->receiver, on_messages);
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0), one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
  struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(PORT), .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
  if (bind(fd, (void *)&a, sizeof a) || listen(fd, SOMAXCONN)) { perror("bind/listen"); exit(1); }
  h2o_socket_t *ls = h2o_evloop_socket_create(l->ctx.loop, fd, H2O_SOCKET_FLAG_DONT_READ);
  h2o_socket_read_start(ls, on_accept);
  fprintf(stderr, "[loop%d tid=%ld] listening\n", l->id, (long)gettid());
  while (h2o_evloop_run(l->ctx.loop, INT32_MAX) == 0) ;
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 5) { fprintf(stderr, "usage: %s PORT NLOOPS REQ_TIMEOUT_MS MAX_BODY\n", argv[0]); return 2; }
  PORT = atoi(argv[1]); NLOOPS = atoi(argv[2]);
  setvbuf(stderr, NULL, _IOLBF, 0);
  h2o_config_init(&config);
  if (getenv("LIMIT")) LIMIT = atoi(getenv("LIMIT"));
  if (getenv("NO_H2")) config.http1.upgrade_to_http2 = 0;
  config.http1.req_timeout = atoi(argv[3]);
  config.max_request_entity_size = atoi(argv[4]);
  h2o_hostconf_t *host = h2o_config_register_host(&config, h2o_iovec_init(H2O_STRLIT("default")), 65535);
  h2o_pathconf_t *path = h2o_config_register_path(host, "/", 0);
  h2o_handler_t *h = h2o_create_handler(path, sizeof *h); h->on_req = on_req;
  if (getenv("PROBLEM_FILTER")) {
    h2o_create_filter(path, sizeof(h2o_filter_t))->on_setup_ostream = problem_setup;
    h2o_create_filter(&host->fallback_path, sizeof(h2o_filter_t))->on_setup_ostream = problem_setup;
  }
  loops = calloc(NLOOPS, sizeof *loops); pthread_t t[16];
  for (int i = 0; i < NLOOPS; i++) { loops[i].id = i; pthread_create(&t[i], NULL, run, &loops[i]); }
  for (int i = 0; i < NLOOPS; i++) pthread_join(t[i], NULL);
  return 0;
}
