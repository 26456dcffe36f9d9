// webnn_decoder_bench: an LLM-shaped decoder (issue 23) with its weights in a GGUF file, built
// weightless with the WebNN C++ API and loaded with MLGraph::loadConstants; batch-1 token latency,
// time to first result and peak memory.
//
// The GGUF is the one bench/models/make_decoder_onnx.py --gguf writes (llama.cpp's tensor names):
// per layer L, blk.L.attn_norm.weight and blk.L.ffn_norm.weight (float32 [hidden]),
// blk.L.attn_{q,k,v,output}.weight ([hidden, hidden]) and blk.L.ffn_{gate,up}.weight ([ffn,
// hidden]), blk.L.ffn_down.weight ([hidden, ffn]), quantized (q4_0 or q8_0: WeightSource lists each
// as the three operands of dequantizeLinear, X, X.scale and X.zero_point); output_norm.weight. The
// layer count, hidden and ffn sizes come from the tensors' shapes; the head size and the KV length
// from the past_key_0 input when one is given as .npy, otherwise from --heads and --kv; the
// key/value head count from attn_k's rows (fewer than the heads: grouped-query attention, GQA, as
// make_decoder_onnx.py --kv-heads writes it).
//
// The graph is make_decoder_onnx.py's, op for op: RMSNorm (x / sqrt(mean(x^2) + 1e-6) * gamma);
// q, k, v projections; the new key and value appended to past_key_L / past_value_L
// [1, kvHeads, kv, head]; softmax(q k^T / sqrt(head) [+ the causal mask]) v (with GQA, the queries
// of a key/value head's group reshaped to [1, kvHeads, heads / kvHeads * tokens, head]); the output
// projection and a residual add; RMSNorm, SwiGLU (silu(gate) * up, down) and a residual add; a
// final RMSNorm, output y [1, tokens, hidden]. With several tokens (a prompt's, x [1, tokens,
// hidden]: --tokens, or the shape of a given x) token i attends to the past and to new tokens 0..i
// (a constant mask of 0 and -1e9 added to the scores, as make_decoder_onnx.py --tokens writes it).
// Each projection is matmul(h, transpose(dequantizeLinear(W, cast(W.scale, float32), zeroPoint))),
// W [N, K] (the pattern the cpu backend runs as one 4-bit step, reading the float16 scales as the
// file stores them), zeroPoint the format's one value for every block (q4_0: 8, q8_0: 0) expanded
// to the scale's shape: the same values as the source's X.zero_point, without a tensor of them.
//
//   webnn_decoder_bench FILE.gguf [--input NAME=FILE.npy]... [--random-inputs --seed 1]
//       [--heads 16 --kv 128] [--tokens 1] [--iterations 20] [--threads 0] [--backend NAME]
//       [--output y.npy] [--json]
// Prints a table and, with --json, one line: decoder-json: {...}.
#include <webnn/webnn.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "npy.h"
#include "peak_rss.h"

