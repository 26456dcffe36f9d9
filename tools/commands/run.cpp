// webnn run: imports an ONNX model weightless, streams its weights in, dispatches it on .npy
// inputs (or random ones), writes the outputs as .npy, and prints per-phase times and peak memory.
#include <unistd.h>

#include <webnn/webnn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "byte_count.h"
#include "command.h"
#include "core/checked_math.h"
#include "core/float16.h"
#include "npy.h"
#include "peak_rss.h"
#include "progress.h"

#ifdef WEBNN_HAVE_ONNX
#include <webnn/onnx.h>
#endif

namespace {

struct RunOptions {
  std::string model;
  std::vector<std::string> inputs, outputs, dims, fixedInputs;
  bool randomInputs = false;
  uint64_t seed = 1;
  uint32_t iterations = 3;
  std::string backend;
  uint32_t threads = 0;
  std::string outputDir = ".";
  std::string saveInputs;
  std::string maxTensorBytes, maxFoldedBytes, maxWeightBytes;  // empty: the default
  std::string memoryBudget;  // bytes of weights kept in memory of the backend's own (empty: all)
  bool json = false;
  bool profile = false;
  // MLContextOptions::blockQuantizedInt8Activations: --int8-activations / --float-activations;
  // neither: what the model's MatMulNBits ask (accuracy_level 4: int8, as ONNX Runtime).
  bool int8Activations = false;
  bool floatActivations = false;
  bool strict = false;      // a fallback step is an error
  uint32_t concurrent = 0;  // > 1: also time that many dispatches at once (threads, contexts)
  // NAME=DIMS: one more graph of the model with that input shape, over the same weights (constant
  // tensors, loaded once); repeatable.
  std::vector<std::string> alsoShapes;
};

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// "NAME=VALUE" -> {NAME, VALUE}; the last '=' splits, so names may hold '='.
std::pair<std::string, std::string> splitAssignment(const std::string& text, const char* option) {
  const auto at = text.rfind('=');
  if (at == std::string::npos || at == 0) {
    throw webnn::Error(webnn::Error::Kind::TypeError,
                       std::string(option) + " expects NAME=VALUE, got '" + text + "'");
  }
  return {text.substr(0, at), text.substr(at + 1)};
}

// A WebNN dimension written in full (0 to 4294967295), or TypeError naming the option.
uint32_t parseDimension(const std::string& text, const std::string& option) {
  const auto value = webnn::checked::parseInteger<uint32_t>(text);
  if (!value) {
    throw webnn::Error(webnn::Error::Kind::TypeError,
                       "--dim " + option + ": '" + text +
                           "' is not a dimension (a whole number from 0 to 4294967295)");
  }
  return *value;
}

std::vector<uint32_t> parseShape(const std::string& text, const std::string& option) {
  std::vector<uint32_t> shape;
  size_t i = 0;
  while (i <= text.size()) {
    size_t end = text.find_first_of("x,", i);
    if (end == std::string::npos) end = text.size();
    shape.push_back(parseDimension(text.substr(i, end - i), option));
    i = end + 1;
  }
  return shape;
}

// A byte limit given on the command line (bytes, or with a binary unit: 64MiB, 1.5G), or TypeError
// naming it.
void setLimit(uint64_t& limit, const std::string& text, const char* option) {
  if (text.empty()) return;
  const auto value = webnn::tools::parseByteCount(text);
  if (!value) {
    throw webnn::Error(webnn::Error::Kind::TypeError,
                       std::string(option) + ": '" + text +
                           "' is not a number of bytes (examples: 67108864, 64MiB, 1.5G)");
  }
  limit = *value;
}

std::string fileNameFor(const std::string& name) {
  std::string out;
  for (char ch : name)
    out += std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '-' || ch == '_'
               ? ch
               : '_';
  return out + ".npy";
}

double mib(uint64_t bytes) {
  return static_cast<double>(bytes) / (1024.0 * 1024.0);
}

webnn::tools::NpyArray randomArray(const webnn::MLOperandDescriptor& d, std::mt19937_64& rng) {
  webnn::tools::NpyArray a;
  a.dataType = d.dataType;
  a.shape = d.shape;
  const uint64_t n = d.elementCount();
  a.data.resize(static_cast<size_t>(d.byteLength()));
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  for (uint64_t i = 0; i < n; ++i) {
    std::byte* p = a.data.data() + i * (webnn::bitsPerElement(d.dataType) / 8);
    switch (d.dataType) {
      case webnn::MLOperandDataType::Float32: {
        const float v = uniform(rng);
        std::memcpy(p, &v, 4);
        break;
      }
      case webnn::MLOperandDataType::Float16: {
        const uint16_t v = webnn::floatToHalf(uniform(rng));
        std::memcpy(p, &v, 2);
        break;
      }
      case webnn::MLOperandDataType::Int64: {
        const int64_t v = static_cast<int64_t>(rng() % 10);
        std::memcpy(p, &v, 8);
        break;
      }
      case webnn::MLOperandDataType::Int32: {
        const int32_t v = static_cast<int32_t>(rng() % 10);
        std::memcpy(p, &v, 4);
        break;
      }
      default:
        *p = static_cast<std::byte>(rng() & 0xff);
        break;
    }
  }
  return a;
}

#ifdef WEBNN_HAVE_ONNX
// The per-step profile of the steady-state dispatches (all but the first; the first when it is
// the only one), summed per (operation types, implementation), most expensive first.
void printProfile(const std::vector<webnn::MLOperationProfile>& afterFirst,
                  const std::vector<webnn::MLOperationProfile>& atEnd, uint32_t iterations) {
  struct Row {
    std::string type, implementation;
    size_t steps = 0;
    double ms = 0;
  };
  std::vector<Row> rows;
  std::map<std::pair<std::string, std::string>, size_t> rowOf;
  const bool steadyOnly = iterations > 0 && afterFirst.size() == atEnd.size();
  const double dispatches = steadyOnly ? iterations : 1.0;
  double total = 0;
  for (size_t i = 0; i < atEnd.size(); ++i) {
    const auto& step = atEnd[i];
    const double ms =
        (step.totalMilliseconds - (steadyOnly ? afterFirst[i].totalMilliseconds : 0.0)) /
        dispatches;
    auto key = std::make_pair(step.type, step.implementation);
    auto [it, inserted] = rowOf.emplace(key, rows.size());
    if (inserted) rows.push_back({step.type, step.implementation});
    rows[it->second].steps += 1;
    rows[it->second].ms += ms;
    total += ms;
  }
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.ms > b.ms; });
  std::printf("profile (%s, ms per dispatch, %zu steps, %.2f ms in steps):\n",
              steadyOnly ? "steady-state dispatches" : "first dispatch", atEnd.size(), total);
  std::printf("  %-36s %5s %10s %7s  %s\n", "op", "count", "ms", "share", "implementation");
  for (const Row& row : rows) {
    std::printf("  %-36s %5zu %10.3f %6.1f%%  %s\n", row.type.c_str(), row.steps, row.ms,
                total > 0 ? 100.0 * row.ms / total : 0.0, row.implementation.c_str());
  }
}

