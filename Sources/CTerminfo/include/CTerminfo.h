// The C side of TerminalUI: ncurses' terminfo library (libtinfo), its low-level layer
// only. Swift cannot call tiparm, which is variadic, and tigetstr's "absent" and "not a
// string capability" answers are pointers cast from -1 and 0; these wrappers give plain
// values instead.
#ifndef BOWTIES_CTERMINFO_H
#define BOWTIES_CTERMINFO_H

/// Loads the terminfo entry of `term` from the terminfo database. Returns 1 when it was
/// found, 0 otherwise: no database, no such entry, or a generic or hard-copy terminal.
int bowties_terminfo_load(const char *term);

/// The string capability `name` of the loaded entry, or NULL when it has none.
const char *bowties_terminfo_string(const char *name);

/// The numeric capability `name` of the loaded entry, or -1 when it has none.
int bowties_terminfo_number(const char *name);

/// Forgets the loaded entry.
void bowties_terminfo_unload(void);

/// `capability` with its parameters %p1 and %p2 set to `first` and `second`, as tiparm
/// expands it, in a buffer of ncurses' own that the next call reuses; NULL when the
/// capability cannot be expanded.
const char *bowties_terminfo_expand(const char *capability, int first, int second);

#endif
