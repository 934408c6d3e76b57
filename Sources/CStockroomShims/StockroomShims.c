#include <sys/ioctl.h>
#include "StockroomShims.h"

#include <stdio.h>

EditLine *sr_el_init(const char *program) { return el_init(program, stdin, stdout, stderr); }

int sr_el_set_prompt(EditLine *el, sr_prompt_fn fn, char escape) {
  return el_set(el, EL_PROMPT_ESC, fn, escape);
}

int sr_el_set_rprompt(EditLine *el, sr_prompt_fn fn, char escape) {
  return el_set(el, EL_RPROMPT_ESC, fn, escape);
}

int sr_el_set_editor(EditLine *el, const char *mode) { return el_set(el, EL_EDITOR, mode); }

int sr_el_set_signal(EditLine *el, int on) { return el_set(el, EL_SIGNAL, on); }

int sr_el_set_clientdata(EditLine *el, void *data) { return el_set(el, EL_CLIENTDATA, data); }

void *sr_el_get_clientdata(EditLine *el) {
  void *data = NULL;
  if (el_get(el, EL_CLIENTDATA, &data) != 0) return NULL;
  return data;
}

int sr_el_set_getcfn(EditLine *el, sr_getc_fn fn) { return el_set(el, EL_GETCFN, fn); }

int sr_el_add_function(EditLine *el, const char *name, const char *help, sr_command_fn fn) {
  return el_set(el, EL_ADDFN, name, help, fn);
}

int sr_el_bind(EditLine *el, const char *key, const char *function) {
  return el_set(el, EL_BIND, key, function, NULL);
}

int sr_el_set_history(EditLine *el, History *h) { return el_set(el, EL_HIST, history, h); }

int sr_el_refresh(EditLine *el) { return el_set(el, EL_REFRESH); }

int sr_el_setty(EditLine *el, const char *flag) { return el_set(el, EL_SETTY, "-d", flag, NULL); }

int sr_el_columns(EditLine *el) {
  int columns = 0;
  if (el_get(el, EL_GETTC, "co", &columns) != 0) return 80;
  return columns;
}

int sr_terminal_columns(int fd) {
  struct winsize size;
  if (ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
  return size.ws_col;
}

int sr_terminal_rows(int fd) {
  struct winsize size;
  if (ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
  return size.ws_row;
}

History *sr_history_open(int size) {
  History *h = history_init();
  if (h == NULL) return NULL;
  HistEvent event;
  history(h, &event, H_SETSIZE, size);
  history(h, &event, H_SETUNIQUE, 1);
  return h;
}

int sr_history_enter(History *h, const char *line) {
  HistEvent event;
  return history(h, &event, H_ENTER, line);
}

int sr_history_load(History *h, const char *path) {
  HistEvent event;
  return history(h, &event, H_LOAD, path);
}

int sr_history_save(History *h, const char *path) {
  HistEvent event;
  return history(h, &event, H_SAVE, path);
}

const char *sr_history_walk(History *h, int first) {
  HistEvent event;
  if (history(h, &event, first ? H_LAST : H_PREV) != 0) return NULL;
  return event.str;
}

void sr_flush_stdout(void) { fflush(stdout); }
