#include "CTerminfo.h"

#include <curses.h>
#include <term.h>
#include <unistd.h>

int bowties_terminfo_load(const char *term) {
  // With a status to fill in, setupterm prints nothing: ERR with 1 is a hard-copy terminal,
  // with 0 one the database lacks or a generic one, with -1 no database at all.
  int status = 0;
  return setupterm(term, STDOUT_FILENO, &status) == OK ? 1 : 0;
}

const char *bowties_terminfo_string(const char *name) {
  char *value = tigetstr(name);
  if (value == NULL || value == (char *)-1) {
    return NULL;
  }
  return value;
}

int bowties_terminfo_number(const char *name) {
  int value = tigetnum(name);
  return value < 0 ? -1 : value;
}

void bowties_terminfo_unload(void) {
  if (cur_term != NULL) {
    del_curterm(cur_term);
    cur_term = NULL;
  }
}

const char *bowties_terminfo_expand(const char *capability, int first, int second) {
  return tiparm(capability, first, second);
}
