// The fuzz executable's entry point; see include/CFuzzerEntry.h for why it exists.
#include "CFuzzerEntry.h"

/// libFuzzer's driver (compiler-rt's FuzzerInterface.h), linked in by -sanitize=fuzzer.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int FuzzDecodeDetect_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
