#include "backends/vulkan/runtime.h"

#include <map>
#include <mutex>
#include <tuple>

namespace webnn::vulkan {

std::shared_ptr<Runtime> acquireRuntime(const VulkanOptions& options,
                                        MLPowerPreference preference) {
  using Key = std::tuple<int, int, bool>;
  static std::mutex mutex;
  static auto* runtimes = new std::map<Key, std::weak_ptr<Runtime>>;  // lives until exit
  const Key key{options.deviceIndex, static_cast<int>(preference), options.allowDirect};
  std::lock_guard lock(mutex);
  if (auto found = runtimes->find(key); found != runtimes->end()) {
    if (auto runtime = found->second.lock()) {
      if (runtime->options.ringChunks == options.ringChunks &&
          runtime->options.ringChunkBytes == options.ringChunkBytes) {
        return runtime;
      }
    }
  }
  auto runtime = std::make_shared<Runtime>();
  runtime->device = Device::create(options, preference);
  runtime->pipelines = std::make_unique<Pipelines>(runtime->device);
  runtime->options = options;
  runtime->direct = options.allowDirect && runtime->device->hasHostVisibleDeviceLocal();
  (*runtimes)[key] = runtime;
  return runtime;
}

}  // namespace webnn::vulkan
