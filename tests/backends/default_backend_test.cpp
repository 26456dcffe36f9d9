// createContext() without a backend name gives the fastest built-in backend: the cpu backend
// where oneDNN was found, the reference backend otherwise; the reference stays selectable.
#include <gtest/gtest.h>

#include "webnn/config.h"
#include "webnn/context.h"

namespace webnn {
namespace {

TEST(DefaultBackend, IsTheCpuBackendWhenBuilt) {
#ifdef WEBNN_HAVE_CPU
  EXPECT_EQ(createContext().backendName(), "cpu");
#else
  EXPECT_EQ(createContext().backendName(), "reference");
#endif
  EXPECT_EQ(createContext({.backend = "reference"}).backendName(), "reference");
}

}  // namespace
}  // namespace webnn
