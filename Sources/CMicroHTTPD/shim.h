// MHD_start_daemon takes its options as C varargs, which Swift cannot call; this fixed-argument
// function stands in for it with the options the board and /metrics use.
#ifndef STOCKROOM_MICROHTTPD_SHIM_H
#define STOCKROOM_MICROHTTPD_SHIM_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <microhttpd.h>

// One polling thread (epoll) of MHD's own, suspend/resume for the event streams, and these bounds:
// `connections` at once, `per_address` from one IP address, `memory` bytes of buffer per connection
// (the request's head must fit in it), `timeout` seconds without progress. `address` is bound.
// `notify` hears of every connection MHD starts and closes, on MHD's thread, before it closes
// the socket.
static inline struct MHD_Daemon *sr_mhd_start(
  const struct sockaddr *address, unsigned int connections, unsigned int per_address, size_t memory,
  unsigned int timeout, MHD_AccessHandlerCallback handler, void *handler_context,
  MHD_RequestCompletedCallback completed, void *completed_context, MHD_NotifyConnectionCallback notify,
  void *notify_context) {
  // No MHD_USE_ERROR_LOG: MHD would write its own lines to stderr, past stockroomd's log format
  // and --log-file (a flood past the per-address limit would write one line per connection).
  // MHD_OPTION_STRICT_FOR_CLIENT at its default (0): at 1, 0.9.75 refuses a request without Host
  // with its head written twice, so HTTPHeaderCheck makes that check, and the stricter others.
  // (At -1, oddly, 0.9.75 refuses a space before a header's colon: HTTPHeaderCheck does too.)
  unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME
    | MHD_USE_ITC;
  return MHD_start_daemon(
    flags, 0, NULL, NULL, handler, handler_context, MHD_OPTION_SOCK_ADDR, address,
    MHD_OPTION_CONNECTION_LIMIT, connections, MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address,
    MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory, MHD_OPTION_CONNECTION_TIMEOUT, timeout,
    MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context, MHD_OPTION_NOTIFY_CONNECTION, notify,
    notify_context, MHD_OPTION_STRICT_FOR_CLIENT, (int)0,
    MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned int)1, MHD_OPTION_END);
}

// The port the daemon listens on (the kernel's choice when asked for 0); 0 if it cannot say.
static inline uint16_t sr_mhd_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info == NULL ? 0 : info->port;
}

// A connection's own inactivity limit, in seconds (MHD_set_connection_option is variadic too).
static inline void sr_mhd_set_timeout(struct MHD_Connection *connection, unsigned int seconds) {
  MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

// A connection's socket, -1 if MHD cannot say.
static inline int sr_mhd_connection_fd(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  return info == NULL ? -1 : info->connect_fd;
}

// A connection's peer address, NULL if MHD cannot say.
static inline const struct sockaddr *sr_mhd_connection_address(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  return info == NULL ? NULL : info->client_addr;
}

// The size of a response that streams until it ends (a macro Swift cannot import).
static const uint64_t sr_mhd_size_unknown = MHD_SIZE_UNKNOWN;

// Whether MHD is telling of a connection's start (else of its close).
static inline int sr_mhd_notify_started(enum MHD_ConnectionNotificationCode code) {
  return code == MHD_CONNECTION_NOTIFY_STARTED;
}

// Whether a request ended because its connection was inactive past its timeout.
static inline int sr_mhd_timed_out(enum MHD_RequestTerminationCode code) {
  return code == MHD_REQUEST_TERMINATED_TIMEOUT_REACHED;
}

#endif
