// libpng's simplified API: how TerminalImage decodes tie photos and re-encodes the
// scaled copy it sends to kitty and iTerm2.
//
// The simplified API catches libpng's errors itself (its setjmp never crosses into Swift)
// and reports them in png_image.message, which is why bowties uses it rather than the
// low-level png_read_* calls. A few of its macros are expressions Swift cannot import,
// so their values are spelled out here once.
#include <png.h>

static const unsigned int bowties_png_image_version = PNG_IMAGE_VERSION;
static const unsigned int bowties_png_format_rgba = PNG_FORMAT_RGBA;
