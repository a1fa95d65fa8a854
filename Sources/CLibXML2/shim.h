// libxml2's SAX2 parser: how bowties reads large XML seed plists.
//
// Debian builds libxml2 with ICU, so its encoding.h includes the system's ICU headers,
// which clash with the ICU module Foundation brings. bowties uses only the parser context
// as an opaque pointer, the SAX handler and xmlError from Swift, never the ICU-dependent
// encoding structures, so the ICU part of the headers is hidden from Swift.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
