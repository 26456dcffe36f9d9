#include "conformance/known_failures.h"

#include <fstream>
#include <sstream>

namespace webnn::conformance {
namespace {

std::string trim(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return {};
  const auto end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

}  // namespace

KnownFailures KnownFailures::parse(const std::string& text, const std::string& sourceName) {
  KnownFailures list;
  std::istringstream lines(text);
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    const std::string trimmed = trim(line);
    if (trimmed.empty() || trimmed[0] == '#') continue;
    const std::string where = sourceName + ":" + std::to_string(number) + ": ";
    const auto marker = trimmed.rfind("  #");
    if (marker == std::string::npos) {
      throw std::runtime_error(where + "expected \"<op>/<case name>  # reason\"");
    }
    const std::string id = trim(trimmed.substr(0, marker));
    const std::string reason = trim(trimmed.substr(marker + 3));
    const auto slash = id.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == id.size()) {
      throw std::runtime_error(where + "expected \"<op>/<case name>\", got \"" + id + "\"");
    }
    if (reason.empty()) throw std::runtime_error(where + "the reason is missing");
    if (!list.entries_.emplace(id, reason).second) {
      throw std::runtime_error(where + "\"" + id + "\" is listed twice");
    }
  }
  return list;
}

KnownFailures KnownFailures::load(const std::filesystem::path& path) {
  std::ifstream stream(path, std::ios::binary);
  if (!stream) throw std::runtime_error(path.string() + ": cannot open");
  std::ostringstream text;
  text << stream.rdbuf();
  return parse(text.str(), path.string());
}

const std::string* KnownFailures::reason(const std::string& caseId) const {
  auto it = entries_.find(caseId);
  return it == entries_.end() ? nullptr : &it->second;
}

}  // namespace webnn::conformance
