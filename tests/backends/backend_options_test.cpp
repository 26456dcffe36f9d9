// MLContextOptions extensions reach the backend: createContext() configures the backend it creates
// with the options' numThreads.
#include <gtest/gtest.h>

#include <atomic>

#include "backends/backend.h"
#include "backends/reference/reference_backend.h"
#include "webnn/context.h"

namespace webnn {
namespace {

std::atomic<uint32_t> configuredThreads{12345};

// The reference backend, recording the options it is configured with.
class RecordingBackend final : public backend::Backend {
 public:
  std::string_view name() const override { return "recording-options"; }
  void configure(const backend::BackendOptions& options) override {
    configuredThreads = options.numThreads;
  }
  MLOpSupportLimits opSupportLimits() const override { return reference_->opSupportLimits(); }
  std::unique_ptr<backend::CompiledGraph> compile(
      std::shared_ptr<const graph::GraphIR> ir,
      std::shared_ptr<backend::MemoryAccount> memory) override {
    return reference_->compile(std::move(ir), std::move(memory));
  }
  std::unique_ptr<backend::BackendTensor> createTensor(
      const MLTensorDescriptor& descriptor,
      std::shared_ptr<backend::MemoryAccount> memory) override {
    return reference_->createTensor(descriptor, std::move(memory));
  }

 private:
  std::unique_ptr<backend::Backend> reference_ = reference::createReferenceBackend();
};

TEST(BackendOptions, CreateContextPassesNumThreadsToTheBackend) {
  static const bool registered = [] {
    backend::registerBackend("recording-options", -30,
                             [] { return std::make_unique<RecordingBackend>(); });
    return true;
  }();
  (void)registered;
  createContext({.backend = "recording-options", .numThreads = 3});
  EXPECT_EQ(configuredThreads.load(), 3u);
  createContext({.backend = "recording-options"});
  EXPECT_EQ(configuredThreads.load(), 0u);  // 0: all cores
}

}  // namespace
}  // namespace webnn
