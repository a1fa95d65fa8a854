// The fonts MuPDF may use for a PDF that names a font without embedding it: the 14
// standard PDF fonts (URW's Nimbus clones, inside Debian's libmupdf.a), and nothing else.
//
// MuPDF looks fonts up through the functions below. Debian's libmupdf.a defines them all
// in one object, whose font table refers to every font MuPDF bundles: linked, it would
// bring 40 MB of Noto and CJK fonts into bowties (docs/performance.md, "PDF: MuPDF or poppler").
// MuPDF's own build leaves those out when built with TOFU and TOFU_CJK; Debian's is not.
// Defined here, these functions keep that object out of the link: the standard fonts stay,
// every other lookup finds nothing, and text in such a font is not drawn (a tie's photo
// has no business with a non-embedded Devanagari font).
#include <mupdf/fitz.h>
#include <string.h>

#define URW_FONT(NAME)                                                          \
  extern const unsigned char _binary_resources_fonts_urw_##NAME##_cff_start[]; \
  extern const unsigned char _binary_resources_fonts_urw_##NAME##_cff_end[];
URW_FONT(NimbusMonoPS_Regular)
URW_FONT(NimbusMonoPS_Italic)
URW_FONT(NimbusMonoPS_Bold)
URW_FONT(NimbusMonoPS_BoldItalic)
URW_FONT(NimbusSans_Regular)
URW_FONT(NimbusSans_Italic)
URW_FONT(NimbusSans_Bold)
URW_FONT(NimbusSans_BoldItalic)
URW_FONT(NimbusRoman_Regular)
URW_FONT(NimbusRoman_Italic)
URW_FONT(NimbusRoman_Bold)
URW_FONT(NimbusRoman_BoldItalic)
URW_FONT(StandardSymbolsPS)
URW_FONT(Dingbats)

#define FOUND(NAME)                                                              \
  do {                                                                           \
    *size = (int)(_binary_resources_fonts_urw_##NAME##_cff_end -                 \
                  _binary_resources_fonts_urw_##NAME##_cff_start);               \
    return _binary_resources_fonts_urw_##NAME##_cff_start;                       \
  } while (0)

const unsigned char *fz_lookup_base14_font(fz_context *ctx, const char *name, int *size) {
  (void)ctx;
  if (!strcmp(name, "Courier")) FOUND(NimbusMonoPS_Regular);
  if (!strcmp(name, "Courier-Oblique")) FOUND(NimbusMonoPS_Italic);
  if (!strcmp(name, "Courier-Bold")) FOUND(NimbusMonoPS_Bold);
  if (!strcmp(name, "Courier-BoldOblique")) FOUND(NimbusMonoPS_BoldItalic);
  if (!strcmp(name, "Helvetica")) FOUND(NimbusSans_Regular);
  if (!strcmp(name, "Helvetica-Oblique")) FOUND(NimbusSans_Italic);
  if (!strcmp(name, "Helvetica-Bold")) FOUND(NimbusSans_Bold);
  if (!strcmp(name, "Helvetica-BoldOblique")) FOUND(NimbusSans_BoldItalic);
  if (!strcmp(name, "Times-Roman")) FOUND(NimbusRoman_Regular);
  if (!strcmp(name, "Times-Italic")) FOUND(NimbusRoman_Italic);
  if (!strcmp(name, "Times-Bold")) FOUND(NimbusRoman_Bold);
  if (!strcmp(name, "Times-BoldItalic")) FOUND(NimbusRoman_BoldItalic);
  if (!strcmp(name, "Symbol")) FOUND(StandardSymbolsPS);
  if (!strcmp(name, "ZapfDingbats")) FOUND(Dingbats);
  *size = 0;
  return NULL;
}

static const unsigned char *none(int *size, int *subfont) {
  *size = 0;
  if (subfont) *subfont = 0;
  return NULL;
}

const unsigned char *fz_lookup_builtin_font(fz_context *ctx, const char *name, int is_bold,
                                            int is_italic, int *size) {
  (void)ctx, (void)name, (void)is_bold, (void)is_italic;
  return none(size, NULL);
}

const unsigned char *fz_lookup_cjk_font(fz_context *ctx, int ordering, int *size, int *subfont) {
  (void)ctx, (void)ordering;
  return none(size, subfont);
}

const unsigned char *fz_lookup_cjk_font_by_language(fz_context *ctx, const char *language,
                                                    int *size, int *subfont) {
  (void)ctx, (void)language;
  return none(size, subfont);
}

int fz_lookup_cjk_ordering_by_language(const char *language) {
  (void)language;
  return -1;
}

const unsigned char *fz_lookup_noto_font(fz_context *ctx, int script, int language, int *size,
                                         int *subfont) {
  (void)ctx, (void)script, (void)language;
  return none(size, subfont);
}

const unsigned char *fz_lookup_noto_math_font(fz_context *ctx, int *size) {
  (void)ctx;
  return none(size, NULL);
}

const unsigned char *fz_lookup_noto_music_font(fz_context *ctx, int *size) {
  (void)ctx;
  return none(size, NULL);
}

const unsigned char *fz_lookup_noto_symbol1_font(fz_context *ctx, int *size) {
  (void)ctx;
  return none(size, NULL);
}

const unsigned char *fz_lookup_noto_symbol2_font(fz_context *ctx, int *size) {
  (void)ctx;
  return none(size, NULL);
}

const unsigned char *fz_lookup_noto_emoji_font(fz_context *ctx, int *size) {
  (void)ctx;
  return none(size, NULL);
}
