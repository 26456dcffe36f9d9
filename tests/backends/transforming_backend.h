// A test backend that stores every hollow constant in another layout (bytes reversed and XORed
// with a position key), so it has no direct storage: loaders must stage chunks through its bounded
// pool and commit them, and the graph decodes its constants for the reference kernels only when it
// is told every constant is complete. It checks, as it goes, what the seam promises it:
// - no two writes in flight touch the same write granule of a constant;
// - no more staged writes are outstanding than its hints allow;
// - complete() comes once per fill, after every byte of that fill, and before any dispatch;
// and counts what it saw, so that tests can assert the API layer drove it right.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "backends/backend.h"

namespace webnn::testing {

inline constexpr const char* kTransformingBackend = "transforming";

struct TransformingBackendOptions {
  uint64_t chunkBytes = 256 * 1024;  // staging hint and pool buffer size
  uint32_t maxChunksInFlight = 2;    // staging pool size
  uint64_t writeGranularity = 1;     // slots' write granularity
};

// What the backend observed, across every graph it compiled (reset with resetTransformingStats).
struct TransformingStats {
  std::atomic<uint64_t> stagedWrites{0};
  std::atomic<uint64_t> directWrites{0};      // write() from the caller's bytes (no staging)
  std::atomic<uint64_t> completions{0};       // slot complete() calls
  std::atomic<uint64_t> graphCompletions{0};  // constantsComplete() calls
  std::atomic<uint64_t> violations{0};        // broken promises of the seam (must stay 0)
  std::atomic<uint32_t> peakInFlight{0};
};
TransformingStats& transformingStats();
void resetTransformingStats();

// Sets the options of graphs compiled from now on (tests that need other hints).
void setTransformingBackendOptions(const TransformingBackendOptions& options);

std::unique_ptr<backend::Backend> createTransformingBackend();
// Registers it under kTransformingBackend (priority below the reference backend's).
void registerTransformingBackend();

}  // namespace webnn::testing
