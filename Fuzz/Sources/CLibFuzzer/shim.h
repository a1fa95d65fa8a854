// libFuzzer's entry point for programs that keep their own main(): it parses the
// command line as libFuzzer's main() would and calls `callback` with each input.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*callback)(const uint8_t *data, size_t size));
