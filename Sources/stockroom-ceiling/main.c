// The bench's C ceiling (issue 46): the least a server can do for the PING rows on this machine.
// One epoll loop on 127.0.0.1 that greets each connection as stockroomd does and answers every
// line it reads with stockroomd's `OK PONG`, all of a read's replies in one write: the same
// bytes on the same loopback as the servers under test, and nothing else. What stockroomd and
// redis-server spend per PING beyond this server's CPU is their own work.
//
//   stockroom-ceiling PORT
//
// It runs until a signal ends it (the bench sends SIGTERM). Replies a client has not read yet
// wait in a per-connection count of bytes, written when the socket is writable again.
#define _GNU_SOURCE  // accept4
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

enum { MAX_FDS = 1 << 17, READ_BYTES = 16 * 1024, EVENTS = 256 };

static const char greeting[] = "OK stockroom-ceiling\n";
static const char pong[] = "OK PONG\n";
#define PONG_BYTES (sizeof pong - 1)

// Reply bytes owed to each connection, by descriptor (what a full socket buffer held back),
// how far into a reply its last write ended, and whether it is watched for writability.
static size_t owed[MAX_FDS];
static unsigned char phase[MAX_FDS];
static unsigned char waiting[MAX_FDS];
// Replies back to back: a write of any count starts at `replies + phase`.
static char replies[READ_BYTES * PONG_BYTES];

static void drop(int epoll, int fd) {
  epoll_ctl(epoll, EPOLL_CTL_DEL, fd, NULL);
  owed[fd] = phase[fd] = waiting[fd] = 0;
  close(fd);
}

// Watches `fd` for writability or not, only when that changes: no system call per request.
static int watch(int epoll, int fd, unsigned char writable) {
  if (waiting[fd] == writable) return 0;
  waiting[fd] = writable;
  struct epoll_event event = {.events = EPOLLIN | (writable ? EPOLLOUT : 0), .data.fd = fd};
  return epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &event);
}

// Writes what `fd` is owed, until the socket takes no more.
static int flush(int epoll, int fd) {
  while (owed[fd] > 0) {
    size_t count = owed[fd] < sizeof replies - PONG_BYTES ? owed[fd] : sizeof replies - PONG_BYTES;
    ssize_t written = write(fd, replies + phase[fd], count);
    if (written < 0 && errno == EINTR) continue;
    if (written < 0 && errno != EAGAIN) return -1;
    if (written < 0) return watch(epoll, fd, 1);
    owed[fd] -= (size_t)written;
    phase[fd] = (unsigned char)((phase[fd] + (size_t)written) % PONG_BYTES);
  }
  return watch(epoll, fd, 0);
}

static void readable(int epoll, int fd) {
  char bytes[READ_BYTES];
  ssize_t count = read(fd, bytes, sizeof bytes);
  if (count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR)) return drop(epoll, fd);
  for (ssize_t index = 0; index < count; index++) owed[fd] += bytes[index] == '\n' ? PONG_BYTES : 0;
  if (flush(epoll, fd) < 0) drop(epoll, fd);
}

static void accepted(int epoll, int listener) {
  int fd;
  while ((fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
    struct epoll_event event = {.events = EPOLLIN, .data.fd = fd};
    if (fd >= MAX_FDS || write(fd, greeting, sizeof greeting - 1) < 0
        || epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) < 0) {
      close(fd);
    }
  }
}

static int listening(int port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  int on = 1;
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((unsigned short)port)};
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) < 0
      || bind(fd, (struct sockaddr *)&address, sizeof address) < 0 || listen(fd, 4096) < 0) {
    return -1;
  }
  return fd;
}

int main(int argc, char **argv) {
  int port = argc == 2 ? atoi(argv[1]) : 0;
  if (port <= 0 || port > 65535) {
    fprintf(stderr, "usage: stockroom-ceiling PORT (listens on 127.0.0.1)\n");
    return 64;
  }
  for (size_t index = 0; index < sizeof replies; index += PONG_BYTES) memcpy(replies + index, pong, PONG_BYTES);
  int listener = listening(port);
  int epoll = epoll_create1(EPOLL_CLOEXEC);
  struct epoll_event event = {.events = EPOLLIN, .data.fd = listener};
  if (listener < 0 || epoll < 0 || epoll_ctl(epoll, EPOLL_CTL_ADD, listener, &event) < 0) {
    perror("stockroom-ceiling");
    return 71;
  }
  struct epoll_event events[EVENTS];
  for (;;) {
    int ready = epoll_wait(epoll, events, EVENTS, -1);
    for (int index = 0; index < ready; index++) {
      int fd = events[index].data.fd;
      if (fd == listener) {
        accepted(epoll, listener);
      } else if (events[index].events & EPOLLIN) {
        readable(epoll, fd);
      } else if (flush(epoll, fd) < 0) {
        drop(epoll, fd);
      }
    }
  }
}