// One line per (op types, data type, reason) that the backend runs on its reference kernel: how
// many steps, and their share of the steady-state dispatch time when profiled. Returns how many
// kinds of fallback there are.
size_t printFallbacks(const std::vector<webnn::MLStepImplementation>& steps,
                      const std::vector<webnn::MLOperationProfile>& afterFirst,
                      const std::vector<webnn::MLOperationProfile>& atEnd, bool profiled) {
  struct Row {
    size_t steps = 0;
    double ms = 0;
  };
  std::map<std::tuple<std::string, std::string, std::string>, Row> rows;
  const bool timed = profiled && atEnd.size() == steps.size();
  const bool steadyOnly = timed && afterFirst.size() == atEnd.size();
  double total = 0;
  for (size_t i = 0; timed && i < atEnd.size(); ++i) {
    total += atEnd[i].totalMilliseconds - (steadyOnly ? afterFirst[i].totalMilliseconds : 0.0);
  }
  for (size_t i = 0; i < steps.size(); ++i) {
    if (steps[i].fallbackReason.empty()) continue;
    Row& row = rows[{steps[i].type, steps[i].dataType, steps[i].fallbackReason}];
    row.steps += 1;
    if (timed) {
      row.ms += atEnd[i].totalMilliseconds - (steadyOnly ? afterFirst[i].totalMilliseconds : 0.0);
    }
  }
  for (const auto& [key, row] : rows) {
    const auto& [type, dataType, reason] = key;
    std::printf("fallback: %s (%s) runs on the reference kernel: %s; %zu step%s", type.c_str(),
                dataType.c_str(), reason.c_str(), row.steps, row.steps == 1 ? "" : "s");
    if (timed && total > 0) {
      std::printf(", %.1f%% of the dispatch time\n", 100.0 * row.ms / total);
    } else {
      std::printf(" (--profile gives its share of the dispatch time)\n");
    }
  }
  return rows.size();
}

