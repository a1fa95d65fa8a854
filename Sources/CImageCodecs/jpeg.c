// libjpeg-turbo, with libexif for the orientation tag. See CImageCodecs.h.
#include "CImageCodecs.h"

// jpeglib.h needs FILE declared before it.
#include <stdio.h>

#include <jerror.h>
#include <jpeglib.h>
#include <libexif/exif-data.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/// libjpeg's error manager, with a way back from its errors and their message kept.
typedef struct {
  struct jpeg_error_mgr manager;
  jmp_buf escape;
  char *message;
  /// The first warning that means missing or corrupt data, or 0.
  int warning;
} error_manager;

static void on_error(j_common_ptr info) {
  error_manager *errors = (error_manager *)info->err;
  char text[JMSG_LENGTH_MAX];
  errors->manager.format_message(info, text);
  snprintf(errors->message, BOWTIES_MESSAGE_SIZE, "%s", text);
  longjmp(errors->escape, 1);
}

// Warnings (level -1) are recorded instead of printed on stderr; trace messages dropped.
static void on_message(j_common_ptr info, int level) {
  error_manager *errors = (error_manager *)info->err;
  if (level >= 0 || errors->warning != 0) return;
  // Bytes between markers that belong to nothing: the image data itself is whole.
  if (errors->manager.msg_code == JWRN_EXTRANEOUS_DATA) return;
  errors->warning = errors->manager.msg_code;
  char text[JMSG_LENGTH_MAX];
  errors->manager.format_message(info, text);
  snprintf(errors->message, BOWTIES_MESSAGE_SIZE, "%s", text);
}

static void prepare(struct jpeg_decompress_struct *info, error_manager *errors, char *message) {
  memset(errors, 0, sizeof *errors);
  info->err = jpeg_std_error(&errors->manager);
  errors->manager.error_exit = on_error;
  errors->manager.emit_message = on_message;
  errors->message = message;
  message[0] = 0;
}

/// Progressive JPEGs keep every coefficient in memory; this bounds what a file can ask for.
static const long maximum_memory = 1024L * 1024 * 1024;

/// The EXIF orientation from the APP1 markers libjpeg kept, or 1.
static int exif_orientation(struct jpeg_decompress_struct *info) {
  for (jpeg_saved_marker_ptr marker = info->marker_list; marker; marker = marker->next) {
    if (marker->marker != JPEG_APP0 + 1 || marker->data_length < 6 ||
        memcmp(marker->data, "Exif\0\0", 6) != 0)
      continue;
    ExifData *exif = exif_data_new_from_data(marker->data, marker->data_length);
    if (!exif) return 1;
    int orientation = 1;
    ExifEntry *entry = exif_content_get_entry(exif->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION);
    if (entry && entry->format == EXIF_FORMAT_SHORT && entry->components >= 1 && entry->data &&
        entry->size >= 2) {
      int value = exif_get_short(entry->data, exif_data_get_byte_order(exif));
      if (value >= 1 && value <= 8) orientation = value;
    }
    exif_data_unref(exif);
    return orientation;
  }
  return 1;
}

int bowties_jpeg_read_header(const uint8_t *data, size_t size, bowties_jpeg_header *header,
                             char message[BOWTIES_MESSAGE_SIZE]) {
  struct jpeg_decompress_struct info;
  error_manager errors;
  prepare(&info, &errors, message);
  jpeg_create_decompress(&info);
  if (setjmp(errors.escape)) {
    jpeg_destroy_decompress(&info);
    return -1;
  }
  info.mem->max_memory_to_use = maximum_memory;
  jpeg_mem_src(&info, data, (unsigned long)size);
  jpeg_save_markers(&info, JPEG_APP0 + 1, 0xFFFF);
  jpeg_read_header(&info, TRUE);
  header->width = info.image_width;
  header->height = info.image_height;
  header->orientation = exif_orientation(&info);
  jpeg_destroy_decompress(&info);
  return 0;
}

/// Adobe's CMYK (and YCCK, which libjpeg turns into it) as RGB. Photoshop writes the
/// channels inverted, 255 meaning no ink, and says so in its APP14 marker.
static void cmyk_to_rgba(const uint8_t *cmyk, uint8_t *rgba, uint32_t width, int inverted) {
  for (uint32_t x = 0; x < width; x++) {
    unsigned c = cmyk[0], m = cmyk[1], y = cmyk[2], k = cmyk[3];
    if (!inverted) {
      c = 255 - c;
      m = 255 - m;
      y = 255 - y;
      k = 255 - k;
    }
    rgba[0] = (uint8_t)((c * k + 127) / 255);
    rgba[1] = (uint8_t)((m * k + 127) / 255);
    rgba[2] = (uint8_t)((y * k + 127) / 255);
    rgba[3] = 255;
    cmyk += 4;
    rgba += 4;
  }
}

int bowties_jpeg_decode(const uint8_t *data, size_t size, int scale_eighths, uint64_t max_pixels,
                        uint8_t **pixels, uint32_t *width, uint32_t *height,
                        char message[BOWTIES_MESSAGE_SIZE]) {
  struct jpeg_decompress_struct info;
  error_manager errors;
  // Volatile: set between setjmp and a longjmp that may come back to it.
  uint8_t *volatile image = NULL;
  uint8_t *volatile row = NULL;
  prepare(&info, &errors, message);
  jpeg_create_decompress(&info);
  if (setjmp(errors.escape)) {
    jpeg_destroy_decompress(&info);
    free(image);
    free(row);
    return -1;
  }
  info.mem->max_memory_to_use = maximum_memory;
  jpeg_mem_src(&info, data, (unsigned long)size);
  jpeg_read_header(&info, TRUE);
  if ((uint64_t)info.image_width * info.image_height > max_pixels) {
    snprintf(message, BOWTIES_MESSAGE_SIZE, "the image is %u×%u pixels, more than %llu megapixels",
             info.image_width, info.image_height, (unsigned long long)(max_pixels / 1000000));
    jpeg_destroy_decompress(&info);
    return -1;
  }
  int cmyk = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
  info.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
  info.scale_num = (unsigned)(scale_eighths < 1 ? 1 : scale_eighths > 8 ? 8 : scale_eighths);
  info.scale_denom = 8;
  jpeg_start_decompress(&info);
  uint32_t w = info.output_width, h = info.output_height;
  size_t stride = (size_t)w * 4;
  row = malloc(stride);
  if (pixels) image = malloc(stride * h);
  if (!row || (pixels && !image)) ERREXIT(&info, JERR_OUT_OF_MEMORY);
  while (info.output_scanline < h && errors.warning == 0) {
    uint8_t *line = image && !cmyk ? image + stride * info.output_scanline : row;
    JSAMPROW rows[1] = {line};
    JDIMENSION y = info.output_scanline;
    if (jpeg_read_scanlines(&info, rows, 1) != 1) break;
    if (image && cmyk) cmyk_to_rgba(row, image + stride * y, w, info.saw_Adobe_marker);
  }
  if (errors.warning == 0) jpeg_finish_decompress(&info);
  int failed = errors.warning != 0;
  jpeg_destroy_decompress(&info);
  free(row);
  if (failed) {
    free(image);
    return -1;
  }
  if (pixels) *pixels = image;
  *width = w;
  *height = h;
  return 0;
}
