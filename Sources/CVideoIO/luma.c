// Finding the luma of a decoded picture in any pixel format. Why this is C: see
// include/CVideoIO.h.
#include "CVideoIO.h"

#include <string.h>

#include <libavutil/pixdesc.h>

static const AVComponentDescriptor *cvio_planar_luma(const AVPixFmtDescriptor *descriptor) {
    if (descriptor == NULL || descriptor->nb_components < 1) {
        return NULL;
    }
    const uint64_t notLuma = AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_HWACCEL
                             | AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_FLOAT;
    if (descriptor->flags & notLuma) {
        return NULL;
    }
    // Component 0 is luma (or grey). Packed formats such as yuyv422 interleave it with chroma
    // (a step of more than one sample), so only a plane of its own qualifies.
    const AVComponentDescriptor *luma = &descriptor->comp[0];
    return luma->plane == 0 && luma->offset == 0 ? luma : NULL;
}

cvio_luma_access cvio_pixel_format_luma_access(enum AVPixelFormat format) {
    const AVComponentDescriptor *luma = cvio_planar_luma(av_pix_fmt_desc_get(format));
    if (luma == NULL) {
        return CVIO_LUMA_NEEDS_CONVERSION;
    }
    if (luma->depth == 8 && luma->step == 1 && luma->shift == 0) {
        return CVIO_LUMA_8BIT_PLANE;
    }
    if (luma->depth > 8 && luma->depth + luma->shift <= 16 && luma->step == 2) {
        return CVIO_LUMA_WIDE_PLANE;
    }
    return CVIO_LUMA_NEEDS_CONVERSION;
}

bool cvio_pixel_format_is_rgb_or_palette(enum AVPixelFormat format) {
    const AVPixFmtDescriptor *descriptor = av_pix_fmt_desc_get(format);
    return descriptor != NULL && (descriptor->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL)) != 0;
}

// The usual case, little-endian samples in the low bits (yuv420p10le, gray12le, …), in a loop
// simple enough for the compiler to vectorise.
static void cvio_narrow_little_endian(const uint8_t *source, ptrdiff_t sourceStride, int width, int height, int drop,
                                      uint8_t *destination, ptrdiff_t destinationStride) {
    const unsigned half = 1u << (drop - 1);
    for (int row = 0; row < height; row++) {
        const uint8_t *in = source + row * sourceStride;
        uint8_t *out = destination + row * destinationStride;
        for (int column = 0; column < width; column++) {
            uint16_t word;
            memcpy(&word, in + 2 * column, 2);
            unsigned level = ((unsigned)word + half) >> drop;
            out[column] = level > 255 ? 255 : (uint8_t)level;
        }
    }
}

void cvio_narrow_luma_plane(const uint8_t *source, ptrdiff_t source_bytes_per_row, int width, int height,
                            enum AVPixelFormat format, uint8_t *destination, ptrdiff_t destination_bytes_per_row) {
    const AVPixFmtDescriptor *descriptor = av_pix_fmt_desc_get(format);
    const AVComponentDescriptor *luma = &descriptor->comp[0];
    const int bigEndian = (descriptor->flags & AV_PIX_FMT_FLAG_BE) != 0;
    const int shift = luma->shift;  // p010 keeps its 10 bits at the top of each word
    const int drop = luma->depth - 8;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (!bigEndian && shift == 0) {
        cvio_narrow_little_endian(source, source_bytes_per_row, width, height, drop, destination,
                                  destination_bytes_per_row);
        return;
    }
#endif
    const unsigned half = 1u << (drop - 1);
    const unsigned mask = (1u << luma->depth) - 1;
    for (int row = 0; row < height; row++) {
        const uint8_t *in = source + row * source_bytes_per_row;
        uint8_t *out = destination + row * destination_bytes_per_row;
        for (int column = 0; column < width; column++) {
            unsigned word = bigEndian ? (unsigned)in[2 * column] << 8 | in[2 * column + 1]
                                      : (unsigned)in[2 * column + 1] << 8 | in[2 * column];
            unsigned level = (((word >> shift) & mask) + half) >> drop;
            out[column] = level > 255 ? 255 : (uint8_t)level;
        }
    }
}
