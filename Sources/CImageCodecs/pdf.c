// MuPDF: the first page of a PDF, rasterized. See CImageCodecs.h.
#include "CImageCodecs.h"

#include <mupdf/fitz.h>
#include <mupdf/pdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The most memory one rendering may hold: a PDF can declare huge images or deep
/// structures, and MuPDF then fails with "malloc failed" instead of the process growing.
static const size_t memory_limit = 512u * 1024 * 1024;

typedef struct {
  size_t used;
} allocation_budget;

// Each block carries its size in front of it, so that free and realloc can account for it.
typedef union {
  size_t size;
  max_align_t alignment;
} block_header;

static void *budget_malloc(void *user, size_t size) {
  allocation_budget *budget = user;
  if (size > memory_limit - budget->used) return NULL;
  block_header *block = malloc(sizeof(block_header) + size);
  if (!block) return NULL;
  block->size = size;
  budget->used += size;
  return block + 1;
}

static void budget_free(void *user, void *pointer) {
  if (!pointer) return;
  allocation_budget *budget = user;
  block_header *block = (block_header *)pointer - 1;
  budget->used -= block->size;
  free(block);
}

static void *budget_realloc(void *user, void *pointer, size_t size) {
  if (!pointer) return budget_malloc(user, size);
  if (size == 0) {
    budget_free(user, pointer);
    return NULL;
  }
  allocation_budget *budget = user;
  block_header *block = (block_header *)pointer - 1;
  size_t old = block->size;
  if (size > old && size - old > memory_limit - budget->used) return NULL;
  block_header *grown = realloc(block, sizeof(block_header) + size);
  if (!grown) return NULL;
  grown->size = size;
  budget->used = budget->used - old + size;
  return grown + 1;
}

// MuPDF prints its warnings and errors on stderr by default; bowties reports them itself.
static void quiet(void *user, const char *text) {
  (void)user;
  (void)text;
}

int bowties_pdf_render(const uint8_t *data, size_t size, float scale, uint64_t max_pixels,
                       uint8_t **pixels, uint32_t *width, uint32_t *height, float *points_wide,
                       float *points_high, char message[BOWTIES_MESSAGE_SIZE]) {
  message[0] = 0;
  allocation_budget budget = {0};
  fz_alloc_context allocator = {&budget, budget_malloc, budget_realloc, budget_free};
  fz_context *context = fz_new_context(&allocator, NULL, FZ_STORE_DEFAULT);
  if (!context) {
    snprintf(message, BOWTIES_MESSAGE_SIZE, "cannot start MuPDF");
    return -1;
  }
  fz_set_warning_callback(context, quiet, NULL);
  fz_set_error_callback(context, quiet, NULL);
  fz_stream *stream = NULL;
  pdf_document *document = NULL;
  fz_page *page = NULL;
  fz_pixmap *pixmap = NULL;
  uint8_t *image = NULL;
  int status = 0;
  fz_var(stream);
  fz_var(document);
  fz_var(page);
  fz_var(pixmap);
  fz_var(image);
  fz_try(context) {
    stream = fz_open_memory(context, data, size);
    // The PDF handler alone, not fz_register_document_handlers: only the PDF code (and
    // none of the EPUB, XPS or HTML readers) is linked and reachable.
    document = pdf_open_document_with_stream(context, stream);
    if (pdf_needs_password(context, document))
      fz_throw(context, FZ_ERROR_GENERIC, "the document is encrypted");
    if (pdf_count_pages(context, document) < 1)
      fz_throw(context, FZ_ERROR_GENERIC, "the document has no pages");
    page = fz_load_page(context, (fz_document *)document, 0);
    fz_rect bounds = fz_bound_page(context, page);
    *points_wide = bounds.x1 - bounds.x0;
    *points_high = bounds.y1 - bounds.y0;
    fz_matrix transform = fz_scale(scale, scale);
    fz_irect box = fz_round_rect(fz_transform_rect(bounds, transform));
    int64_t w = (int64_t)box.x1 - box.x0, h = (int64_t)box.y1 - box.y0;
    if (w <= 0 || h <= 0) fz_throw(context, FZ_ERROR_GENERIC, "the page is empty");
    if ((uint64_t)w * (uint64_t)h > max_pixels) {
      // MuPDF's own formatting knows no long long: the text is made here.
      char text[BOWTIES_MESSAGE_SIZE];
      snprintf(text, sizeof text,
               "the page is %g×%g points, %lld×%lld pixels at %g×: more than %llu megapixels",
               *points_wide, *points_high, (long long)w, (long long)h, scale,
               (unsigned long long)(max_pixels / 1000000));
      fz_throw(context, FZ_ERROR_GENERIC, "%s", text);
    }
    pixmap = fz_new_pixmap_from_page(context, page, transform, fz_device_rgb(context), 1);
    uint32_t pw = (uint32_t)fz_pixmap_width(context, pixmap);
    uint32_t ph = (uint32_t)fz_pixmap_height(context, pixmap);
    if (fz_pixmap_components(context, pixmap) != 4)
      fz_throw(context, FZ_ERROR_GENERIC, "unexpected pixmap layout");
    image = malloc((size_t)pw * ph * 4);
    if (!image) fz_throw(context, FZ_ERROR_MEMORY, "out of memory");
    ptrdiff_t stride = fz_pixmap_stride(context, pixmap);
    const uint8_t *samples = fz_pixmap_samples(context, pixmap);
    for (uint32_t y = 0; y < ph; y++) {
      const uint8_t *in = samples + stride * y;
      uint8_t *out = image + (size_t)pw * 4 * y;
      for (uint32_t x = 0; x < pw; x++, in += 4, out += 4) {
        // MuPDF's pixmaps are premultiplied; PNG's are not.
        unsigned alpha = in[3];
        if (alpha == 0) {
          memset(out, 0, 4);
        } else {
          for (int c = 0; c < 3; c++) {
            unsigned value = (in[c] * 255u + alpha / 2) / alpha;
            out[c] = (uint8_t)(value > 255 ? 255 : value);
          }
          out[3] = (uint8_t)alpha;
        }
      }
    }
    *width = pw;
    *height = ph;
    *pixels = image;
    image = NULL;
  }
  fz_always(context) {
    fz_drop_pixmap(context, pixmap);
    fz_drop_page(context, page);
    pdf_drop_document(context, document);
    fz_drop_stream(context, stream);
  }
  fz_catch(context) {
    snprintf(message, BOWTIES_MESSAGE_SIZE, "%s", fz_caught_message(context));
    free(image);
    status = -1;
  }
  fz_drop_context(context);
  return status;
}
