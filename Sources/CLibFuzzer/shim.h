#ifndef AWFULBOT_CLIBFUZZER_SHIM_H
#define AWFULBOT_CLIBFUZZER_SHIM_H

#include <stddef.h>
#include <stdint.h>

/* libFuzzer's driver for programs that have their own main (LLVM 11 and later). `-sanitize=fuzzer` links it. */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));

#endif
