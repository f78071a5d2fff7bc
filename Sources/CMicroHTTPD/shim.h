#ifndef PASSKEY_CMICROHTTPD_SHIM_H
#define PASSKEY_CMICROHTTPD_SHIM_H
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdint.h>
#include <stdarg.h>
#include <microhttpd.h>

/// Called once per request with the raw request-target (path and query, not unescaped); the
/// result becomes the request's `*req_cls` (MHD_OPTION_URI_LOG_CALLBACK).
typedef void *(*passkey_mhd_uri_callback)(void *context, const char *uri, struct MHD_Connection *connection);

/// `MHD_start_daemon` is variadic, which Swift cannot call: this fixes the option list.
/// `address` is a `struct sockaddr_in` or `struct sockaddr_in6`; its port may be 0. The listening
/// socket gets `SO_REUSEPORT` (`MHD_OPTION_LISTENING_ADDRESS_REUSE`), so one daemon per event loop
/// can listen on the same address and the kernel spreads the connections over them.
static inline struct MHD_Daemon *passkey_mhd_start_daemon(
    unsigned int flags,
    const struct sockaddr *address,
    unsigned int connection_timeout_seconds,
    unsigned int connection_limit,
    size_t connection_memory_limit,
    MHD_AccessHandlerCallback access_handler,
    passkey_mhd_uri_callback uri_callback,
    MHD_RequestCompletedCallback completed,
    MHD_NotifyConnectionCallback connection_notification,
    MHD_LogCallback logger,
    void *context)
{
    uint16_t port = 0;
    if (address->sa_family == AF_INET) {
        port = ntohs(((const struct sockaddr_in *)(const void *)address)->sin_port);
    } else if (address->sa_family == AF_INET6) {
        port = ntohs(((const struct sockaddr_in6 *)(const void *)address)->sin6_port);
    }
    return MHD_start_daemon(
        flags, port, NULL, NULL, access_handler, context,
        MHD_OPTION_EXTERNAL_LOGGER, logger, context,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned int)1,
        MHD_OPTION_URI_LOG_CALLBACK, uri_callback, context,
        MHD_OPTION_NOTIFY_COMPLETED, completed, context,
        MHD_OPTION_NOTIFY_CONNECTION, connection_notification, context,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
        MHD_OPTION_END);
}

/// The daemon's own epoll descriptor (`MHD_DAEMON_INFO_EPOLL_FD`, with `MHD_USE_EPOLL` and no
/// internal thread): readable whenever `MHD_run` has something to do. -1 when unknown.
static inline int passkey_mhd_epoll_fd(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
    return info == NULL ? -1 : info->epoll_fd;
}

/// Milliseconds until `MHD_run` is due for a timeout (idle connections), or -1 when none is.
static inline long long passkey_mhd_timeout(struct MHD_Daemon *daemon)
{
    MHD_UNSIGNED_LONG_LONG timeout = 0;
    if (MHD_get_timeout(daemon, &timeout) != MHD_YES) return -1;
    return timeout > 0x7fffffff ? 0x7fffffff : (long long)timeout;
}

/// The port the daemon listens on (useful after binding port 0), or 0 when unknown.
static inline uint16_t passkey_mhd_bound_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// The TCP peer of a connection (`struct sockaddr_in` or `sockaddr_in6`), or NULL.
static inline const struct sockaddr *passkey_mhd_client_address(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// The connection's socket (`MHD_CONNECTION_INFO_CONNECTION_FD`), or -1.
static inline int passkey_mhd_connection_socket(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// The size in bytes of the current request's head, from the first byte of the method to the
/// end of the blank line (`MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE`), or 0 when unknown.
static inline size_t passkey_mhd_request_head_size(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info == NULL ? 0 : info->header_size;
}

#endif