// The folder the outputs go to, made (with its parents) before anything runs; TypeError naming
// it when it cannot be.
void prepareOutputDir(const std::string& folder) {
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error || !std::filesystem::is_directory(folder)) {
    throw webnn::Error(webnn::Error::Kind::TypeError,
                       "--output-dir '" + folder + "' is not a folder that can be written (" +
                           (error ? error.message() : std::string("it is a file")) + ")");
  }
}

int run(const RunOptions& o) {
  using namespace webnn;
  const bool terminal = isatty(STDERR_FILENO);
  prepareOutputDir(o.outputDir);

  onnx::ImportOptions importOptions;
  std::map<std::string, tools::NpyArray> given;
  for (const auto& text : o.inputs) {
    auto [name, file] = splitAssignment(text, "--input");
    given[name] = tools::readNpy(file);
    importOptions.inputShapes[name] = given[name].shape;
  }
  for (const auto& text : o.fixedInputs) {
    auto [name, file] = splitAssignment(text, "--fix-input");
    tools::NpyArray array = tools::readNpy(file);
    importOptions.fixedInputs[name] = {{array.dataType, array.shape}, std::move(array.data)};
  }
  for (const auto& text : o.dims) {
    auto [name, value] = splitAssignment(text, "--dim");
    if (value.find_first_of("x,") != std::string::npos) {
      importOptions.inputShapes[name] = parseShape(value, text);
    } else {
      importOptions.dimensions[name] = parseDimension(value, text);
    }
  }
  setLimit(importOptions.maxTensorBytes, o.maxTensorBytes, "--max-tensor-bytes");
  setLimit(importOptions.maxFoldedBytes, o.maxFoldedBytes, "--max-folded-bytes");
  setLimit(importOptions.maxWeightBytes, o.maxWeightBytes, "--max-weight-bytes");

  MLContextOptions contextOptions;
  contextOptions.backend = o.backend;
  contextOptions.numThreads = o.threads;
  contextOptions.profiling = o.profile;
  setLimit(contextOptions.constantMemoryBudget, o.memoryBudget, "--memory-budget");
  // The context is made before the import, so the model's own choice is read first (its
  // structure only: a millisecond or two, counted in the parse time).
  auto start = Clock::now();
  std::string activationsReason;
  if (o.int8Activations || o.floatActivations) {
    contextOptions.blockQuantizedInt8Activations = o.int8Activations;
    activationsReason = o.int8Activations ? "--int8-activations" : "--float-activations";
  } else if (const onnx::ModelSummary summary = onnx::summarizeModel(o.model, importOptions);
             summary.blockQuantizedMatMuls > 0) {
    contextOptions.blockQuantizedInt8Activations = summary.allowsInt8Activations();
    activationsReason = std::to_string(summary.int8AccuracyMatMuls) + " of the model's " +
                        std::to_string(summary.blockQuantizedMatMuls) +
                        " MatMulNBits set accuracy_level 4";
  }
  const double summaryMs = msSince(start);
  MLContext context = createContext(contextOptions);
  MLGraphBuilder builder(context);

  // --also-shape: the weights become constant tensors, which every graph of the model reads.
  std::map<std::string, MLTensor> sharedWeights;
  if (!o.alsoShapes.empty()) {
    importOptions.constantTensor = [&](const std::string& name,
                                       const MLOperandDescriptor& descriptor) {
      auto it = sharedWeights.find(name);
      if (it == sharedWeights.end()) {
        it = sharedWeights
                 .emplace(name, context.createConstantTensor(descriptor, MLConstantOptions{name}))
                 .first;
      } else if (it->second.dataType() != descriptor.dataType ||
                 it->second.shape() != descriptor.shape) {
        throw Error(Error::Kind::TypeError,
                    "--also-shape: weight '" + name + "' is " + toString(descriptor) +
                        " in this graph but not in the first one: the shapes cannot share it");
      }
      return it->second;
    };
  }

  start = Clock::now();
  onnx::ImportedModel model = onnx::importModel(o.model, builder, importOptions);
  const double parseMs = summaryMs + msSince(start);
  // Same-shaped single-dim overrides given by input name ("--dim x=1,3,64,64") apply too.
  start = Clock::now();
  MLGraph graph = builder.build(model.outputOperands);
  const double buildMs = msSince(start);
  const std::vector<MLStepImplementation> implementations = graph.implementations();
  if (o.strict) {
    std::map<std::string, std::string> fallbacks;  // "type (data type)" -> reason
    for (const auto& step : implementations) {
      if (!step.fallbackReason.empty()) {
        fallbacks.emplace(step.type + " (" + step.dataType + ")", step.fallbackReason);
      }
    }
    if (!fallbacks.empty()) {
      std::string list;
      for (const auto& [op, reason] : fallbacks) list += "; " + op + ": " + reason;
      throw Error(Error::Kind::NotSupportedError,
                  "--strict: the " + context.backendName() + " backend runs " +
                      std::to_string(fallbacks.size()) +
                      " kind(s) of step on its reference kernel" + list);
    }
  }

  start = Clock::now();
  LoadOptions loadOptions;
  loadOptions.maxTensorBytes = importOptions.maxTensorBytes;
  loadOptions.maxTotalBytes = importOptions.maxWeightBytes;
  // Under a memory budget the weights kept as stored stay file-backed (memory maps).
  loadOptions.allowMapping = contextOptions.constantMemoryBudget > 0;
  tools::Progress progress("loading weights", stderr, terminal);
  loadOptions.progress = [&progress](uint64_t done, uint64_t total) {
    progress.update(done, total);
  };
  if (sharedWeights.empty()) {
    graph.loadConstants(*model.weights, loadOptions);
  } else {
    std::vector<MLTensor> tensors;
    for (const auto& [name, tensor] : sharedWeights) tensors.push_back(tensor);
    context.loadConstants(tensors, *model.weights, loadOptions);
  }
  progress.finish();
  const double loadMs = msSince(start);

  // Inputs.
  std::mt19937_64 rng(o.seed);
  MLNamedTensors inputs, outputs;
  std::map<std::string, std::vector<std::byte>> inputBytes;  // --concurrent: for the copies
  const auto graphInputs = graph.inputDescriptors();
  for (const auto& [name, descriptor] : model.inputs) {
    if (!graphInputs.count(name)) {
      // The model declares it but no output depends on it: the graph has no such input.
      std::fprintf(stderr, "input %s: unused by the model's outputs, not fed\n", name.c_str());
      continue;
    }
    auto it = given.find(name);
    tools::NpyArray array;
    if (it != given.end()) {
      array = std::move(it->second);
      if (array.dataType != descriptor.dataType) {
        throw Error(Error::Kind::TypeError,
                    "input '" + name + "' is " + std::string(toString(descriptor.dataType)) +
                        " but the .npy file holds " + std::string(toString(array.dataType)));
      }
    } else if (o.randomInputs) {
      array = randomArray(descriptor, rng);
    } else {
      throw Error(Error::Kind::TypeError, "no data for input '" + name + "' (" +
                                              toString(descriptor) + "): give --input " + name +
                                              "=FILE.npy or --random-inputs");
    }
    if (!o.saveInputs.empty()) tools::writeNpy(o.saveInputs + "/" + fileNameFor(name), array);
    MLTensor tensor = context.createTensor({descriptor, false, true});
    context.writeTensor(tensor, array.data);
    inputs[name] = tensor;
    if (o.concurrent > 1) inputBytes[name] = array.data;
  }
  for (const auto& [name, descriptor] : model.outputs) {
    outputs[name] = context.createTensor({descriptor, true, false});
  }

  start = Clock::now();
  context.dispatch(graph, inputs, outputs);
  const double firstMs = msSince(start);
  const std::vector<MLOperationProfile> afterFirst = graph.profile();
  std::vector<double> steady;
  for (uint32_t i = 0; i < o.iterations; ++i) {
    start = Clock::now();
    context.dispatch(graph, inputs, outputs);
    steady.push_back(msSince(start));
  }

  // --concurrent N: N dispatches at once, from N threads on this graph (each with its own
  // tensors), then from N threads each on a context and graph of its own; each thread runs
  // --iterations dispatches, all starting together. The median over every thread's dispatches.
  double concurrentThreadsMs = 0, concurrentContextsMs = 0;
  if (o.concurrent > 1 && !steady.empty()) {
    const uint32_t n = o.concurrent;
    auto medianOfAtOnce = [&](const std::vector<std::function<void()>>& dispatchers) {
      std::vector<std::vector<double>> times(n);
      std::vector<std::exception_ptr> failures(n);
      std::atomic<uint32_t> ready{0};
      std::vector<std::thread> threads;
      for (uint32_t k = 0; k < n; ++k) {
        threads.emplace_back([&, k] {
          ready.fetch_add(1);
          while (ready.load() < n) std::this_thread::yield();
          try {
            for (uint32_t i = 0; i < o.iterations; ++i) {
              const auto began = Clock::now();
              dispatchers[k]();
              times[k].push_back(msSince(began));
            }
          } catch (...) {
            failures[k] = std::current_exception();
          }
        });
      }
      for (auto& thread : threads) thread.join();
      for (const auto& failure : failures) {
        if (failure) std::rethrow_exception(failure);
      }
      std::vector<double> all;
      for (const auto& list : times) all.insert(all.end(), list.begin(), list.end());
      std::sort(all.begin(), all.end());
      return all[all.size() / 2];
    };
    auto tensorsIn = [&](MLContext& where, const onnx::ImportedModel& imported) {
      std::pair<MLNamedTensors, MLNamedTensors> bound;
      for (const auto& [name, descriptor] : imported.inputs) {
        if (!inputBytes.count(name)) continue;  // unused by the graph
        MLTensor tensor = where.createTensor({descriptor, false, true});
        where.writeTensor(tensor, inputBytes.at(name));
        bound.first[name] = tensor;
      }
      for (const auto& [name, descriptor] : imported.outputs) {
        bound.second[name] = where.createTensor({descriptor, true, false});
      }
      return bound;
    };
    std::vector<std::pair<MLNamedTensors, MLNamedTensors>> ownTensors;
    for (uint32_t k = 0; k < n; ++k) ownTensors.push_back(tensorsIn(context, model));
    std::vector<std::function<void()>> sameGraph;
    for (uint32_t k = 0; k < n; ++k) {
      sameGraph.push_back(
          [&, k] { context.dispatch(graph, ownTensors[k].first, ownTensors[k].second); });
    }
    concurrentThreadsMs = medianOfAtOnce(sameGraph);
    // More contexts, each with the model imported and its weights loaded again.
    struct Copy {
      MLContext context;
      onnx::ImportedModel model;
      MLGraph graph;
      std::pair<MLNamedTensors, MLNamedTensors> tensors;
    };
    std::vector<std::unique_ptr<Copy>> copies;
    for (uint32_t k = 1; k < n; ++k) {
      auto copy = std::make_unique<Copy>();
      copy->context = createContext(contextOptions);
      MLGraphBuilder copyBuilder(copy->context);
      onnx::ImportOptions ownWeights = importOptions;
      ownWeights.constantTensor = nullptr;  // constant tensors belong to the first context
      copy->model = onnx::importModel(o.model, copyBuilder, ownWeights);
      copy->graph = copyBuilder.build(copy->model.outputOperands);
      LoadOptions quietLoad = loadOptions;
      quietLoad.progress = nullptr;
      copy->graph.loadConstants(*copy->model.weights, quietLoad);
      copy->tensors = tensorsIn(copy->context, copy->model);
      copy->context.dispatch(copy->graph, copy->tensors.first, copy->tensors.second);
      copies.push_back(std::move(copy));
    }
    std::vector<std::function<void()>> ownContexts;
    ownContexts.push_back([&] { context.dispatch(graph, inputs, outputs); });
    for (auto& copy : copies) {
      Copy* c = copy.get();
      ownContexts.push_back(
          [c] { c->context.dispatch(c->graph, c->tensors.first, c->tensors.second); });
    }
    concurrentContextsMs = medianOfAtOnce(ownContexts);
  }

  // --also-shape: more graphs of the model over the same (loaded) weights, each with one input's
  // shape changed; each built and dispatched (random inputs) after the first graph.
  struct AlsoShaped {
    std::string shape;
    double buildMs = 0, firstMs = 0, medianMs = 0;
  };
  std::vector<AlsoShaped> alsoShaped;
  std::vector<std::pair<MLGraph, onnx::ImportedModel>> alsoGraphs;  // alive to the end
  for (const auto& text : o.alsoShapes) {
    auto [name, value] = splitAssignment(text, "--also-shape");
    onnx::ImportOptions shapedOptions = importOptions;
    shapedOptions.inputShapes[name] = parseShape(value, text);
    MLGraphBuilder shapedBuilder(context);
    onnx::ImportedModel shapedModel = onnx::importModel(o.model, shapedBuilder, shapedOptions);
    AlsoShaped figures{text};
    auto began = Clock::now();
    MLGraph shapedGraph = shapedBuilder.build(shapedModel.outputOperands);
    figures.buildMs = msSince(began);
    MLNamedTensors shapedInputs, shapedOutputs;
    const auto shapedGraphInputs = shapedGraph.inputDescriptors();
    for (const auto& [inputName, descriptor] : shapedModel.inputs) {
      if (!shapedGraphInputs.count(inputName)) continue;
      tools::NpyArray array = randomArray(descriptor, rng);
      MLTensor tensor = context.createTensor({descriptor, false, true});
      context.writeTensor(tensor, array.data);
      shapedInputs[inputName] = tensor;
    }
    for (const auto& [outputName, descriptor] : shapedModel.outputs) {
      shapedOutputs[outputName] = context.createTensor({descriptor, true, false});
    }
    began = Clock::now();
    context.dispatch(shapedGraph, shapedInputs, shapedOutputs);
    figures.firstMs = msSince(began);
    std::vector<double> times;
    for (uint32_t i = 0; i < o.iterations; ++i) {
      began = Clock::now();
      context.dispatch(shapedGraph, shapedInputs, shapedOutputs);
      times.push_back(msSince(began));
    }
    std::sort(times.begin(), times.end());
    figures.medianMs = times.empty() ? figures.firstMs : times[times.size() / 2];
    alsoShaped.push_back(figures);
    alsoGraphs.emplace_back(std::move(shapedGraph), std::move(shapedModel));
  }

  // Outputs.
  std::map<std::string, std::string> outputFiles;
  for (const auto& text : o.outputs) {
    auto [name, file] = splitAssignment(text, "--output");
    if (!outputs.count(name))
      throw Error(Error::Kind::TypeError, "the model has no output '" + name + "'");
    outputFiles[name] = file;
  }
  for (const auto& [name, descriptor] : model.outputs) {
    tools::NpyArray array;
    array.dataType = descriptor.dataType;
    array.shape = descriptor.shape;
    array.data = context.readTensor(outputs[name]);
    auto it = outputFiles.find(name);
    const std::string file =
        it != outputFiles.end() ? it->second : o.outputDir + "/" + fileNameFor(name);
    tools::writeNpy(file, array);
    std::printf("output %s: %s -> %s\n", name.c_str(), toString(descriptor).c_str(), file.c_str());
  }

  std::printf("model: %s (opset %lld%s%s), backend %s\n", o.model.c_str(),
              static_cast<long long>(model.opsetVersion), model.producer.empty() ? "" : ", ",
              model.producer.c_str(), context.backendName().c_str());
  std::printf("graph: %zu nodes mapped, %zu folded at import, %zu weights (%.2f MiB)\n",
              model.nodeCount, model.foldedNodeCount, model.weightCount, mib(model.weightBytes));
  if (!activationsReason.empty()) {
    // Only the cpu backend has int8 activations; the others compute the products in float32.
    const bool int8 =
        contextOptions.blockQuantizedInt8Activations && context.backendName() == "cpu";
    std::printf(
        "4-bit products: %s activations (%s%s)\n", int8 ? "int8" : "float32",
        activationsReason.c_str(),
        contextOptions.blockQuantizedInt8Activations && !int8
            ? ("; the " + context.backendName() + " backend has no int8 activations").c_str()
            : "");
  }
  std::printf("time: parse %.1f ms, build %.1f ms, load %.1f ms, first dispatch %.1f ms", parseMs,
              buildMs, loadMs, firstMs);
  if (!steady.empty()) {
    std::sort(steady.begin(), steady.end());
    std::printf(", median of %zu dispatches %.1f ms", steady.size(), steady[steady.size() / 2]);
  }
  std::printf("\n");
  if (concurrentThreadsMs > 0) {
    const double alone = steady[steady.size() / 2];
    std::printf(
        "concurrent: %u dispatches at once, median %.1f ms from %u threads on this graph (%.2f x "
        "one at a time), %.1f ms on %u contexts (%.2f x)\n",
        o.concurrent, concurrentThreadsMs, o.concurrent, concurrentThreadsMs / alone,
        concurrentContextsMs, o.concurrent, concurrentContextsMs / alone);
  }
  for (const auto& figures : alsoShaped) {
    std::printf(
        "also %s: same weights (constant tensors), build %.1f ms, first dispatch %.1f ms, "
        "median %.1f ms\n",
        figures.shape.c_str(), figures.buildMs, figures.firstMs, figures.medianMs);
  }
  if (o.profile) printProfile(afterFirst, graph.profile(), o.iterations);
  printFallbacks(implementations, afterFirst, graph.profile(), o.profile && o.iterations > 0);
  const uint64_t peak = webnn::tools::peakRssBytes();
  std::printf("memory: peak RSS (VmHWM) %.1f MiB; model weights %.1f MiB", mib(peak),
              mib(model.weightBytes));
  // Against weights of a few kilobytes the ratio says nothing but the program's own size.
  if (model.weightBytes >= tools::Progress::kMinimumBytes) {
    std::printf(" (peak = %.2f x weights)",
                static_cast<double>(peak) / static_cast<double>(model.weightBytes));
  }
  // The backend's own account: its constants (packed, plain, reordered copies) and staging.
  const MLMemoryStats stats = context.memoryStats();
  std::printf("; backend constants %.2f MiB", mib(stats.constantBytes));
  // Under a memory budget: how much of them the file's pages hold (the system may drop them).
  if (stats.mappedConstantBytes > 0) {
    std::printf(" (%.2f MiB of them mapped from the file)", mib(stats.mappedConstantBytes));
  }
  std::printf(", activations peak %.2f MiB, staging peak %.2f MiB\n",
              mib(stats.activationBytesPeak), mib(stats.stagingBytesPeak));
  if (o.json) {
    // One machine-readable line (bench/models reads it): the same figures, full precision.
    std::printf(
        "run-json: {\"backend\": \"%s\", \"parse_ms\": %.3f, \"build_ms\": %.3f, "
        "\"load_ms\": %.3f, \"first_dispatch_ms\": %.3f, \"dispatches\": %zu, "
        "\"median_ms\": %.3f, \"peak_rss_bytes\": %llu, \"weight_bytes\": %llu, "
        "\"concurrent\": %u, \"concurrent_threads_ms\": %.3f, \"concurrent_contexts_ms\": %.3f, "
        "\"graphs\": %zu, \"constant_bytes\": %llu, \"mapped_constant_bytes\": %llu}\n",
        context.backendName().c_str(), parseMs, buildMs, loadMs, firstMs, steady.size(),
        steady.empty() ? firstMs : steady[steady.size() / 2], static_cast<unsigned long long>(peak),
        static_cast<unsigned long long>(model.weightBytes), o.concurrent, concurrentThreadsMs,
        concurrentContextsMs, 1 + alsoShaped.size(),
        static_cast<unsigned long long>(stats.constantBytes),
        static_cast<unsigned long long>(stats.mappedConstantBytes));
  }
  return 0;
}
#else
int run(const RunOptions&) {
  std::fprintf(stderr, "webnn run: this build has no ONNX importer (libonnx-dev was not found)\n");
  return 2;
}
#endif

}  // namespace

