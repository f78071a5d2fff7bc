/* Spike for issue 24: N libmicrohttpd 0.9.75 daemons, one per thread, each driven from that
 * thread's own epoll loop (MHD_USE_EPOLL, no internal thread), sharing one port with
 * MHD_OPTION_LISTENING_ADDRESS_REUSE (SO_REUSEPORT).
 *
 * usage: mhd_loops PORT NLOOPS SOFT_LIMIT_PER_LOOP MEMPOOL BODY_DEADLINE_MS
 * paths: /               -> "loop N"
 *        /suspend?x=T    -> suspend; resumed after 50 ms by T = loop (the loop thread itself),
 *                           cross (another thread, no eventfd), crosswake (another thread + eventfd)
 *        POST /body      -> reads the body; a body older than BODY_DEADLINE_MS gets a raw 408
 *                           written by the loop on the socket, then shutdown(SHUT_WR)
 *        POST /midqueue  -> tries MHD_queue_response on the first body chunk (logs the result)
 * Over SOFT_LIMIT_PER_LOOP open connections, NOTIFY_CONNECTION writes a raw 503 problem and
 * shuts the socket for writing; the access handler then refuses the request (MHD_NO).
 */
#define _GNU_SOURCE
#include <microhttpd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <errno.h>
#include <stdarg.h>

static int PORT, NLOOPS, SOFT, POOL, BODYMS;

static long long now_ms(void) {
  struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

#define MAXC 64
struct loop {
  int id, ep, wake;
  struct MHD_Daemon *d;
  int open;                       /* connections open on this daemon */
  struct MHD_Connection *pending[MAXC]; long long due[MAXC]; int npending; /* loop-side resumes */
  struct req *bodies[MAXC]; int nbodies;  /* requests reading a body */
};

struct req {                      /* per request (req_cls) */
  struct loop *l; int phase; long long started, suspended_at; int resumed;
  struct MHD_Connection *c; int fd; int cut; char uri[128];
};

struct sockctx { int refused; };

static void logf_(struct loop *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_(struct loop *l, const char *fmt, ...) {
  static int quiet = -1;                      /* QUIET=1: no log at all (for the benchmark) */
  if (quiet < 0) quiet = getenv("QUIET") != NULL;
  if (quiet) return;
  va_list ap; va_start(ap, fmt);
  fprintf(stderr, "[loop%d tid=%ld] ", l ? l->id : -1, (long)gettid());
  vfprintf(stderr, fmt, ap); fputc('\n', stderr); va_end(ap);
}

static const char P503[] =
  "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/problem+json\r\n"
  "Connection: close\r\nContent-Length: 69\r\n\r\n"
  "{\"type\":\"about:blank\",\"status\":503,\"code\":\"service-unavailable\"}    ";
static const char P408[] =
  "HTTP/1.1 408 Request Timeout\r\nContent-Type: application/problem+json\r\n"
  "Connection: close\r\nContent-Length: 61\r\n\r\n"
  "{\"type\":\"about:blank\",\"status\":408,\"code\":\"request-timeout\"}";

static enum MHD_Result apc(void *cls, const struct sockaddr *a, socklen_t n) {
  (void)a; (void)n; struct loop *l = cls;
  logf_(l, "accept policy callback (open=%d)", l->open);
  return MHD_YES;
}

static void notify(void *cls, struct MHD_Connection *c, void **sc, enum MHD_ConnectionNotificationCode code) {
  struct loop *l = cls;
  int fd = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD)->connect_fd;
  if (code == MHD_CONNECTION_NOTIFY_STARTED) {
    struct sockctx *s = calloc(1, sizeof *s); *sc = s;
    l->open++;
    logf_(l, "connection started fd=%d open=%d", fd, l->open);
    if (l->open > SOFT) {
      ssize_t w = send(fd, P503, sizeof P503 - 1, MSG_NOSIGNAL);
      shutdown(fd, SHUT_WR);
      s->refused = 1;
      logf_(l, "over soft limit: wrote raw 503 (%zd bytes), SHUT_WR", w);
    }
  } else {
    l->open--;
    logf_(l, "connection closed fd=%d open=%d", fd, l->open);
    free(*sc); *sc = NULL;
  }
}

static void *uri_log(void *cls, const char *uri, struct MHD_Connection *c) {
  struct loop *l = cls;
  struct req *r = calloc(1, sizeof *r);
  r->l = l; r->c = c; r->started = now_ms();
  r->fd = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD)->connect_fd;
  snprintf(r->uri, sizeof r->uri, "%s", uri);
  logf_(l, "uri log callback: %s", uri);
  return r;
}

