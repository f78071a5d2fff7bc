/* Spike for issue 24: can a foreign fd (a libpq socket) live in an h2o evloop without h2o reading
 * it, be polled for writability, and be given back without h2o closing it? Does h2o_evloop_run
 * return after one turn (so Swift jobs can be drained between turns)? Timers? */
#define _GNU_SOURCE
#define H2O_USE_LIBUV 0
#include <h2o.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/socket.h>

static int fds[2], readable, writable, fired;
static void on_read(h2o_socket_t *s, const char *err) {
  char b[16]; ssize_t n = recv(h2o_socket_get_fd(s), b, sizeof b, MSG_DONTWAIT);
  printf("read cb: err=%s, our own recv got %zd bytes (h2o input buffer holds %zu)\n", err ? err : "none", n, s->input->size);
  readable++;
}
static void on_write(h2o_socket_t *s, const char *err) { (void)s; printf("notify_write cb: err=%s\n", err ? err : "none"); writable++; }
static void on_timer(h2o_timeout_entry_t *e) { (void)e; printf("timer fired\n"); fired++; }

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  h2o_evloop_t *loop = h2o_evloop_create();
  socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds);
  h2o_socket_t *s = h2o_evloop_socket_create(loop, fds[0], H2O_SOCKET_FLAG_DONT_READ);
  h2o_socket_read_start(s, on_read);
  (void)!write(fds[1], "hello", 5);
  int turns = 0;
  while (!readable && turns < 5) { h2o_evloop_run(loop, 1000); turns++; }
  printf("turns until readable: %d (each h2o_evloop_run call is one epoll turn)\n", turns);
  h2o_socket_read_stop(s);
  h2o_socket_notify_write(s, on_write);
  turns = 0; while (!writable && turns < 5) { h2o_evloop_run(loop, 1000); turns++; }
  h2o_timeout_t t; h2o_timeout_entry_t e = { .cb = on_timer };
  h2o_timeout_init(loop, &t, 30); h2o_timeout_link(loop, &t, &e);
  turns = 0; while (!fired && turns < 50) { h2o_evloop_run(loop, 1000); turns++; }
  printf("timer after %d turns\n", turns);
  h2o_socket_export_t info;
  int r = h2o_socket_export(s, &info);
  printf("export -> %d, fd %d (was %d), still open: %s\n", r, info.fd, fds[0], fcntl(info.fd, F_GETFD) >= 0 ? "yes" : "no");
  (void)!write(fds[1], "x", 1);
  h2o_evloop_run(loop, 50);
  printf("after export, readable callbacks: %d (no new one expected)\n", readable);
  return 0;
}
