// Linux interfaces that Glibc's Swift module leaves out: epoll and eventfd, for the server's
// event loops, and the calls glibc declares only under _GNU_SOURCE.
#ifndef STOCKROOM_SYSTEM_H
#define STOCKROOM_SYSTEM_H

// Only headers that Glibc's Swift module does not cover. glibc's headers are not modular, so a
// declaration belongs to whichever Clang module includes its header first: had this file included
// <sys/socket.h>, MSG_DONTWAIT and SHUT_WR would have become CStockroomSystem's in the release
// build, and a file that imported only Glibc could no longer see them (the debug build happened
// to compile). So the wrappers below take plain C types.
#include <sys/epoll.h>
#include <sys/eventfd.h>

// The event masks as plain numbers: Swift imports glibc's EPOLL_EVENTS enum inconsistently.
static const unsigned int sr_epoll_in = EPOLLIN;
static const unsigned int sr_epoll_out = EPOLLOUT;
static const unsigned int sr_epoll_hup = EPOLLHUP;
static const unsigned int sr_epoll_err = EPOLLERR;

// Names the calling thread for top -H, perf and gdb (the first 15 bytes; glibc hides
// pthread_setname_np from Swift behind _GNU_SOURCE).
void sr_set_thread_name(const char *name);

// pipe2(fds, O_CLOEXEC), hidden the same way: a pipe whose ends a child another thread starts
// meanwhile cannot inherit (one that did would keep its reader from ever seeing the end).
int sr_pipe_cloexec(int fds[2]);

// accept4, hidden the same way: the accepted socket gets `flags` (SOCK_CLOEXEC, SOCK_NONBLOCK)
// in the same call, so no child started meanwhile inherits it, and no fcntl calls follow.
int sr_accept4(int fd, void *address, unsigned int *length, int flags);

// posix_spawn_file_actions_addclosefrom_np(actions, from), hidden the same way: the child
// closes every descriptor from `from` up, whatever this process opened without close-on-exec.
// `actions` is a posix_spawn_file_actions_t *, passed untyped so this header need not include
// <spawn.h> (see above).
int sr_spawn_close_from(void *actions, int from);

// malloc_trim(0), from <malloc.h>, which Glibc's module leaves out: gives the allocator's free
// pages back to the kernel. Returns 1 when it gave any back.
int sr_malloc_trim(void);

// Whether the calling thread ends each round of its work with a call that lets queued changes be
// committed (an event loop before it sleeps): a flag of the thread's own, so asking costs no lock.
void sr_set_ends_rounds(int ends);
int sr_ends_rounds(void);

#endif