static void completed(void *cls, struct MHD_Connection *c, void **rc, enum MHD_RequestTerminationCode t) {
  struct loop *l = cls; (void)c;
  struct req *r = *rc;
  logf_(l, "request completed code=%d (%s)", (int)t, r ? r->uri : "?");
  if (r) {
    for (int i = 0; i < l->nbodies; i++) if (l->bodies[i] == r) l->bodies[i] = l->bodies[--l->nbodies];
    free(r);
  }
  *rc = NULL;
}

static void mhdlog(void *cls, const char *fmt, va_list ap) {
  struct loop *l = cls; char b[400]; vsnprintf(b, sizeof b, fmt, ap);
  b[strcspn(b, "\n")] = 0; logf_(l, "MHD log: %s", b);
}

struct cross { struct MHD_Connection *c; struct loop *l; int wake; };
static void *cross_resume(void *p) {
  struct cross *x = p; usleep(50000);
  MHD_resume_connection(x->c);
  if (x->wake) { uint64_t one = 1; (void)!write(x->l->wake, &one, 8); }
  fprintf(stderr, "[helper tid=%ld] resumed from another thread (eventfd=%d)\n", (long)gettid(), x->wake);
  free(x); return NULL;
}

static enum MHD_Result answer(struct MHD_Connection *c, int status, const char *body) {
  struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_MUST_COPY);
  MHD_add_response_header(r, "Content-Type", "text/plain");
  enum MHD_Result q = MHD_queue_response(c, status, r);
  MHD_destroy_response(r); return q;
}

static enum MHD_Result access_cb(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                 const char *version, const char *data, size_t *size, void **rc) {
  struct loop *l = cls; (void)version;
  struct req *r = *rc;
  struct sockctx *s = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT)->socket_context;
  if (s && s->refused) { logf_(l, "access: refused connection, MHD_NO"); return MHD_NO; }
  if (r->cut) { *size = 0; return MHD_NO; }
  char b[200];
  if (r->phase == 0) {            /* head complete */
    r->phase = 1;
    if (!strcmp(method, "POST")) { l->bodies[l->nbodies++] = r; return MHD_YES; }
    return MHD_YES;
  }
  if (!strcmp(method, "POST") && *size > 0) {
    if (!strcmp(url, "/midqueue") && r->phase == 1) {
      enum MHD_Result q = answer(c, 400, "mid-body\n");
      logf_(l, "MHD_queue_response during the body returned %s", q == MHD_YES ? "YES" : "NO");
      r->phase = 2;
    }
    *size = 0; return MHD_YES;
  }
  if (!strncmp(url, "/suspend", 8)) {
    const char *x = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "x");
    if (!r->resumed && !r->suspended_at) {
      r->suspended_at = now_ms();
      MHD_suspend_connection(c);
      if (x && !strncmp(x, "cross", 5)) {
        struct cross *cr = malloc(sizeof *cr); cr->c = c; cr->l = l; cr->wake = !strcmp(x, "crosswake");
        pthread_t t; pthread_create(&t, NULL, cross_resume, cr); pthread_detach(t);
      } else {
        l->pending[l->npending] = c; l->due[l->npending++] = now_ms() + 50;
      }
      return MHD_YES;
    }
    snprintf(b, sizeof b, "loop %d resumed after %lld ms (%s)\n", l->id, now_ms() - r->suspended_at, x ? x : "loop");
    return answer(c, 200, b);
  }
  for (int i = 0; i < l->nbodies; i++) if (l->bodies[i] == r) l->bodies[i] = l->bodies[--l->nbodies];
  snprintf(b, sizeof b, "loop %d\n", l->id);
  return answer(c, 200, b);
}