WEBNN_COMMAND("run", registerRunCommand,
              "Run an ONNX model on .npy inputs, print phase times and peak memory") {
  auto o = std::make_shared<RunOptions>();
  app.add_option("MODEL", o->model, "The .onnx file")->required();
  app.add_option("--input", o->inputs, "NAME=FILE.npy: an input's data (fixes its shape)");
  app.add_option("--fix-input", o->fixedInputs,
                 "NAME=FILE.npy: an input's value fixed at import (a constant of the graph, so "
                 "shapes, axes or an If computed from it fold)");
  app.add_option("--output", o->outputs, "NAME=FILE.npy: where an output goes");
  app.add_option("--output-dir", o->outputDir,
                 "Folder for outputs not named by --output (NAME.npy); made when missing");
  app.add_option("--dim", o->dims,
                 "NAME=N: a symbolic dimension; INPUT=1x3x224x224: an input's shape");
  app.add_flag("--random-inputs", o->randomInputs, "Random data for inputs not given by --input");
  app.add_option("--seed", o->seed, "Seed of --random-inputs");
  app.add_option("--save-inputs", o->saveInputs, "Folder to write the inputs used (NAME.npy)");
  app.add_option("--iterations", o->iterations,
                 "Dispatches after the first, for the median (default 3)");
  app.add_option("--backend", o->backend, "Backend name (default: the default backend)");
  app.add_option("--max-tensor-bytes", o->maxTensorBytes,
                 "Largest tensor the model may declare, fold or feed (default 16 GiB)");
  app.add_option("--max-folded-bytes", o->maxFoldedBytes,
                 "Memory for values folded at import, all together (default 256 MiB)");
  app.add_option("--max-weight-bytes", o->maxWeightBytes,
                 "Largest total of the model's weights (default 1 TiB)");
  app.add_option(
      "--memory-budget", o->memoryBudget,
      "BYTES (64MiB, 1.5G): the most weight bytes the backend keeps in memory of its own; the "
      "largest float32 weights beyond it, and weights its steps read as stored anyway (4-bit "
      "LLM weights), are read from a memory map of the file, which the system drops and reads "
      "again under memory pressure (a model larger than memory runs, slower)");
  auto* int8 = app.add_flag(
      "--int8-activations", o->int8Activations,
      "Matmuls on 4-bit block-quantized weights (MatMulNBits, GGUF q4_0) quantize their "
      "activations to int8 per block of 32 and multiply as integers, as llama.cpp and ONNX "
      "Runtime's accuracy_level 4 do: faster, about 1e-2 from the float result (cpu backend, "
      "AVX-512 VNNI). Without it or --float-activations, what the model's MatMulNBits ask: int8 "
      "when every one sets accuracy_level 4");
  app.add_flag("--float-activations", o->floatActivations,
               "Matmuls on 4-bit block-quantized weights multiply float32 activations, whatever "
               "accuracy_level the model's MatMulNBits set")
      ->excludes(int8);
  app.add_flag("--profile", o->profile,
               "Time every step of every dispatch; print a per-op table (type, count, ms, share, "
               "implementation)");
  app.add_flag("--json", o->json, "Also print the figures as one JSON line ('run-json: {...}')");
  app.add_flag("--strict", o->strict,
               "Fail (before loading weights) when the backend would run any step on its "
               "reference kernel (a fallback); without it, each kind is printed after the run");
  app.add_option("--threads", o->threads, "Threads the backend may use (default 0: all cores)");
  app.add_option(
      "--also-shape", o->alsoShapes,
      "NAME=DIMS: also build and run the model with input NAME of shape DIMS (1x3x960x960) "
      "over the same weights, held once as constant tensors (repeatable)");
  app.add_option("--concurrent", o->concurrent,
                 "N > 1: after the run, time N dispatches at once (--iterations each), from N "
                 "threads on the graph and from N threads on N contexts (the model loaded N "
                 "times); prints each median against one at a time");
  return [o] {
    try {
      return run(*o);
    } catch (const webnn::Error& e) {
      std::fprintf(stderr, "webnn run: %s: %s\n", std::string(e.name()).c_str(), e.what());
      return 1;
    }
  };
}
