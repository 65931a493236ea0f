#include "CVideoIO.h"
#include <libavformat/avformat.h>

int cvio_placeholder_version(void) { return (int)avformat_version(); }
