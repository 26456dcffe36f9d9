#include <algorithm>
#include <mutex>

#include "backends/backend.h"
#include "backends/host_storage.h"
#include "backends/registration.h"
#include "webnn/types.h"

namespace webnn::backend {
namespace {

struct Entry {
  std::string name;
  int priority;
  BackendFactory factory;
};

struct Registry {
  std::mutex mutex;
  std::vector<Entry> entries;
};

// The registry, with the built-in backends in it from the first use on.
Registry& registry() {
  static Registry* instance = [] {
    auto* created = new Registry;  // never destroyed: backends may be created during exit
    registerBuiltinBackends([created](std::string name, int priority, BackendFactory factory) {
      created->entries.push_back({std::move(name), priority, std::move(factory)});
    });
    return created;
  }();
  return *instance;
}

}  // namespace

void ConstantSlot::write(uint64_t byteOffset, std::span<const std::byte> bytes) {
  auto staged = stage(byteOffset, bytes.size());
  std::copy(bytes.begin(), bytes.end(), staged->bytes().begin());
  staged->commit();
}

std::shared_ptr<BackendConstantTensor> Backend::createConstantTensor(
    const MLOperandDescriptor& descriptor, std::shared_ptr<MemoryAccount> memory) {
  return std::make_shared<HostConstantTensor>(descriptor.byteLength(), std::move(memory));
}

void registerBackend(std::string name, int priority, BackendFactory factory) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.entries.push_back({std::move(name), priority, std::move(factory)});
}

std::unique_ptr<Backend> createBackend(std::string_view name, const BackendOptions& options) {
  Registry& r = registry();
  BackendFactory factory;
  {
    std::lock_guard lock(r.mutex);
    const Entry* chosen = nullptr;
    for (const auto& entry : r.entries) {
      if (name.empty() ? (!chosen || entry.priority > chosen->priority) : entry.name == name) {
        chosen = &entry;
      }
    }
    if (!chosen) {
      std::string known;
      for (const auto& entry : r.entries) known += (known.empty() ? "" : ", ") + entry.name;
      throwTypeError("unknown backend '" + std::string(name) + "' (available: " + known + ")");
    }
    factory = chosen->factory;
  }
  std::unique_ptr<Backend> backend = factory();
  backend->configure(options);
  return backend;
}

std::vector<std::string> backendNames() {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  std::vector<std::string> names;
  for (const auto& entry : r.entries) names.push_back(entry.name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace webnn::backend
