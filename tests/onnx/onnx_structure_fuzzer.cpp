// libFuzzer target, structure-aware: inputs are serialized ONNX ModelProtos, and the custom
// mutator edits a valid graph the way a hostile model differs from a real one: input ranks and
// dimensions (0, 1, 2^32, negative, symbolic), attributes (axes, shapes, pads, steps, types, out of
// range), initializers (dims, data type, raw data length, extreme int64 values, external data),
// op types, node inputs and outputs, new nodes, the opset. Each mutant is imported, built, loaded
// and (when small) dispatched on the reference backend: it must give a webnn::Error or run.
// Built by the asan preset (WEBNN_BUILD_FUZZERS).
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "onnx/onnx_pb.h"
#include "webnn/onnx.h"
#include "webnn/webnn.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t maxSize);

namespace {

using Rng = std::minstd_rand;

const char* const kOps[] = {
    "Add",   "Mul",     "Concat",          "Gather",  "Squeeze",   "Unsqueeze", "Slice",
    "Split", "Pad",     "Reshape",         "Expand",  "Range",     "Resize",    "LSTM",
    "GRU",   "Shape",   "ConstantOfShape", "Cast",    "Transpose", "Softmax",   "MatMul",
    "Conv",  "MaxPool", "ReduceSum",       "Flatten", "Tile",      "Where",     "Identity",
    "Neg",   "Size"};
const char* const kAttributes[] = {"axis",         "axes", "perm",        "pads",  "strides",
                                   "kernel_shape", "to",   "hidden_size", "split", "num_outputs",
                                   "starts",       "ends", "shape",       "value", "allowzero"};

int64_t extreme(Rng& rng) {
  static const int64_t kValues[] = {0,
                                    1,
                                    -1,
                                    2,
                                    3,
                                    7,
                                    0x6db6db6db6db6db7,
                                    int64_t{1} << 31,
                                    int64_t{1} << 32,
                                    (int64_t{1} << 32) + 1,
                                    std::numeric_limits<int64_t>::max(),
                                    std::numeric_limits<int64_t>::min(),
                                    65536};
  if (rng() % 3 == 0) return static_cast<int64_t>(rng()) - 8;
  return kValues[rng() % std::size(kValues)];
}

template <class T>
T& any(google::protobuf::RepeatedPtrField<T>& field, Rng& rng) {
  return *field.Mutable(static_cast<int>(rng() % static_cast<unsigned>(field.size())));
}

std::string anyValueName(const onnx::GraphProto& graph, Rng& rng) {
  std::vector<std::string> names;
  for (const auto& i : graph.input()) names.push_back(i.name());
  for (const auto& i : graph.initializer()) names.push_back(i.name());
  for (const auto& n : graph.node()) {
    for (const auto& o : n.output()) names.push_back(o);
  }
  if (names.empty()) return "x";
  return names[rng() % names.size()];
}

void mutateInput(onnx::GraphProto& graph, Rng& rng) {
  if (graph.input_size() == 0) {
    auto* v = graph.add_input();
    v->set_name("x");
    v->mutable_type()->mutable_tensor_type()->set_elem_type(1);
  }
  auto* shape = any(*graph.mutable_input(), rng).mutable_type()->mutable_tensor_type();
  switch (rng() % 4) {
    case 0:
      shape->mutable_shape()->add_dim()->set_dim_value(extreme(rng));
      break;
    case 1:
      if (shape->shape().dim_size() > 0) shape->mutable_shape()->mutable_dim()->RemoveLast();
      break;
    case 2:
      if (shape->shape().dim_size() > 0)
        any(*shape->mutable_shape()->mutable_dim(), rng).set_dim_value(extreme(rng));
      break;
    default:
      shape->set_elem_type(static_cast<int32_t>(rng() % 17));
      break;
  }
}

void mutateAttribute(onnx::NodeProto& node, Rng& rng) {
  onnx::AttributeProto* a;
  if (node.attribute_size() == 0 || rng() % 3 == 0) {
    a = node.add_attribute();
    a->set_name(kAttributes[rng() % std::size(kAttributes)]);
  } else {
    a = &any(*node.mutable_attribute(), rng);
  }
  switch (rng() % 4) {
    case 0:
      a->set_type(onnx::AttributeProto::INT);
      a->set_i(extreme(rng));
      break;
    case 1: {
      a->set_type(onnx::AttributeProto::INTS);
      a->clear_ints();
      const unsigned n = rng() % 6;
      for (unsigned i = 0; i < n; ++i) a->add_ints(extreme(rng));
      break;
    }
    case 2:
      a->set_type(onnx::AttributeProto::FLOAT);
      a->set_f(rng() % 2 ? std::numeric_limits<float>::infinity() : 1e30f);
      break;
    default: {
      a->set_type(onnx::AttributeProto::TENSOR);
      auto* t = a->mutable_t();
      t->set_data_type(rng() % 2 ? 7 : 1);
      t->clear_dims();
      if (rng() % 2) t->add_dims(extreme(rng) & 0xff);
      t->clear_int64_data();
      t->add_int64_data(extreme(rng));
      break;
    }
  }
}

void mutateInitializer(onnx::GraphProto& graph, Rng& rng) {
  if (graph.initializer_size() == 0 || rng() % 4 == 0) {
    auto* t = graph.add_initializer();
    t->set_name("init" + std::to_string(graph.initializer_size()));
    t->set_data_type(7);
    const unsigned n = 1 + rng() % 4;
    t->add_dims(n);
    for (unsigned i = 0; i < n; ++i) t->add_int64_data(extreme(rng));
    return;
  }
  auto& t = any(*graph.mutable_initializer(), rng);
  switch (rng() % 6) {
    case 0:
      if (t.dims_size() > 0) t.set_dims(static_cast<int>(rng() % t.dims_size()), extreme(rng));
      break;
    case 1:
      t.add_dims(extreme(rng));
      break;
    case 2:
      t.set_data_type(static_cast<int32_t>(rng() % 17));
      break;
    case 3:
      if (t.has_raw_data()) t.mutable_raw_data()->resize(rng() % (t.raw_data().size() + 9));
      break;
    case 4:
      for (int i = 0; i < t.int64_data_size(); ++i) t.set_int64_data(i, extreme(rng));
      break;
    default: {
      t.set_data_location(onnx::TensorProto::EXTERNAL);
      t.clear_external_data();
      auto* kv = t.add_external_data();
      kv->set_key("location");
      static const char* const kLocations[] = {"data.bin", "../x", "/etc/passwd", "a\0b", ""};
      const char* location = kLocations[rng() % std::size(kLocations)];
      kv->set_value(std::string(location, location[0] == 'a' ? 3 : std::strlen(location)));
      kv = t.add_external_data();
      kv->set_key(rng() % 2 ? "offset" : "length");
      kv->set_value(rng() % 2 ? "0junk" : std::to_string(extreme(rng)));
      break;
    }
  }
}

void mutateNode(onnx::GraphProto& graph, Rng& rng) {
  if (graph.node_size() == 0 || rng() % 4 == 0) {
    auto* n = graph.add_node();
    n->set_op_type(kOps[rng() % std::size(kOps)]);
    const unsigned inputs = 1 + rng() % 3;
    for (unsigned i = 0; i < inputs; ++i) n->add_input(anyValueName(graph, rng));
    const std::string out = "n" + std::to_string(graph.node_size());
    n->add_output(out);
    graph.add_output()->set_name(out);
    return;
  }
  auto& n = any(*graph.mutable_node(), rng);
  switch (rng() % 5) {
    case 0:
      n.set_op_type(kOps[rng() % std::size(kOps)]);
      break;
    case 1:
      if (n.input_size() > 0) any(*n.mutable_input(), rng) = anyValueName(graph, rng);
      break;
    case 2:
      n.add_input(rng() % 4 ? anyValueName(graph, rng) : std::string());
      break;
    case 3:
      if (n.input_size() > 0) n.mutable_input()->RemoveLast();
      break;
    default:
      mutateAttribute(n, rng);
      break;
  }
}

void mutate(onnx::ModelProto& model, Rng& rng) {
  auto& graph = *model.mutable_graph();
  switch (rng() % 5) {
    case 0:
      mutateInput(graph, rng);
      break;
    case 1:
      mutateInitializer(graph, rng);
      break;
    case 2:
    case 3:
      mutateNode(graph, rng);
      break;
    default:
      if (model.opset_import_size() == 0) model.add_opset_import()->set_domain("");
      model.mutable_opset_import(0)->set_version(static_cast<int64_t>(rng() % 21));
      break;
  }
}

onnx::ModelProto seedModel() {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(17);
  auto* graph = model.mutable_graph();
  auto* x = graph->add_input();
  x->set_name("x");
  auto* type = x->mutable_type()->mutable_tensor_type();
  type->set_elem_type(1);
  type->mutable_shape()->add_dim()->set_dim_value(2);
  type->mutable_shape()->add_dim()->set_dim_value(3);
  auto* n = graph->add_node();
  n->set_op_type("Relu");
  n->add_input("x");
  n->add_output("y");
  graph->add_output()->set_name("y");
  return model;
}

void exercise(const std::string& path) {
  webnn::MLContext context = webnn::createContext();
  webnn::MLGraphBuilder builder(context);
  webnn::onnx::ImportOptions options;
  options.maxFoldedBytes = 64u << 20;
  options.maxTensorBytes = 64u << 20;
  auto model = webnn::onnx::importModel(path, builder, options);
  if (model.outputOperands.empty()) return;
  webnn::MLGraph graph = builder.build(model.outputOperands);
  if (model.weights) graph.loadConstants(*model.weights, {.requireAll = false});
  webnn::MLNamedTensors inputs, outputs;
  for (const auto& [name, d] : model.inputs) {
    if (d.byteLength() > (1u << 16)) return;
    inputs[name] = context.createTensor({d, false, true});
  }
  for (const auto& [name, d] : model.outputs) {
    if (d.byteLength() > (1u << 16)) return;
    outputs[name] = context.createTensor({d, true, false});
  }
  context.dispatch(graph, inputs, outputs);
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t maxSize,
                                          unsigned int seed) {
  Rng rng(seed);
  onnx::ModelProto model;
  if (!model.ParseFromArray(data, static_cast<int>(size))) {
    if (rng() % 4 != 0) return LLVMFuzzerMutate(data, size, maxSize);
    model = seedModel();
  }
  const unsigned edits = 1 + rng() % 3;
  for (unsigned i = 0; i < edits; ++i) mutate(model, rng);
  const std::string bytes = model.SerializeAsString();
  if (bytes.size() > maxSize) return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, bytes.data(), bytes.size());
  return bytes.size();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const int fd = ::memfd_create("model.onnx", MFD_CLOEXEC);
  if (fd < 0) return 0;
  size_t written = 0;
  while (written < size) {
    const ssize_t n = ::write(fd, data + written, size - written);
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
  try {
    exercise("/proc/self/fd/" + std::to_string(fd));
  } catch (const webnn::Error&) {
    // A malformed or unsupported model: a clear error is the expected outcome.
  }
  ::close(fd);
  return 0;
}
