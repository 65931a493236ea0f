// The few pieces of FFmpeg that Swift cannot use directly, behind a small C interface.
// Swift imports FFmpeg's functions and structs through the CFFmpeg module; what it cannot
// import are function-like macros (AVERROR, AVERROR_EOF, AV_NOPTS_VALUE), variadic logging
// callbacks, and APIs whose shape changes between FFmpeg versions. Each shim below says which.
// See the TrajectoryVideo module for the Swift side that owns every FFmpeg object.
#ifndef CVIDEOIO_H
#define CVIDEOIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libavformat/avformat.h>
#include <libavutil/pixfmt.h>

// MARK: - Error codes

/// AVERROR(EAGAIN): the decoder or encoder wants more input. A function-like macro in C.
int cvio_error_again(void);

/// AVERROR_EOF: the end of the stream. Built with FFERRTAG, a function-like macro.
int cvio_error_end_of_file(void);

/// AVERROR_INVALIDDATA: input FFmpeg could not make sense of. Built with FFERRTAG.
int cvio_error_invalid_data(void);

/// AVERROR(errno_value), so Swift can recognise ENOENT, EACCES, EIO among FFmpeg's codes.
int cvio_error_from_errno(int errno_value);

/// AV_NOPTS_VALUE, "no timestamp"; a macro with a cast, which Swift does not import.
int64_t cvio_no_timestamp(void);

// MARK: - Pixel formats

/// How the luma of a pixel format can be read.
typedef enum {
    /// Only swscale can produce it (RGB, palettes, packed YUV such as yuyv422, …).
    CVIO_LUMA_NEEDS_CONVERSION = 0,
    /// The first plane is 8-bit luma, one byte per pixel: lend it as it is (yuv420p, yuvj422p,
    /// nv12, gray, …).
    CVIO_LUMA_8BIT_PLANE = 1,
    /// The first plane is 9- to 16-bit luma, two bytes per pixel (yuv420p10le, p010le, gray12be,
    /// …): cvio_narrow_luma_plane reduces it to 8 bits.
    CVIO_LUMA_WIDE_PLANE = 2,
} cvio_luma_access;

/// How the luma of `format` can be read. Reads the format descriptor, whose flags are macros
/// and whose components are a C array.
cvio_luma_access cvio_pixel_format_luma_access(enum AVPixelFormat format);

/// Reduces the `width` × `height` wide luma plane of a CVIO_LUMA_WIDE_PLANE `format` to 8 bits
/// per pixel, rounding, in `destination`. The luma range is kept as it is. Exists because
/// swscale, asked for GRAY8, always stretches limited-range input of more than 8 bits to full
/// range; and a pixel loop is fast in C in debug builds too.
void cvio_narrow_luma_plane(const uint8_t *source, ptrdiff_t source_bytes_per_row, int width, int height,
                            enum AVPixelFormat format, uint8_t *destination, ptrdiff_t destination_bytes_per_row);

/// Whether `format` stores colour as RGB or through a palette rather than as luma and chroma.
/// Such sources have no "video range", so their luma is produced full range.
bool cvio_pixel_format_is_rgb_or_palette(enum AVPixelFormat format);

/// Whether FFmpeg or the decoder flagged `frame` as damaged (AV_FRAME_FLAG_CORRUPT is a macro,
/// and decode_error_flags says the decoder concealed errors in it).
bool cvio_frame_is_corrupt(const AVFrame *frame);

// MARK: - Display rotation

/// The clockwise rotation, in degrees in [0, 360), that a player applies to show `stream`,
/// read from its display matrix; 0 when it has none. Wraps the side-data API, which moved
/// from the stream to its codec parameters in FFmpeg 6.1.
double cvio_stream_display_rotation(const AVStream *stream);

/// Attaches a display matrix to `stream` telling players to rotate it `clockwise_degrees`
/// before showing it. Call before avformat_write_header. Returns 0 or a negative AVERROR.
int cvio_stream_set_display_rotation(AVStream *stream, int clockwise_degrees);

/// Copies a `width` × `height` 8-bit plane into `destination`, rotated clockwise by
/// `clockwise_degrees` (90, 180 or 270; anything else copies it unrotated). The destination
/// is `height` × `width` for 90 and 270. A tight pixel loop, kept in C so it is fast in
/// debug builds too; it walks the picture in small tiles so both planes stay in cache.
void cvio_rotate_plane(const uint8_t *source, ptrdiff_t source_bytes_per_row, int width, int height,
                       uint8_t *destination, ptrdiff_t destination_bytes_per_row, int clockwise_degrees);

// MARK: - Logging

/// Collects FFmpeg's error messages meant for one reader or writer, so they become that
/// object's warnings and error reasons instead of lines on standard error. FFmpeg's log
/// callback is a variadic C function shared by the whole process; messages are routed to a
/// sink through the `opaque` field of the AVFormatContext or AVCodecContext that logged them
/// (decoder threads log through copies of the codec context, which keep `opaque`), or else
/// through the sink the calling thread has selected with cvio_log_route_thread.
typedef struct cvio_log_sink cvio_log_sink;

/// A new, empty sink; installs the process-wide log callback on first use. NULL without memory.
cvio_log_sink *cvio_log_sink_create(void);

/// Frees `sink`. Free the FFmpeg contexts that point at it first.
void cvio_log_sink_destroy(cvio_log_sink *sink);

/// Adds a message of our own, so a sink keeps every warning in the order it happened.
void cvio_log_sink_add(cvio_log_sink *sink, const char *message);

/// How many distinct messages `sink` holds (a summary of dropped ones counts as one).
int cvio_log_sink_count(cvio_log_sink *sink);

/// Copies message `index` into `buffer` (NUL-terminated, cut to `capacity`); a message seen
/// more than once ends with "(repeated N times)". Returns false when `index` is out of range.
bool cvio_log_sink_message(cvio_log_sink *sink, int index, char *buffer, size_t capacity);

/// Sends what FFmpeg logs on the calling thread, from objects without a sink of their own, to
/// `sink` (NULL stops it), and returns the sink that was routed before, to restore afterwards.
/// Thread-local, so readers on different threads do not mix messages.
cvio_log_sink *cvio_log_route_thread(cvio_log_sink *sink);

/// Also prints FFmpeg's messages up to `level` (AV_LOG_QUIET … AV_LOG_DEBUG) to standard
/// error, in FFmpeg's own format. AV_LOG_QUIET (the default) prints nothing.
void cvio_log_set_echo_level(int level);

/// The level set by cvio_log_set_echo_level.
int cvio_log_echo_level(void);

#endif
