// The C side of ImageCodecs: libjpeg-turbo with libexif, and MuPDF.
//
// libjpeg reports errors through error_exit and MuPDF through fz_try, both by longjmp,
// which must never cross a Swift frame. Every call that can fail is wrapped here and
// returns a status, with the library's own message, instead.
#ifndef BOWTIES_CIMAGECODECS_H
#define BOWTIES_CIMAGECODECS_H

#include <stddef.h>
#include <stdint.h>

/// The longest message a call returns, with its NUL.
#define BOWTIES_MESSAGE_SIZE 200

/// What `bowties_jpeg_read_header` found: the stored size (before any EXIF rotation) and
/// the EXIF orientation, 1 (none, or no EXIF) to 8.
typedef struct {
  uint32_t width;
  uint32_t height;
  int orientation;
} bowties_jpeg_header;

/// Reads a JPEG's header and its EXIF orientation (through libexif), without decoding the
/// image. Returns 0, or -1 with libjpeg's message in `message`.
int bowties_jpeg_read_header(const uint8_t *data, size_t size, bowties_jpeg_header *header,
                             char message[BOWTIES_MESSAGE_SIZE]);

/// Decodes a JPEG scaled by `scale_eighths`/8 (1 to 8: libjpeg's DCT scaling, which does
/// less work the smaller it is) into RGBA, in a buffer it allocates with malloc (the
/// caller frees `*pixels`). With `pixels` NULL it decodes every scanline into one row
/// and keeps nothing: a full check of the compressed data without holding the image.
/// An image of more than `max_pixels` (at full size) is refused before decoding.
/// Every libjpeg warning except extraneous bytes between markers (data missing or
/// corrupt, which libjpeg would paper over with grey) fails the call.
/// Returns 0, or -1 with the message.
int bowties_jpeg_decode(const uint8_t *data, size_t size, int scale_eighths, uint64_t max_pixels,
                        uint8_t **pixels, uint32_t *width, uint32_t *height,
                        char message[BOWTIES_MESSAGE_SIZE]);

/// Renders the first page of a PDF at `scale` (1 is a pixel a point, 72 an inch) on a
/// transparent background, into straight (not premultiplied) RGBA in a buffer it
/// allocates with malloc (the caller frees `*pixels`). `points_wide` and `points_high`
/// get the page's size. A page of more than `max_pixels` at that scale is refused before
/// rendering. Returns 0, or -1 with MuPDF's message.
int bowties_pdf_render(const uint8_t *data, size_t size, float scale, uint64_t max_pixels,
                       uint8_t **pixels, uint32_t *width, uint32_t *height, float *points_wide,
                       float *points_high, char message[BOWTIES_MESSAGE_SIZE]);

#endif
