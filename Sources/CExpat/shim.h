// Expat's parser: how bowties reads XML seed plists, one entry at a time. Expat, not
// libxml2: Debian builds libxml2 with ICU, and its static link carried a second copy of
// ICU's data into the binary (docs/performance.md, "What the binary holds").
#include <expat.h>
