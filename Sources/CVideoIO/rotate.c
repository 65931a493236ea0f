// Rotating a luma plane the way a player shows it. Why this is C: see include/CVideoIO.h.
//
// Every rotation fills a destination where pixel (row, column) comes from
// origin[row * rowStep + column * columnStep]: a choice of origin and steps. The bulk is done in
// 8 × 8 blocks handled as eight 64-bit words (a quarter turn transposes each block with a few
// shifts and masks); the strips left at the right and bottom edges are copied byte by byte.
#include "CVideoIO.h"

#include <string.h>

// Destination pixels per side of the tiles the block loop walks, so the source lines a tile
// reads stay in the L1 cache while they are used.
enum { CVIO_TILE = 64 };

static int cvio_min(int a, int b) { return a < b ? a : b; }

static void cvio_remap_region(const uint8_t *origin, ptrdiff_t rowStep, ptrdiff_t columnStep, int rowStart, int rowEnd,
                              int columnStart, int columnEnd, uint8_t *destination, ptrdiff_t destinationStride) {
    for (int row = rowStart; row < rowEnd; row++) {
        const uint8_t *in = origin + row * rowStep;
        uint8_t *out = destination + row * destinationStride;
        for (int column = columnStart; column < columnEnd; column++) {
            out[column] = in[column * columnStep];
        }
    }
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CVIO_BLOCKS 1

// The 8 bytes p[0], p[step], …, p[7 * step] for step ±1, byte j of the word being p[j * step].
static inline uint64_t cvio_load8(const uint8_t *p, ptrdiff_t step) {
    uint64_t word;
    if (step > 0) {
        memcpy(&word, p, 8);
        return word;
    }
    memcpy(&word, p - 7, 8);
    return __builtin_bswap64(word);
}

// Transposes the 8 × 8 bytes held as rows[i] byte j: swaps 1 × 1, then 2 × 2, then 4 × 4 blocks.
static inline void cvio_transpose8x8(uint64_t rows[8]) {
    for (int i = 0; i < 8; i += 2) {
        uint64_t t = ((rows[i] >> 8) ^ rows[i + 1]) & 0x00FF00FF00FF00FFull;
        rows[i + 1] ^= t;
        rows[i] ^= t << 8;
    }
    static const int pairsTwoApart[4] = {0, 1, 4, 5};
    for (int k = 0; k < 4; k++) {
        int i = pairsTwoApart[k];
        uint64_t t = ((rows[i] >> 16) ^ rows[i + 2]) & 0x0000FFFF0000FFFFull;
        rows[i + 2] ^= t;
        rows[i] ^= t << 16;
    }
    for (int i = 0; i < 4; i++) {
        uint64_t t = ((rows[i] >> 32) ^ rows[i + 4]) & 0x00000000FFFFFFFFull;
        rows[i + 4] ^= t;
        rows[i] ^= t << 32;
    }
}

// A quarter turn (rowStep ±1): source rows become destination columns.
static void cvio_turn_blocks(const uint8_t *origin, ptrdiff_t rowStep, ptrdiff_t columnStep, int rows, int columns,
                             uint8_t *destination, ptrdiff_t destinationStride) {
    for (int tileRow = 0; tileRow < rows; tileRow += CVIO_TILE) {
        for (int tileColumn = 0; tileColumn < columns; tileColumn += CVIO_TILE) {
            for (int row = tileRow; row < cvio_min(tileRow + CVIO_TILE, rows); row += 8) {
                for (int column = tileColumn; column < cvio_min(tileColumn + CVIO_TILE, columns); column += 8) {
                    uint64_t block[8];  // block[i] byte j = destination (row + j, column + i)
                    for (int i = 0; i < 8; i++) {
                        block[i] = cvio_load8(origin + row * rowStep + (column + i) * columnStep, rowStep);
                    }
                    cvio_transpose8x8(block);
                    for (int j = 0; j < 8; j++) {
                        memcpy(destination + (row + j) * destinationStride + column, &block[j], 8);
                    }
                }
            }
        }
    }
}

// A half turn or a copy (columnStep ±1): rows stay rows, read forwards or backwards.
static void cvio_copy_blocks(const uint8_t *origin, ptrdiff_t rowStep, ptrdiff_t columnStep, int rows, int columns,
                             uint8_t *destination, ptrdiff_t destinationStride) {
    for (int row = 0; row < rows; row++) {
        for (int column = 0; column < columns; column += 8) {
            uint64_t word = cvio_load8(origin + row * rowStep + column * columnStep, columnStep);
            memcpy(destination + row * destinationStride + column, &word, 8);
        }
    }
}
#endif

static void cvio_remap_plane(const uint8_t *origin, ptrdiff_t rowStep, ptrdiff_t columnStep, int rows, int columns,
                             uint8_t *destination, ptrdiff_t destinationStride) {
    int blockRows = 0, blockColumns = 0;  // the part done in blocks: rows 0..<blockRows, columns 0..<blockColumns
#ifdef CVIO_BLOCKS
    if (rowStep == 1 || rowStep == -1) {
        blockRows = rows & ~7;
        blockColumns = columns & ~7;
        cvio_turn_blocks(origin, rowStep, columnStep, blockRows, blockColumns, destination, destinationStride);
    } else if (columnStep == 1 || columnStep == -1) {
        blockRows = rows;
        blockColumns = columns & ~7;
        cvio_copy_blocks(origin, rowStep, columnStep, blockRows, blockColumns, destination, destinationStride);
    }
#endif
    cvio_remap_region(origin, rowStep, columnStep, 0, rows, blockColumns, columns, destination, destinationStride);
    cvio_remap_region(origin, rowStep, columnStep, blockRows, rows, 0, blockColumns, destination, destinationStride);
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
