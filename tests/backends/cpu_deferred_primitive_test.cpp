// backends/cpu/deferred_primitive.h: oneDNN primitives made on a helper thread beside a compile.
// Each is made for the thread count of the thread that asked for it (a brgemm matmul made for two
// threads and run on one computes only its first share), errors come back from finish() and get(),
// a primitive asked for before the batch finished is made by the thread that needs it, and without
// a batch a primitive is made at once.
#include "webnn/config.h"
#ifdef WEBNN_HAVE_CPU

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "backends/cpu/deferred_primitive.h"
#include "backends/cpu/executable.h"

namespace webnn::cpu {
namespace {

using dims = dnnl::memory::dims;
using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

// C [m, n] = A [m, k] x B [k, n] on a oneDNN matmul, all plain float32.
struct MatmulCase {
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::memory::dim m = 64, k = 256, n = 256;
  std::vector<float> a, b;
  dnnl::matmul::primitive_desc descriptor;

  MatmulCase() : a(m * k), b(k * n) {
    std::mt19937 random(5);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (float& value : a) value = uniform(random);
    for (float& value : b) value = uniform(random);
    descriptor = dnnl::matmul::primitive_desc(
        dnnl::matmul::desc(dnnl::memory::desc({m, k}, dt::f32, tag::ab),
                           dnnl::memory::desc({k, n}, dt::f32, tag::ab),
                           dnnl::memory::desc({m, n}, dt::f32, tag::ab)),
        engine);
  }

  // Runs `primitive` (on the calling thread's thread count, or `alone`: inside a parallel region
  // of one thread, as a dispatch that runs alone does) and checks every element of C.
  void check(const DeferredPrimitive& primitive, bool alone = false) {
    std::vector<float> c(m * n, 0.0f);
    dnnl::memory memoryA(descriptor.src_desc(), engine, a.data());
    dnnl::memory memoryB(descriptor.weights_desc(), engine, b.data());
    dnnl::memory memoryC(descriptor.dst_desc(), engine, c.data());
    dnnl::stream stream(engine);
    const std::unordered_map<int, dnnl::memory> arguments{
        {DNNL_ARG_SRC, memoryA}, {DNNL_ARG_WEIGHTS, memoryB}, {DNNL_ARG_DST, memoryC}};
    if (alone) {
#pragma omp parallel num_threads(1)
      primitive.execute(stream, arguments);
    } else {
      primitive.execute(stream, arguments);
    }
    stream.wait();
    for (dnnl::memory::dim row = 0; row < m; ++row) {
      for (dnnl::memory::dim column = 0; column < n; ++column) {
        double expected = 0;
        for (dnnl::memory::dim i = 0; i < k; ++i) {
          expected += double{a[row * k + i]} * b[i * n + column];
        }
        ASSERT_NEAR(c[row * n + column], expected, 1e-3) << "row " << row << " column " << column;
      }
    }
  }
};

TEST(DeferredPrimitive, WithoutABatchItIsMadeAtOnce) {
  MatmulCase matmul;
  const DeferredPrimitive primitive = makePrimitive<dnnl::matmul>(matmul.descriptor);
  ASSERT_TRUE(primitive);
  matmul.check(primitive);
  // Its error reaches the caller at once, as a primitive made directly would throw it.
  EXPECT_THROW(makeDeferred([]() -> dnnl::primitive { throw std::runtime_error("no"); }),
               std::runtime_error);
}

TEST(DeferredPrimitive, EachIsMadeForTheThreadCountOfTheThreadThatAskedForIt) {
  if (omp_get_num_procs() < 2) GTEST_SKIP() << "one core: no helper thread";
  MatmulCase matmul;
  // oneDNN reads omp_get_max_threads() when it makes a primitive (its work split, its primitive
  // cache key): each make records what it saw.
  std::vector<int> seen(8, -1);
  std::vector<DeferredPrimitive> primitives;
  {
    PrimitiveBatch batch;
    for (int i = 0; i < 8; ++i) {
      ThreadCountScope threads(i % 2 == 0 ? 1 : 2);
      primitives.push_back(makeDeferred([&seen, &matmul, i] {
        seen[i] = omp_get_max_threads();
        return dnnl::primitive(dnnl::matmul(matmul.descriptor));
      }));
    }
    batch.finish();
  }
  for (int i = 0; i < 8; ++i) EXPECT_EQ(seen[i], i % 2 == 0 ? 1 : 2) << "primitive " << i;
  for (const DeferredPrimitive& primitive : primitives) matmul.check(primitive);
  for (const DeferredPrimitive& primitive : primitives) matmul.check(primitive, true);
}

TEST(DeferredPrimitive, AnErrorComesBackFromFinishAndFromGet) {
  if (omp_get_num_procs() < 2) GTEST_SKIP() << "one core: no helper thread";
  MatmulCase matmul;
  DeferredPrimitive good, bad;
  PrimitiveBatch batch;
  good = makePrimitive<dnnl::matmul>(matmul.descriptor);
  bad = makeDeferred([]() -> dnnl::primitive { throw std::runtime_error("cannot make it"); });
  EXPECT_THROW(batch.finish(), std::runtime_error);
  EXPECT_THROW(bad.get(), std::runtime_error);
  matmul.check(good);
}

TEST(DeferredPrimitive, OneNeededBeforeTheBatchFinishesIsMadeByTheThreadThatNeedsIt) {
  if (omp_get_num_procs() < 2) GTEST_SKIP() << "one core: no helper thread";
  MatmulCase matmul;
  PrimitiveBatch batch;
  std::vector<DeferredPrimitive> primitives;
  for (int i = 0; i < 8; ++i) primitives.push_back(makePrimitive<dnnl::matmul>(matmul.descriptor));
  // The last one is still queued, or in the making on the helper: get() makes it or waits.
  matmul.check(primitives.back());
  batch.finish();
  for (const DeferredPrimitive& primitive : primitives) matmul.check(primitive);
}

TEST(DeferredPrimitive, ABatchInsideAnotherLeavesTheOuterOneInCharge) {
  MatmulCase matmul;
  PrimitiveBatch outer;
  DeferredPrimitive primitive;
  {
    PrimitiveBatch inner;
    primitive = makePrimitive<dnnl::matmul>(matmul.descriptor);
    inner.finish();  // does nothing: the outer batch holds the primitive
  }
  outer.finish();
  matmul.check(primitive);
}

}  // namespace
}  // namespace webnn::cpu

#endif  // WEBNN_HAVE_CPU
