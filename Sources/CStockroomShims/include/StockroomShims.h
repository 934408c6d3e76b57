// Non-variadic wrappers for libedit's el_set, el_get and history, which Swift cannot call.
#ifndef STOCKROOM_SHIMS_H
#define STOCKROOM_SHIMS_H

#include <histedit.h>
#include <wchar.h>

typedef char *(*sr_prompt_fn)(EditLine *);
typedef unsigned char (*sr_command_fn)(EditLine *, int);
typedef int (*sr_getc_fn)(EditLine *, wchar_t *);

// el_init on the process's own stdin, stdout and stderr.
EditLine *sr_el_init(const char *program);
int sr_el_set_prompt(EditLine *el, sr_prompt_fn fn, char escape);
int sr_el_set_rprompt(EditLine *el, sr_prompt_fn fn, char escape);
int sr_el_set_editor(EditLine *el, const char *mode);
int sr_el_set_signal(EditLine *el, int on);
int sr_el_set_clientdata(EditLine *el, void *data);
void *sr_el_get_clientdata(EditLine *el);
int sr_el_set_getcfn(EditLine *el, sr_getc_fn fn);
int sr_el_add_function(EditLine *el, const char *name, const char *help, sr_command_fn fn);
int sr_el_bind(EditLine *el, const char *key, const char *function);
int sr_el_set_history(EditLine *el, History *h);
// Forgets what libedit believes is on screen and draws the prompt and line again.
int sr_el_refresh(EditLine *el);
// Applies one stty-style flag (e.g. "-isig") to the editing mode.
int sr_el_setty(EditLine *el, const char *flag);
// The number of columns libedit believes the terminal has.
int sr_el_columns(EditLine *el);
// The width of the terminal on fd, or 0 when fd is not a terminal (ioctl is variadic too).
int sr_terminal_columns(int fd);
// The height of the terminal on fd, or 0 when fd is not a terminal.
int sr_terminal_rows(int fd);

History *sr_history_open(int size);
int sr_history_enter(History *h, const char *line);
int sr_history_load(History *h, const char *path);
int sr_history_save(History *h, const char *path);
// Entries oldest first: call with first = 1, then 0 until it returns NULL.
const char *sr_history_walk(History *h, int first);

// Flushes stdout's buffer, so direct writes and libedit's output stay in order.
void sr_flush_stdout(void);

#endif
