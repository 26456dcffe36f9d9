// Against the installed package:
//   consumer DIR [MODEL.onnx]
// 1. hollow constant -> build -> dispatch (throws, naming the constant) -> chunked writes ->
//    dispatch (correct) -> re-fill -> dispatch (new result);
// 2. loadConstants from a safetensors file it writes as DIR/readme.safetensors (the weight of the
//    README's example, which check-install.sh then runs on it);
// 3. when the package has the ONNX importer (WEBNN_HAVE_ONNX): imports MODEL.onnx, streams its
//    weights in and runs it (a model with input "x" and output "y", e.g. make_mlp_onnx's).
#include <webnn/webnn.h>
#ifdef WEBNN_HAVE_ONNX
#include <webnn/onnx.h>
#endif

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

using namespace webnn;

// A safetensors file holding one float32 tensor.
void writeSafetensors(const std::string& path, const std::string& name,
                      const std::vector<uint32_t>& shape, const std::vector<float>& values) {
  std::string dims;
  for (uint32_t d : shape) dims += (dims.empty() ? "" : ",") + std::to_string(d);
  std::string header = "{\"" + name + "\":{\"dtype\":\"F32\",\"shape\":[" + dims +
                       "],\"data_offsets\":[0," + std::to_string(values.size() * 4) + "]}}";
  header.resize((header.size() + 7) / 8 * 8, ' ');
  uint64_t length = header.size();
  std::ofstream file(path, std::ios::binary);
  file.write(reinterpret_cast<const char*>(&length), 8);  // little-endian hosts only
  file.write(header.data(), static_cast<std::streamsize>(header.size()));
  file.write(reinterpret_cast<const char*>(values.data()),
             static_cast<std::streamsize>(values.size() * 4));
}

std::vector<float> run(MLContext& context, const MLGraph& graph, const std::vector<float>& x,
                       const MLOperandDescriptor& xDescriptor,
                       const MLOperandDescriptor& yDescriptor) {
  auto in = context.createTensor({xDescriptor, false, true});
  auto out = context.createTensor({yDescriptor, true, false});
  context.writeTensor(in, std::as_bytes(std::span(x)));
  context.dispatch(graph, {{"x", in}}, {{"y", out}});
  std::vector<float> y(yDescriptor.elementCount());
  context.readTensor(out, std::as_writable_bytes(std::span(y)));
  return y;
}

// 2. The README example's weight, pulled by label from a file.
int loadFromFile(const std::string& dir) {
  const std::string path = dir + "/readme.safetensors";
  writeSafetensors(path, "fc.weight", {4, 2}, {1, 0, 0, 1, 1, 0, 0, 1});
  MLContext context = createContext();
  MLGraphBuilder builder(context);
  const MLOperandDescriptor xd{MLOperandDataType::Float32, {1, 4}};
  const MLOperandDescriptor wd{MLOperandDataType::Float32, {4, 2}};
  auto w = builder.constant(wd, {.label = "fc.weight"});
  MLGraph graph = builder.build({{"y", builder.matmul(builder.input("x", xd), w)}});
  graph.loadConstants(*WeightSource::open(path));
  if (!graph.pendingConstants().empty()) return std::puts("FAIL: loadConstants left pending"), 1;
  if (run(context, graph, {1, 2, 3, 4}, xd, {MLOperandDataType::Float32, {1, 2}}) !=
      std::vector<float>{4, 6}) {
    return std::puts("FAIL: result after loadConstants"), 1;
  }
  return 0;
}

// 3. An ONNX model, imported weightless and filled from its file.
int importOnnx([[maybe_unused]] const char* model) {
#ifdef WEBNN_HAVE_ONNX
  if (!model) return std::puts("FAIL: the package has the ONNX importer; pass a model"), 1;
  MLContext context = createContext();
  MLGraphBuilder builder(context);
  onnx::ImportedModel imported = onnx::importModel(model, builder);
  MLGraph graph = builder.build(imported.outputOperands);
  graph.loadConstants(*imported.weights);
  const MLOperandDescriptor xd = imported.inputs.at(0).second;
  const MLOperandDescriptor yd = imported.outputs.at(0).second;
  std::vector<float> x(xd.elementCount(), 0.5f);
  const std::vector<float> y = run(context, graph, x, xd, yd);
  for (float value : y) {
    if (!std::isfinite(value)) return std::puts("FAIL: non-finite ONNX output"), 1;
  }
  std::printf("install consumer: ONNX %s, %zu weights (%llu bytes), %zu outputs\n", model,
              imported.weightCount, static_cast<unsigned long long>(imported.weightBytes),
              y.size());
#else
  std::puts("install consumer: this package has no ONNX importer (webnn/onnx.h not installed)");
#endif
  return 0;
}

// 1. The weightless round trip.
int roundTrip() {
  MLContext context = createContext();
  MLGraphBuilder builder(context);
  auto x = builder.input("x", {MLOperandDataType::Float32, {2, 2}});
  auto w = builder.constant({MLOperandDataType::Float32, {2, 2}}, {.label = "w"});
  MLGraph graph = builder.build({{"y", builder.matmul(x, w)}});

  auto in = context.createTensor({{MLOperandDataType::Float32, {2, 2}}, false, true});
  auto out = context.createTensor({{MLOperandDataType::Float32, {2, 2}}, true, false});
  std::vector<float> xValues = {1, 2, 3, 4};
  context.writeTensor(in, std::as_bytes(std::span(xValues)));
  try {
    context.dispatch(graph, {{"x", in}}, {{"y", out}});
    std::puts("FAIL: dispatch ran with a pending constant");
    return 1;
  } catch (const Error& error) {
    if (error.name() != "InvalidStateError" || std::string(error.what()).find("'w'") == std::string::npos) {
      std::printf("FAIL: unexpected error %s\n", error.what());
      return 1;
    }
  }
  auto run = [&] {
    context.dispatch(graph, {{"x", in}}, {{"y", out}});
    std::vector<float> y(4);
    context.readTensor(out, std::as_writable_bytes(std::span(y)));
    return y;
  };
  std::vector<float> identity = {1, 0, 0, 1};
  auto bytes = std::as_bytes(std::span(identity));
  graph.writeConstantData(w, 8, bytes.subspan(8));
  graph.writeConstantData(w, 0, bytes.subspan(0, 8));
  if (run() != xValues) return std::puts("FAIL: identity result"), 1;
  std::vector<float> twice = {2, 0, 0, 2};
  graph.setConstantData(w, std::as_bytes(std::span(twice)));
  if (run() != std::vector<float>{2, 4, 6, 8}) return std::puts("FAIL: re-filled result"), 1;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return std::puts("usage: consumer DIR [MODEL.onnx]"), 2;
  try {
    if (roundTrip() || loadFromFile(argv[1]) || importOnnx(argc > 2 ? argv[2] : nullptr)) return 1;
  } catch (const Error& error) {
    std::printf("FAIL: %s: %s\n", std::string(error.name()).c_str(), error.what());
    return 1;
  }
  std::printf("install consumer: OK (webnn %s, backends %s)\n", WEBNN_VERSION_STRING,
              WEBNN_BACKENDS);
  return 0;
}
