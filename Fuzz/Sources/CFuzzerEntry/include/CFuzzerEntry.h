// libFuzzer normally brings `main`, but SwiftPM links every executable with `main` renamed to
// `<Target>_main` (so tests can import executables), which leaves that symbol undefined. This
// target defines it and hands control to libFuzzer's driver, with the Swift fuzz target.
#ifndef CFUZZERENTRY_H
#define CFUZZERENTRY_H

#include <stddef.h>
#include <stdint.h>

/// The Swift fuzz target (FuzzDecodeDetect.swift, exported with @_cdecl).
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
