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

// libxml2 reports some errors through its global handlers instead of the parser's SAX
// handler: encoding errors, for one, are raised before or outside the parser context, and
// went to stderr as several lines of their own. While a seed plist is parsed, bowties takes
// them all through `handler` (with `context`), and drops the few messages libxml2 writes only
// to its generic channel, a variadic callback that Swift cannot define.
static inline void bowties_ignore_generic_error(void *context, const char *message, ...) {}
static inline void bowties_route_libxml2_errors(void *context, xmlStructuredErrorFunc handler) {
  xmlSetStructuredErrorFunc(context, handler);
  xmlSetGenericErrorFunc(NULL, bowties_ignore_generic_error);
}
// libxml2's defaults again: errors on stderr.
static inline void bowties_restore_libxml2_errors(void) {
  xmlSetStructuredErrorFunc(NULL, NULL);
  xmlSetGenericErrorFunc(NULL, NULL);
}

// Frees a parser context and the document libxml2 builds behind a SAX parser's back when
// the internal subset declares an entity ("for expat compatibility in SAX mode"), which
// xmlFreeParserCtxt leaves to the caller, leaking it at every parse.
static inline void bowties_free_parser(xmlParserCtxtPtr context) {
  if (context->myDoc != NULL) {
    xmlFreeDoc(context->myDoc);
    context->myDoc = NULL;
  }
  xmlFreeParserCtxt(context);
}