namespace {

using namespace webnn;
using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

[[noreturn]] void fail(const std::string& what) {
  throw Error(Error::Kind::DataError, what);
}

std::string shapeText(const std::vector<uint32_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

struct Options {
  std::string gguf;
  std::vector<std::string> inputs;
  bool randomInputs = false;
  uint64_t seed = 1;
  uint32_t heads = 0;
  uint32_t kv = 0;
  uint32_t tokens = 0;
  uint32_t iterations = 20;
  uint32_t threads = 0;
  std::string backend;
  std::string output;
  bool json = false;
  bool int8Activations = false;  // MLContextOptions::blockQuantizedInt8Activations
};

struct Dimensions {
  uint32_t layers = 0, hidden = 0, ffn = 0, heads = 0, kv = 0, head = 0, tokens = 1;
  uint32_t kvSize = 0;   // attn_k's rows: kvHeads x head
  uint32_t kvHeads = 0;  // key/value heads (heads / kvHeads query heads share each)
  uint32_t group() const { return heads / kvHeads; }
};

// The tensor `name` of the source, or a DataError naming the file and the tensor.
const TensorInfo& tensorOf(const WeightSource& source, const std::string& name) {
  const TensorInfo* t = source.find(name);
  if (!t)
    fail(source.path() + ": no tensor '" + name + "' (not a make_decoder_onnx.py --gguf file?)");
  if (!t->supported) fail(source.path() + ": tensor '" + name + "': " + t->unsupportedReason);
  return *t;
}

// Checks that the quantized weight `name` is [n, k] with block operands [n, k / block].
void checkLinear(const WeightSource& source, const std::string& name, uint32_t n, uint32_t k) {
  const TensorInfo& w = tensorOf(source, name);
  if (!w.derived) {
    fail(source.path() + ": tensor '" + name + "' is " + w.fileDataType +
         ", not a block-quantized type (q4_0, q8_0)");
  }
  if (w.shape != std::vector<uint32_t>{n, k}) {
    fail(source.path() + ": tensor '" + name + "' has shape " + shapeText(w.shape) + ", expected " +
         shapeText({n, k}));
  }
  const TensorInfo& scale = tensorOf(source, name + ".scale");
  const TensorInfo& zeroPoint = tensorOf(source, name + ".zero_point");
  if (scale.shape.size() != 2 || scale.shape[0] != n || scale.shape[1] == 0 ||
      k % scale.shape[1] != 0 || zeroPoint.shape != scale.shape ||
      scale.dataType != MLOperandDataType::Float16) {
    fail(source.path() + ": the block operands of '" + name + "' (" + shapeText(scale.shape) +
         ", " + shapeText(zeroPoint.shape) + ") do not fit its shape " + shapeText(w.shape));
  }
}

void checkNorm(const WeightSource& source, const std::string& name, uint32_t hidden) {
  const TensorInfo& t = tensorOf(source, name);
  if (t.dataType != MLOperandDataType::Float32 || t.shape != std::vector<uint32_t>{hidden}) {
    fail(source.path() + ": tensor '" + name + "' is " + std::string(toString(t.dataType)) + " " +
         shapeText(t.shape) + ", expected float32 [" + std::to_string(hidden) + "]");
  }
}

// The layer count, hidden and ffn sizes from the tensors' shapes; every tensor of every layer
// checked.
Dimensions dimensionsOf(const WeightSource& source) {
  Dimensions d;
  while (source.find("blk." + std::to_string(d.layers) + ".attn_q.weight")) ++d.layers;
  if (d.layers == 0) fail(source.path() + ": no tensor 'blk.0.attn_q.weight'");
  const TensorInfo& q = tensorOf(source, "blk.0.attn_q.weight");
  const TensorInfo& gate = tensorOf(source, "blk.0.ffn_gate.weight");
  if (q.shape.size() != 2 || q.shape[0] != q.shape[1]) {
    fail(source.path() + ": blk.0.attn_q.weight has shape " + shapeText(q.shape) +
         ", expected [hidden, hidden]");
  }
  d.hidden = q.shape[0];
  if (gate.shape.size() != 2) {
    fail(source.path() + ": blk.0.ffn_gate.weight has shape " + shapeText(gate.shape));
  }
  d.ffn = gate.shape[0];
  const TensorInfo& k = tensorOf(source, "blk.0.attn_k.weight");
  if (k.shape.size() != 2 || k.shape[0] == 0 || k.shape[0] > d.hidden) {
    fail(source.path() + ": blk.0.attn_k.weight has shape " + shapeText(k.shape) +
         ", expected [key/value heads x head, hidden]");
  }
  d.kvSize = k.shape[0];
  for (uint32_t l = 0; l < d.layers; ++l) {
    const std::string p = "blk." + std::to_string(l) + ".";
    checkNorm(source, p + "attn_norm.weight", d.hidden);
    checkNorm(source, p + "ffn_norm.weight", d.hidden);
    for (const char* name : {"attn_q", "attn_output"}) {
      checkLinear(source, p + name + ".weight", d.hidden, d.hidden);
    }
    for (const char* name : {"attn_k", "attn_v"}) {
      checkLinear(source, p + name + ".weight", d.kvSize, d.hidden);
    }
    checkLinear(source, p + "ffn_gate.weight", d.ffn, d.hidden);
    checkLinear(source, p + "ffn_up.weight", d.ffn, d.hidden);
    checkLinear(source, p + "ffn_down.weight", d.hidden, d.ffn);
  }
  checkNorm(source, "output_norm.weight", d.hidden);
  return d;
}

class DecoderBuilder {
 public:
  DecoderBuilder(MLGraphBuilder& builder, const WeightSource& source, const Dimensions& d)
      : b_(builder), source_(source), d_(d) {
    two_ = b_.constant(MLOperandDataType::Float32, 2.0f);
    epsilon_ = b_.constant(MLOperandDataType::Float32, 1e-6f);
    scale_ = b_.constant(MLOperandDataType::Float32,
                         static_cast<float>(1.0 / std::sqrt(static_cast<double>(d.head))));
    if (d.tokens > 1) {  // [1, 1, tokens, kv + tokens]: new token i sees the past and 0..i
      // (with GQA the rows are (query head of the group, token): the mask once per head)
      const uint32_t keys = d.kv + d.tokens, rows = d.group() * d.tokens;
      std::vector<float> mask(static_cast<size_t>(rows) * keys, 0.0f);
      for (uint32_t row = 0; row < rows; ++row) {
        for (uint32_t j = d.kv + row % d.tokens + 1; j < keys; ++j)
          mask[static_cast<size_t>(row) * keys + j] = -1e9f;
      }
      mask_ = b_.constant({MLOperandDataType::Float32, {1, 1, rows, keys}},
                          std::as_bytes(std::span<const float>(mask)));
    }
  }

  MLOperand decoder(MLOperand x, const std::vector<MLOperand>& pastKeys,
                    const std::vector<MLOperand>& pastValues) {
    for (uint32_t l = 0; l < d_.layers; ++l) {
      const std::string p = "blk." + std::to_string(l) + ".";
      MLOperand h = rmsNorm(x, p + "attn_norm.weight");
      MLOperand q = headsOf(linear(h, p + "attn_q.weight"), d_.heads);
      const MLOperand k = headsOf(linear(h, p + "attn_k.weight"), d_.kvHeads);
      const MLOperand v = headsOf(linear(h, p + "attn_v.weight"), d_.kvHeads);
      if (d_.group() > 1) q = b_.reshape(q, {1, d_.kvHeads, d_.group() * d_.tokens, d_.head});
      const MLOperand keys = b_.concat({pastKeys[l], k}, 2);
      const MLOperand values = b_.concat({pastValues[l], v}, 2);
      MLOperand scores = b_.mul(b_.matmul(q, transpose(keys, {0, 1, 3, 2})), scale_);
      if (d_.tokens > 1) scores = b_.add(scores, mask_);
      MLOperand attended = b_.matmul(b_.softmax(scores, 3), values);
      if (d_.group() > 1) attended = b_.reshape(attended, {1, d_.heads, d_.tokens, d_.head});
      attended = b_.reshape(transpose(attended, {0, 2, 1, 3}), {1, d_.tokens, d_.hidden});
      x = b_.add(x, linear(attended, p + "attn_output.weight"));
      h = rmsNorm(x, p + "ffn_norm.weight");
      const MLOperand gate = linear(h, p + "ffn_gate.weight");
      const MLOperand up = linear(h, p + "ffn_up.weight");
      const MLOperand silu = b_.mul(gate, b_.sigmoid(gate));
      x = b_.add(x, linear(b_.mul(silu, up), p + "ffn_down.weight"));
    }
    return rmsNorm(x, "output_norm.weight");
  }

  uint64_t weightBytes() const { return weightBytes_; }

 private:
  // A hollow constant labelled `name`, described as the source lists it.
  MLOperand hollow(const std::string& name) {
    const TensorInfo& t = tensorOf(source_, name);
    weightBytes_ += t.byteLength;
    return b_.constant(t.descriptor(), {.label = name});
  }

  MLOperand rmsNorm(const MLOperand& x, const std::string& gamma) {
    const MLOperand mean = b_.reduceMean(b_.pow(x, two_), {.axes = {{2}}, .keepDimensions = true});
    const MLOperand root = b_.sqrt(b_.add(mean, epsilon_));
    return b_.mul(b_.div(x, root), hollow(gamma));
  }

  // matmul(a, transpose(dequantizeLinear(W, cast(W.scale, float32), zeroPoint))), W [N, K]: the
  // float16 scales widened exactly, as ggml dequantizes; the zero point q4_0 (uint4) and q8_0
  // (int8) give every block, expanded from one element.
  MLOperand linear(const MLOperand& a, const std::string& name) {
    const TensorInfo& scaleInfo = tensorOf(source_, name + ".scale");
    const MLOperand scale = b_.cast(hollow(name + ".scale"), MLOperandDataType::Float32);
    const MLOperandDataType type = tensorOf(source_, name).dataType;
    const std::byte zero[1] = {
        std::byte{type == MLOperandDataType::Uint4 ? uint8_t{8} : uint8_t{0}}};
    const MLOperand one =
        b_.constant({type, std::vector<uint32_t>(scaleInfo.shape.size(), 1)}, zero);
    const MLOperand w = b_.dequantizeLinear(hollow(name), scale, b_.expand(one, scaleInfo.shape));
    return b_.matmul(a, b_.transpose(w));
  }

  MLOperand transpose(const MLOperand& x, std::vector<uint32_t> permutation) {
    MLTransposeOptions options;
    options.permutation = std::move(permutation);
    return b_.transpose(x, options);
  }

  // [1, tokens, count x head] -> [1, count, tokens, head].
  MLOperand headsOf(const MLOperand& x, uint32_t count) {
    return transpose(b_.reshape(x, {1, d_.tokens, count, d_.head}), {0, 2, 1, 3});
  }

  MLGraphBuilder& b_;
  const WeightSource& source_;
  const Dimensions d_;
  MLOperand two_, epsilon_, scale_, mask_;
  uint64_t weightBytes_ = 0;
};

tools::NpyArray randomArray(const MLOperandDescriptor& descriptor, std::mt19937_64& rng) {
  tools::NpyArray array;
  array.shape = descriptor.shape;
  std::vector<float> values(descriptor.byteLength() / sizeof(float));
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (float& v : values) v = uniform(rng);
  array.data.resize(values.size() * sizeof(float));
  std::memcpy(array.data.data(), values.data(), array.data.size());
  return array;
}

int run(const Options& o) {
  auto start = Clock::now();
  std::unique_ptr<WeightSource> source = WeightSource::open(o.gguf);
  if (source->formatName() != "gguf") fail(o.gguf + ": not a GGUF file");
  Dimensions d = dimensionsOf(*source);
  const double openMs = msSince(start);

  std::map<std::string, tools::NpyArray> given;
  for (const std::string& text : o.inputs) {
    const auto at = text.find('=');
    if (at == std::string::npos || at == 0) {
      throw Error(Error::Kind::TypeError, "--input '" + text + "': expected NAME=FILE.npy");
    }
    tools::NpyArray array = tools::readNpy(text.substr(at + 1));
    if (array.dataType != MLOperandDataType::Float32) {
      fail(text.substr(at + 1) + ": " + std::string(toString(array.dataType)) +
           ", the decoder's inputs are float32");
    }
    given[text.substr(0, at)] = std::move(array);
  }
  // The head size and KV length: past_key_0's shape [1, kvHeads, kv, head] when given.
  if (auto it = given.find("past_key_0"); it != given.end()) {
    const auto& shape = it->second.shape;
    if (shape.size() != 4 || shape[0] != 1 || shape[1] == 0 || shape[3] == 0 ||
        uint64_t{shape[1]} * shape[3] != d.kvSize || d.hidden % shape[3] != 0) {
      fail("past_key_0 has shape " + shapeText(shape) + ", expected [1, " +
           "key/value heads, kv, head] with key/value heads x head = " + std::to_string(d.kvSize) +
           " (attn_k's rows) and head dividing hidden " + std::to_string(d.hidden));
    }
    d.heads = d.hidden / shape[3];
    if ((o.heads && o.heads != d.heads) || (o.kv && o.kv != shape[2])) {
      fail("past_key_0 has shape " + shapeText(shape) + ", which disagrees with --heads/--kv");
    }
    d.kv = shape[2];
  } else {
    d.heads = o.heads ? o.heads : 16;
    d.kv = o.kv ? o.kv : 128;
  }
  if (d.heads == 0 || d.hidden % d.heads != 0) {
    fail("hidden " + std::to_string(d.hidden) + " is not a multiple of " + std::to_string(d.heads) +
         " heads");
  }
  d.head = d.hidden / d.heads;
  d.kvHeads = d.kvSize / d.head;
  if (d.kvHeads == 0 || d.kvSize % d.head != 0 || d.heads % d.kvHeads != 0) {
    fail("attn_k's " + std::to_string(d.kvSize) + " rows are not a whole number of heads of " +
         std::to_string(d.head) + " that divides the " + std::to_string(d.heads) + " heads");
  }
  // The token count: x's shape [1, tokens, hidden] when given.
  d.tokens = o.tokens ? o.tokens : 1;
  if (auto it = given.find("x"); it != given.end()) {
    const auto& shape = it->second.shape;
    if (shape.size() != 3 || shape[0] != 1 || shape[1] == 0 || shape[2] != d.hidden ||
        (o.tokens && o.tokens != shape[1])) {
      fail("x has shape " + shapeText(shape) + ", expected [1, " +
           (o.tokens ? std::to_string(o.tokens) : std::string("tokens")) + ", " +
           std::to_string(d.hidden) + "]");
    }
    d.tokens = shape[1];
  }

  // The graph's inputs; every given one checked against them before anything is built.
  const MLOperandDescriptor past{MLOperandDataType::Float32, {1, d.kvHeads, d.kv, d.head}};
  std::map<std::string, MLOperandDescriptor> inputDescriptors;
  inputDescriptors["x"] = {MLOperandDataType::Float32, {1, d.tokens, d.hidden}};
  for (uint32_t l = 0; l < d.layers; ++l) {
    inputDescriptors["past_key_" + std::to_string(l)] = past;
    inputDescriptors["past_value_" + std::to_string(l)] = past;
  }
  for (const auto& [name, array] : given) {
    auto it = inputDescriptors.find(name);
    if (it == inputDescriptors.end()) {
      throw Error(Error::Kind::TypeError, "--input " + name + ": the decoder has no such input");
    }
    if (array.shape != it->second.shape) {
      fail("--input " + name + " has shape " + shapeText(array.shape) + ", the decoder's is " +
           shapeText(it->second.shape));
    }
  }

  MLContextOptions contextOptions;
  contextOptions.backend = o.backend;
  contextOptions.numThreads = o.threads;
  contextOptions.blockQuantizedInt8Activations = o.int8Activations;
  MLContext context = createContext(contextOptions);

  start = Clock::now();
  MLGraphBuilder builder(context);
  std::vector<MLOperand> pastKeys, pastValues;
  const MLOperand x = builder.input("x", inputDescriptors["x"]);
  for (uint32_t l = 0; l < d.layers; ++l) {
    pastKeys.push_back(builder.input("past_key_" + std::to_string(l), past));
    pastValues.push_back(builder.input("past_value_" + std::to_string(l), past));
  }
  DecoderBuilder decoder(builder, *source, d);
  const MLOperand y = decoder.decoder(x, pastKeys, pastValues);
  MLGraph graph = builder.build({{"y", y}});
  const double buildMs = msSince(start);

  start = Clock::now();
  graph.loadConstants(*source);
  const double loadMs = msSince(start);

  std::mt19937_64 rng(o.seed);
  MLNamedTensors inputs, outputs;
  for (const auto& [name, descriptor] : inputDescriptors) {
    tools::NpyArray array;
    if (auto it = given.find(name); it != given.end()) {
      array = std::move(it->second);
    } else if (o.randomInputs) {
      array = randomArray(descriptor, rng);
    } else {
      throw Error(Error::Kind::TypeError, "no data for input '" + name + "' " +
                                              shapeText(descriptor.shape) + ": give --input " +
                                              name + "=FILE.npy or --random-inputs");
    }
    MLTensor tensor = context.createTensor({descriptor, false, true});
    context.writeTensor(tensor, array.data);
    inputs[name] = tensor;
  }
  const MLOperandDescriptor yDescriptor{MLOperandDataType::Float32, {1, d.tokens, d.hidden}};
  outputs["y"] = context.createTensor({yDescriptor, true, false});

  start = Clock::now();
  context.dispatch(graph, inputs, outputs);
  const double firstMs = msSince(start);
  std::vector<double> steady;
  for (uint32_t i = 0; i < o.iterations; ++i) {
    start = Clock::now();
    context.dispatch(graph, inputs, outputs);
    steady.push_back(msSince(start));
  }
  std::sort(steady.begin(), steady.end());
  const double medianMs = steady.empty() ? firstMs : steady[steady.size() / 2];
  const double minMs = steady.empty() ? firstMs : steady.front();
  const uint64_t peak = tools::peakRssBytes();

  tools::NpyArray result;
  result.shape = yDescriptor.shape;
  result.data = context.readTensor(outputs["y"]);
  if (!o.output.empty()) tools::writeNpy(o.output, result);

  // How the projections run: steps that hold a dequantizeLinear and a matmul (fused), and the
  // steps the backend runs on its reference kernel.
  size_t fused = 0, fallbacks = 0, steps = 0;
  for (const MLStepImplementation& step : graph.implementations()) {
    ++steps;
    if (step.type.find("dequantizeLinear") != std::string::npos &&
        step.type.find("matmul") != std::string::npos) {
      ++fused;
    }
    if (!step.fallbackReason.empty()) {
      ++fallbacks;
      std::printf("fallback: %s (%s): %s\n", step.type.c_str(), step.dataType.c_str(),
                  step.fallbackReason.c_str());
    }
  }
  const size_t projections = 7 * static_cast<size_t>(d.layers);
  const double mib = 1024.0 * 1024.0;
  const double fileBytes = static_cast<double>(source->fileSize());
  const MLMemoryStats memory = context.memoryStats();

  std::printf(
      "decoder: %s, %u layers, hidden %u, %u heads (%u key/value), ffn %u, kv %u, %u token(s); "
      "backend %s\n",
      o.gguf.c_str(), d.layers, d.hidden, d.heads, d.kvHeads, d.ffn, d.kv, d.tokens,
      context.backendName().c_str());
  std::printf(
      "graph: %zu steps, %zu of the %zu projections one dequantize+matmul step, %zu on "
      "the reference kernel\n",
      steps, fused, projections, fallbacks);
  std::printf("| figure | value |\n|---|---:|\n");
  std::printf("| open GGUF (header) ms | %.1f |\n", openMs);
  std::printf("| build ms | %.1f |\n", buildMs);
  std::printf("| load ms | %.1f |\n", loadMs);
  std::printf("| first dispatch ms | %.2f |\n", firstMs);
  std::printf("| first result ms (open + build + load + first) | %.1f |\n",
              openMs + buildMs + loadMs + firstMs);
  std::printf("| median of %zu dispatches ms | %.3f |\n", steady.size(), medianMs);
  std::printf("| fastest dispatch ms | %.3f |\n", minMs);
  std::printf("| constants in the backend MiB | %.1f |\n",
              static_cast<double>(memory.constantBytes) / mib);
  std::printf("| GGUF file MiB | %.1f |\n", fileBytes / mib);
  std::printf("| peak RSS (VmHWM) MiB | %.1f (%.2f x the file) |\n",
              static_cast<double>(peak) / mib, static_cast<double>(peak) / fileBytes);
  if (!o.output.empty()) std::printf("output y -> %s\n", o.output.c_str());
  if (o.json) {
    std::printf(
        "decoder-json: {\"backend\": \"%s\", \"layers\": %u, \"hidden\": %u, \"heads\": %u, "
        "\"kv_heads\": %u, \"ffn\": %u, \"kv\": %u, \"tokens\": %u, \"threads\": %u, \"open_ms\": "
        "%.3f, "
        "\"build_ms\": %.3f, "
        "\"load_ms\": %.3f, \"first_dispatch_ms\": %.3f, \"dispatches\": %zu, \"median_ms\": "
        "%.3f, \"min_ms\": %.3f, \"peak_rss_bytes\": %llu, \"file_bytes\": %llu, "
        "\"weight_bytes\": %llu, \"constant_bytes\": %llu, \"steps\": %zu, \"fused_projections\": "
        "%zu, \"projections\": %zu, \"fallback_steps\": %zu}\n",
        context.backendName().c_str(), d.layers, d.hidden, d.heads, d.kvHeads, d.ffn, d.kv,
        d.tokens, o.threads, openMs, buildMs, loadMs, firstMs, steady.size(), medianMs, minMs,
        static_cast<unsigned long long>(peak), static_cast<unsigned long long>(source->fileSize()),
        static_cast<unsigned long long>(decoder.weightBytes()),
        static_cast<unsigned long long>(memory.constantBytes), steps, fused, projections,
        fallbacks);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"webnn_decoder_bench: an LLM-shaped decoder with GGUF weights (issue 23)"};
  app.add_option("gguf", o.gguf, "The GGUF file (make_decoder_onnx.py --gguf)")->required();
  app.add_option("--input", o.inputs, "NAME=FILE.npy: x, past_key_L, past_value_L");
  app.add_flag("--random-inputs", o.randomInputs, "Seeded uniform [-1, 1) for inputs not given");
  app.add_option("--seed", o.seed, "Seed of --random-inputs");
  app.add_option("--heads", o.heads, "Attention heads (default: from past_key_0, else 16)");
  app.add_option("--kv", o.kv, "Past KV length (default: from past_key_0, else 128)");
  app.add_option("--tokens", o.tokens, "New tokens per dispatch (default: from x, else 1)")
      ->check(CLI::PositiveNumber);
  app.add_option("--iterations", o.iterations, "Dispatches after the first, for the median");
  app.add_option("--threads", o.threads, "Threads of the backend (0: all cores)");
  app.add_option("--backend", o.backend, "Backend name (default: the default backend)");
  app.add_option("--output", o.output, "Write y as .npy");
  app.add_flag("--json", o.json, "Also print the figures as one line: decoder-json: {...}");
  app.add_flag("--int8-activations", o.int8Activations,
               "The 4-bit products quantize their activations to int8 per block of 32 "
               "(MLContextOptions::blockQuantizedInt8Activations, llama.cpp's q4_0 x q8_0)");
  CLI11_PARSE(app, argc, argv);
  try {
    return run(o);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "webnn_decoder_bench: %s\n", error.what());
    return 1;
  }
}
