#include <algorithm>
#include <mutex>

#include "backends/backend.h"
#include "webnn/types.h"

namespace webnn::backend {
namespace {

struct Entry {
  std::string name;
  int priority;
  BackendFactory factory;
};

std::vector<Entry>& registry() {
  static std::vector<Entry> entries;
  return entries;
}

std::mutex& registryMutex() {
  static std::mutex mutex;
  return mutex;
}

}  // namespace

bool registerBackend(std::string name, int priority, BackendFactory factory) {
  std::lock_guard lock(registryMutex());
  registry().push_back({std::move(name), priority, std::move(factory)});
  return true;
}

std::unique_ptr<Backend> createBackend(std::string_view name) {
  std::lock_guard lock(registryMutex());
  const auto& entries = registry();
  const Entry* chosen = nullptr;
  for (const auto& entry : entries) {
    if (name.empty() ? (!chosen || entry.priority > chosen->priority) : entry.name == name) {
      chosen = &entry;
    }
  }
  if (!chosen) {
    std::string known;
    for (const auto& entry : entries) known += (known.empty() ? "" : ", ") + entry.name;
    throwTypeError("unknown backend '" + std::string(name) + "' (available: " + known + ")");
  }
  return chosen->factory();
}

std::vector<std::string> backendNames() {
  std::lock_guard lock(registryMutex());
  std::vector<std::string> names;
  for (const auto& entry : registry()) names.push_back(entry.name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace webnn::backend