static void *run(void *p) {
  struct loop *l = p;
  l->ep = epoll_create1(EPOLL_CLOEXEC);
  l->wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  l->d = MHD_start_daemon(MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG, PORT,
                          apc, l, access_cb, l,
                          MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned int)1,
                          MHD_OPTION_CONNECTION_LIMIT, (unsigned int)(SOFT + 4),
                          MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)POOL,
                          MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)20,
                          MHD_OPTION_NOTIFY_CONNECTION, notify, l,
                          MHD_OPTION_URI_LOG_CALLBACK, uri_log, l,
                          MHD_OPTION_NOTIFY_COMPLETED, completed, l,
                          MHD_OPTION_EXTERNAL_LOGGER, mhdlog, l,
                          MHD_OPTION_END);
  if (!l->d) { logf_(l, "MHD_start_daemon failed: %s", strerror(errno)); exit(1); }
  int mfd = MHD_get_daemon_info(l->d, MHD_DAEMON_INFO_EPOLL_FD)->epoll_fd;
  struct epoll_event ev = { .events = EPOLLIN, .data.fd = mfd };
  epoll_ctl(l->ep, EPOLL_CTL_ADD, mfd, &ev);
  ev.data.fd = l->wake; epoll_ctl(l->ep, EPOLL_CTL_ADD, l->wake, &ev);
  logf_(l, "daemon up, MHD epoll fd=%d in our epoll fd=%d", mfd, l->ep);
  for (;;) {
    MHD_UNSIGNED_LONG_LONG to; int wait = 5000;    /* long cap: shows whether a wake-up comes */
    if (MHD_get_timeout(l->d, &to) == MHD_YES && (long long)to < wait) wait = (int)to;
    long long now = now_ms();
    for (int i = 0; i < l->npending; i++) { long long w = l->due[i] - now; if (w < wait) wait = w < 0 ? 0 : (int)w; }
    if (l->nbodies) wait = wait > 100 ? 100 : wait;
    struct epoll_event out[8];
    long long t0 = now_ms();
    int n = epoll_wait(l->ep, out, 8, wait);
    if (n > 0 || now_ms() - t0 > 1000)
      logf_(l, "epoll_wait(%d ms) -> %d after %lld ms%s%s", wait, n, now_ms() - t0,
            n > 0 && out[0].data.fd == mfd ? " [mhd fd]" : "", n > 0 && out[0].data.fd == l->wake ? " [eventfd]" : "");
    for (int i = 0; i < n; i++) if (out[i].data.fd == l->wake) { uint64_t v; (void)!read(l->wake, &v, 8); }
    now = now_ms();
    for (int i = 0; i < l->npending; )
      if (l->due[i] <= now) { MHD_resume_connection(l->pending[i]); l->pending[i] = l->pending[--l->npending]; l->due[i] = l->due[l->npending]; }
      else i++;
    for (int i = 0; i < l->nbodies; i++) {
      struct req *r = l->bodies[i];
      if (!r->cut && now - r->started > BODYMS) {
        ssize_t w = send(r->fd, P408, sizeof P408 - 1, MSG_NOSIGNAL);
        shutdown(r->fd, SHUT_WR); r->cut = 1;
        logf_(l, "body deadline: wrote raw 408 (%zd bytes) on fd %d, SHUT_WR", w, r->fd);
      }
    }
    MHD_run(l->d);
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 6) { fprintf(stderr, "usage: %s PORT NLOOPS SOFT POOL BODYMS\n", argv[0]); return 2; }
  PORT = atoi(argv[1]); NLOOPS = atoi(argv[2]); SOFT = atoi(argv[3]); POOL = atoi(argv[4]); BODYMS = atoi(argv[5]);
  setvbuf(stderr, NULL, _IOLBF, 0);
  struct loop *ls = calloc(NLOOPS, sizeof *ls); pthread_t t[16];
  for (int i = 0; i < NLOOPS; i++) { ls[i].id = i; pthread_create(&t[i], NULL, run, &ls[i]); usleep(20000); }
  for (int i = 0; i < NLOOPS; i++) pthread_join(t[i], NULL);
  return 0;
}
