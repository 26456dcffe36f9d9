// The unit tests' main: registers the test backends (explicitly, as every backend registers),
// then runs GoogleTest.
#include <gtest/gtest.h>

#include "backends/transforming_backend.h"

int main(int argc, char** argv) {
  webnn::testing::registerTransformingBackend();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
