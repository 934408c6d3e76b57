#define _GNU_SOURCE
#include "StockroomSystem.h"

#include <fcntl.h>
#include <malloc.h>
#include <sys/socket.h>
#include <pthread.h>
#include <spawn.h>
#include <unistd.h>
#include <string.h>

void sr_set_thread_name(const char *name) {
  char shortened[16];
  strncpy(shortened, name, sizeof(shortened) - 1);
  shortened[sizeof(shortened) - 1] = 0;
  pthread_setname_np(pthread_self(), shortened);
}

int sr_pipe_cloexec(int fds[2]) {
  return pipe2(fds, O_CLOEXEC);
}

int sr_accept4(int fd, void *address, unsigned int *length, int flags) {
  return accept4(fd, (struct sockaddr *)address, (socklen_t *)length, flags);
}

int sr_spawn_close_from(void *actions, int from) {
  return posix_spawn_file_actions_addclosefrom_np((posix_spawn_file_actions_t *)actions, from);
}

int sr_malloc_trim(void) {
  return malloc_trim(0);
}

static _Thread_local int sr_thread_ends_rounds;

void sr_set_ends_rounds(int ends) {
  sr_thread_ends_rounds = ends;
}

int sr_ends_rounds(void) {
  return sr_thread_ends_rounds;
}
