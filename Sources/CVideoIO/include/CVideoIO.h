// Demuxing, decoding and encoding through FFmpeg, behind a small C interface that Swift
// can import without FFmpeg's macros. See the TrajectoryVideo module for the Swift side.
#ifndef CVIDEOIO_H
#define CVIDEOIO_H

int cvio_placeholder_version(void);

#endif
