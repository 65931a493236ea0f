// Error codes, frame flags and display-matrix access that Swift cannot reach
// directly. Each function's reason for existing is in include/CVideoIO.h.
#include "CVideoIO.h"

#include <math.h>

#include <libavcodec/avcodec.h>
#include <libavutil/display.h>

// FFmpeg 6.1 moved stream side data into the codec parameters (and 7.0 removed the old API).
#define CVIO_SIDE_DATA_IN_CODECPAR (LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(60, 31, 102))

int cvio_error_again(void) { return AVERROR(EAGAIN); }

int cvio_error_end_of_file(void) { return AVERROR_EOF; }

int cvio_error_invalid_data(void) { return AVERROR_INVALIDDATA; }

int cvio_error_from_errno(int errno_value) { return AVERROR(errno_value); }

int64_t cvio_no_timestamp(void) { return AV_NOPTS_VALUE; }

bool cvio_frame_is_corrupt(const AVFrame *frame) {
    return (frame->flags & AV_FRAME_FLAG_CORRUPT) != 0 || frame->decode_error_flags != 0;
}

double cvio_stream_display_rotation(const AVStream *stream) {
    const int32_t *matrix = NULL;
#if CVIO_SIDE_DATA_IN_CODECPAR
    const AVPacketSideData *sideData = av_packet_side_data_get(
        stream->codecpar->coded_side_data, stream->codecpar->nb_coded_side_data, AV_PKT_DATA_DISPLAYMATRIX);
    if (sideData != NULL && sideData->size >= 9 * sizeof(int32_t)) {
        matrix = (const int32_t *)sideData->data;
    }
#else
    size_t size = 0;
    const uint8_t *data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (data != NULL && size >= 9 * sizeof(int32_t)) {
        matrix = (const int32_t *)data;
    }
#endif
    if (matrix == NULL) {
        return 0;
    }
    // FFmpeg reports the angle counter-clockwise; players rotate by its opposite.
    double counterClockwise = av_display_rotation_get(matrix);
    if (isnan(counterClockwise)) {
        return 0;
    }
    double clockwise = fmod(-counterClockwise, 360);
    return clockwise < 0 ? clockwise + 360 : clockwise;
}

int cvio_stream_set_display_rotation(AVStream *stream, int clockwise_degrees) {
    int32_t *matrix;
#if CVIO_SIDE_DATA_IN_CODECPAR
    AVPacketSideData *sideData = av_packet_side_data_new(
        &stream->codecpar->coded_side_data, &stream->codecpar->nb_coded_side_data,
        AV_PKT_DATA_DISPLAYMATRIX, 9 * sizeof(int32_t), 0);
    matrix = sideData != NULL ? (int32_t *)sideData->data : NULL;
#else
    matrix = (int32_t *)av_stream_new_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, 9 * sizeof(int32_t));
#endif
    if (matrix == NULL) {
        return AVERROR(ENOMEM);
    }
    // FFmpeg 5.1 documents this angle as clockwise, unlike av_display_rotation_get's.
    av_display_rotation_set(matrix, (double)clockwise_degrees);
    return 0;
}
