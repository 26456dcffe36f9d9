// WEBNN_EXPORT marks the public API. The library is compiled with hidden symbol visibility, so a
// shared libwebnn.so exports only what carries this macro; in a static libwebnn.a the same
// symbols keep default visibility, as any library's would.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define WEBNN_EXPORT __attribute__((visibility("default")))
#else
#define WEBNN_EXPORT
#endif
