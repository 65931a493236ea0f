// Rotating a luma plane the way a player shows it. Why this is C: see include/CVideoIO.h.
#include "CVideoIO.h"

#include <string.h>

// Pixels per side of the square tiles the rotation walks, so the rows it reads and the rows
// it writes both fit in the L1 cache.
enum { CVIO_TILE = 32 };

static int cvio_min(int a, int b) { return a < b ? a : b; }

// Fills a `rows` × `columns` destination where pixel (row, column) comes from
// origin[row * rowStep + column * columnStep]: each rotation is a choice of origin and steps.
static void cvio_remap_plane(const uint8_t *origin, ptrdiff_t rowStep, ptrdiff_t columnStep, int rows, int columns,
                             uint8_t *destination, ptrdiff_t destinationStride) {
    for (int rowStart = 0; rowStart < rows; rowStart += CVIO_TILE) {
        for (int columnStart = 0; columnStart < columns; columnStart += CVIO_TILE) {
            int rowEnd = cvio_min(rowStart + CVIO_TILE, rows);
            int columnEnd = cvio_min(columnStart + CVIO_TILE, columns);
            for (int row = rowStart; row < rowEnd; row++) {
                const uint8_t *in = origin + row * rowStep;
                uint8_t *out = destination + row * destinationStride;
                for (int column = columnStart; column < columnEnd; column++) {
                    out[column] = in[column * columnStep];
                }
            }
        }
    }
}

void cvio_rotate_plane(const uint8_t *source, ptrdiff_t source_bytes_per_row, int width, int height,
                       uint8_t *destination, ptrdiff_t destination_bytes_per_row, int clockwise_degrees) {
    const ptrdiff_t stride = source_bytes_per_row;
    switch (clockwise_degrees) {
    case 90:  // displayed row r is source column r, read bottom to top
        cvio_remap_plane(source + (height - 1) * stride, 1, -stride, width, height, destination,
                         destination_bytes_per_row);
        break;
    case 180:  // displayed row r is source row (height - 1 - r), read right to left
        cvio_remap_plane(source + (height - 1) * stride + (width - 1), -stride, -1, height, width, destination,
                         destination_bytes_per_row);
        break;
    case 270:  // displayed row r is source column (width - 1 - r), read top to bottom
        cvio_remap_plane(source + (width - 1), -1, stride, width, height, destination, destination_bytes_per_row);
        break;
    default:
        for (int row = 0; row < height; row++) {
            memcpy(destination + row * destination_bytes_per_row, source + row * stride, (size_t)width);
        }
        break;
    }
}
