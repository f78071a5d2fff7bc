#ifndef PASSKEY_CEVENTLOOP_SHIM_H
#define PASSKEY_CEVENTLOOP_SHIM_H
/* The event loops (PasskeyEventLoop/EventLoop.swift), which drive libpq's non-blocking sockets and
   libmicrohttpd's daemons: epoll and an eventfd behind plain-typed helpers, so no packed
   epoll_event struct crosses into Swift. */
#include <errno.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <sys/prctl.h>

/* Names the calling thread (as `ps -L` and /proc/self/task/<id>/comm show it; 15 bytes kept). */
static inline void passkey_thread_set_name(const char *name) { (void)prctl(PR_SET_NAME, name, 0, 0, 0); }

static inline int passkey_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }
static inline int passkey_eventfd_create(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }
static inline void passkey_eventfd_signal(int fd) { eventfd_write(fd, 1); }
static inline void passkey_eventfd_drain(int fd) { eventfd_t value; (void)eventfd_read(fd, &value); }

static const uint32_t passkey_epoll_in = EPOLLIN;
static const uint32_t passkey_epoll_out = EPOLLOUT;

/* Arms `fd` for one event (EPOLLONESHOT): added the first time, re-armed after. */
static inline int passkey_epoll_arm(int ep, int fd, uint32_t events, int add) {
    struct epoll_event event = {0};
    event.events = events | EPOLLONESHOT;
    event.data.fd = fd;
    return epoll_ctl(ep, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &event);
}

/* Adds `fd` level-triggered, for good (the loop's own eventfd). */
static inline int passkey_epoll_add_level(int ep, int fd) {
    struct epoll_event event = {0};
    event.events = EPOLLIN;
    event.data.fd = fd;
    return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &event);
}

static inline int passkey_epoll_remove(int ep, int fd) { return epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL); }

/* Waits for up to `capacity` events; their fds land in `fds` (-1 on EINTR: no events). */
static inline int passkey_epoll_wait(int ep, int *fds, int capacity, int timeout_ms) {
    struct epoll_event events[64];
    if (capacity > 64) capacity = 64;
    int count = epoll_wait(ep, events, capacity, timeout_ms);
    if (count < 0) return errno == EINTR ? 0 : -1;
    for (int i = 0; i < count; i++) fds[i] = events[i].data.fd;
    return count;
}
#endif
