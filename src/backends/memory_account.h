// MemoryAccount: where a context's memory goes, kept by the backends, read by
// MLContext::memoryStats().
#pragma once

#include <atomic>
#include <cstdint>

namespace webnn::backend {

class Gauge {
 public:
  void add(uint64_t bytes) {
    const uint64_t now = current_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    uint64_t peak = peak_.load(std::memory_order_relaxed);
    while (now > peak && !peak_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
    }
  }
  void subtract(uint64_t bytes) { current_.fetch_sub(bytes, std::memory_order_relaxed); }
  uint64_t current() const { return current_.load(std::memory_order_relaxed); }
  uint64_t peak() const { return peak_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> current_{0};
  std::atomic<uint64_t> peak_{0};
};

struct MemoryAccount {
  Gauge constants;    // final storage of constants of live graphs
  Gauge activations;  // intermediate buffers of running dispatches
  Gauge tensors;      // MLTensor storage
  Gauge staging;      // transient buffers between a source and final storage
  Gauge mapped;       // the part of `constants` read from memory maps of weight files (adopted)
};

// Adds on construction, subtracts on destruction.
class GaugeCharge {
 public:
  GaugeCharge() = default;
  GaugeCharge(Gauge& gauge, uint64_t bytes) : gauge_(&gauge), bytes_(bytes) { gauge.add(bytes); }
  ~GaugeCharge() {
    if (gauge_) gauge_->subtract(bytes_);
  }
  GaugeCharge(GaugeCharge&& other) noexcept : gauge_(other.gauge_), bytes_(other.bytes_) {
    other.gauge_ = nullptr;
  }
  GaugeCharge& operator=(GaugeCharge&& other) noexcept {
    if (this != &other) {
      if (gauge_) gauge_->subtract(bytes_);
      gauge_ = other.gauge_;
      bytes_ = other.bytes_;
      other.gauge_ = nullptr;
    }
    return *this;
  }
  GaugeCharge(const GaugeCharge&) = delete;
  GaugeCharge& operator=(const GaugeCharge&) = delete;

 private:
  Gauge* gauge_ = nullptr;
  uint64_t bytes_ = 0;
};

}  // namespace webnn::backend
