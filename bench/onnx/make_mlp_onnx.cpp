// Writes a transformer-like ONNX stack for the memory benchmark: LAYERS x (MatMul by a [D, D]
// float32 weight, Add a [D] bias, Gelu), input "x" [1, D], output "y" [1, D]. W = LAYERS x (D x D
// + D) x 4 bytes (1 GiB + 256 KiB for the defaults). The weights are pseudo-random, uniform in
// [-sqrt(3 / D), sqrt(3 / D)] (deterministic), so activations keep their scale through the stack.
//
//   make_mlp_onnx OUT_DIR [--layers 16] [--dim 4096] [--only external|embedded]
//
// writes OUT_DIR/mlp_external.onnx + OUT_DIR/mlp_external.onnx.data (one external data file) and
// OUT_DIR/mlp_embedded.onnx (raw_data inside the model). Neither file is ever held in memory: the
// model's structure is serialized by libonnx, and the weight bytes are streamed to the file in
// chunks. For the embedded model the protobuf wire format is written by hand around the streamed
// raw_data fields (the initializers follow the rest of the graph; field order is free in protobuf).
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Options {
  std::string outDir;
  int layers = 16;
  int64_t dim = 4096;
  bool external = true;
  bool embedded = true;
};

// Deterministic weights: xorshift64*, uniform in [-scale, scale].
class Generator {
 public:
  explicit Generator(uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull | 1) {}
  float next(float scale) {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    const uint64_t bits = state_ * 0x2545F4914F6CDD1Dull;
    const float unit = static_cast<float>(bits >> 40) / static_cast<float>(1ull << 24);
    return (unit * 2.0f - 1.0f) * scale;
  }

 private:
  uint64_t state_;
};

struct Tensor {
  std::string name;
  std::vector<int64_t> dims;
  uint64_t seed;
  uint64_t bytes() const {
    uint64_t n = 4;
    for (int64_t d : dims) n *= static_cast<uint64_t>(d);
    return n;
  }
};

class File {
 public:
  explicit File(const std::string& path) : path_(path), file_(std::fopen(path.c_str(), "wb")) {
    if (!file_) throw std::runtime_error("cannot create " + path);
  }
  ~File() {
    if (file_) std::fclose(file_);
  }
  void write(const void* data, size_t size) {
    if (size && std::fwrite(data, 1, size, file_) != size)
      throw std::runtime_error("writing " + path_ + " failed (disk full?)");
  }
  void write(const std::string& bytes) { write(bytes.data(), bytes.size()); }
  void close() {
    const bool ok = std::fclose(file_) == 0;
    file_ = nullptr;
    if (!ok) throw std::runtime_error("closing " + path_ + " failed");
  }

 private:
  std::string path_;
  std::FILE* file_;
};

// Streams a tensor's bytes in 4 MiB chunks.
void writeTensorData(File& out, const Tensor& t, int64_t dim) {
  Generator g(t.seed);
  const float scale = std::sqrt(3.0f / static_cast<float>(dim));
  std::vector<float> chunk(1u << 20);
  uint64_t left = t.bytes() / 4;
  while (left) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(left, chunk.size()));
    for (size_t i = 0; i < n; ++i) chunk[i] = g.next(scale);
    out.write(chunk.data(), n * 4);
    left -= n;
  }
}

std::vector<Tensor> weights(const Options& o) {
  std::vector<Tensor> list;
  for (int i = 0; i < o.layers; ++i) {
    list.push_back({"layer" + std::to_string(i) + ".weight", {o.dim, o.dim}, 2u * i + 1});
    list.push_back({"layer" + std::to_string(i) + ".bias", {o.dim}, 2u * i + 2});
  }
  return list;
}

// The model without initializers: input, LAYERS x (MatMul, Add, Gelu), output.
::onnx::ModelProto structure(const Options& o) {
  ::onnx::ModelProto model;
  model.set_ir_version(9);
  model.set_producer_name("webnn-cpp make_mlp_onnx");
  auto* opset = model.add_opset_import();
  opset->set_domain("");
  opset->set_version(20);  // Gelu
  auto* graph = model.mutable_graph();
  graph->set_name("mlp");
  auto addValue = [&](::onnx::ValueInfoProto* v, const std::string& name) {
    v->set_name(name);
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(::onnx::TensorProto::FLOAT);
    t->mutable_shape()->add_dim()->set_dim_value(1);
    t->mutable_shape()->add_dim()->set_dim_value(o.dim);
  };
  addValue(graph->add_input(), "x");
  std::string h = "x";
  for (int i = 0; i < o.layers; ++i) {
    const std::string layer = "layer" + std::to_string(i);
    auto node = [&](const char* op, std::vector<std::string> inputs, const std::string& output) {
      auto* n = graph->add_node();
      n->set_op_type(op);
      n->set_name(layer + "." + op);
      for (auto& in : inputs) n->add_input(in);
      n->add_output(output);
    };
    node("MatMul", {h, layer + ".weight"}, layer + ".matmul");
    node("Add", {layer + ".matmul", layer + ".bias"}, layer + ".add");
    h = i + 1 == o.layers ? "y" : layer + ".gelu";
    node("Gelu", {layer + ".add"}, h);
  }
  addValue(graph->add_output(), "y");
  return model;
}

