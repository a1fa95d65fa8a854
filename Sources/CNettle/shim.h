// Nettle's SHA-256, which names photo files: a system library, so that no copy of
// BoringSSL is compiled for one hash, and Nettle's, not OpenSSL's, whose SHA256() goes
// through its provider machinery and adds 3.6 MB to a static binary (docs/performance.md,
// "What the binary holds").
#include <nettle/sha2.h>