void setHeader(::onnx::TensorProto& t, const Tensor& w) {
  t.set_name(w.name);
  t.set_data_type(::onnx::TensorProto::FLOAT);
  for (int64_t d : w.dims) t.add_dims(d);
}

void writeExternal(const Options& o) {
  const std::string model = o.outDir + "/mlp_external.onnx";
  const std::string location = "mlp_external.onnx.data";
  ::onnx::ModelProto proto = structure(o);
  File data(o.outDir + "/" + location);
  uint64_t offset = 0;
  for (const Tensor& w : weights(o)) {
    auto* t = proto.mutable_graph()->add_initializer();
    setHeader(*t, w);
    t->set_data_location(::onnx::TensorProto::EXTERNAL);
    auto add = [&](const char* key, const std::string& value) {
      auto* kv = t->add_external_data();
      kv->set_key(key);
      kv->set_value(value);
    };
    add("location", location);
    add("offset", std::to_string(offset));
    add("length", std::to_string(w.bytes()));
    writeTensorData(data, w, o.dim);
    offset += w.bytes();
  }
  data.close();
  File out(model);
  out.write(proto.SerializeAsString());
  out.close();
  std::printf("%s (+ %s, %llu bytes of weights)\n", model.c_str(), location.c_str(),
              static_cast<unsigned long long>(offset));
}

// Protobuf wire format helpers.
void putVarint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}
std::string lengthDelimitedHeader(int field, uint64_t length) {
  std::string out;
  putVarint(out, static_cast<uint64_t>(field) << 3 | 2);
  putVarint(out, length);
  return out;
}

void writeEmbedded(const Options& o) {
  constexpr int kModelGraph = 7, kGraphInitializer = 5, kTensorRawData = 9;
  const std::string model = o.outDir + "/mlp_embedded.onnx";
  ::onnx::ModelProto proto = structure(o);
  const std::string graphWithoutWeights = proto.graph().SerializeAsString();
  proto.clear_graph();
  const std::string modelWithoutGraph = proto.SerializeAsString();

  // Each initializer: its header fields, then the raw_data field's header; its bytes follow.
  struct Pending {
    Tensor tensor;
    std::string prefix;
  };
  std::vector<Pending> pending;
  uint64_t graphLength = graphWithoutWeights.size();
  uint64_t weightBytes = 0;
  for (const Tensor& w : weights(o)) {
    ::onnx::TensorProto t;
    setHeader(t, w);
    const std::string fields =
        t.SerializeAsString() + lengthDelimitedHeader(kTensorRawData, w.bytes());
    const uint64_t tensorLength = fields.size() + w.bytes();
    pending.push_back({w, lengthDelimitedHeader(kGraphInitializer, tensorLength) + fields});
    graphLength += pending.back().prefix.size() + w.bytes();
    weightBytes += w.bytes();
  }
  const std::string graphHeader = lengthDelimitedHeader(kModelGraph, graphLength);
  if (modelWithoutGraph.size() + graphHeader.size() + graphLength >= (2ull << 30)) {
    throw std::runtime_error("the embedded model would exceed protobuf's 2 GiB limit");
  }
  File out(model);
  out.write(modelWithoutGraph);
  out.write(graphHeader);
  out.write(graphWithoutWeights);
  for (const Pending& p : pending) {
    out.write(p.prefix);
    writeTensorData(out, p.tensor, o.dim);
  }
  out.close();
  std::printf("%s (%llu bytes of weights embedded)\n", model.c_str(),
              static_cast<unsigned long long>(weightBytes));
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Options o;
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      auto value = [&]() -> std::string {
        if (i + 1 >= argc) throw std::runtime_error(arg + " needs a value");
        return argv[++i];
      };
      if (arg == "--layers") {
        o.layers = std::stoi(value());
      } else if (arg == "--dim") {
        o.dim = std::stoll(value());
      } else if (arg == "--only") {
        const std::string only = value();
        o.external = only == "external";
        o.embedded = only == "embedded";
        if (!o.external && !o.embedded) throw std::runtime_error("--only external|embedded");
      } else if (o.outDir.empty() && arg[0] != '-') {
        o.outDir = arg;
      } else {
        throw std::runtime_error("unknown argument " + arg);
      }
    }
    if (o.outDir.empty() || o.layers < 1 || o.dim < 1) {
      std::fprintf(stderr,
                   "usage: make_mlp_onnx OUT_DIR [--layers 16] [--dim 4096] "
                   "[--only external|embedded]\n");
      return 2;
    }
    if (o.external) writeExternal(o);
    if (o.embedded) writeEmbedded(o);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "make_mlp_onnx: %s\n", e.what());
    return 1;
  }
}
