// Writes a BERT-like transformer encoder as ONNX for the model benchmark (bench/models): input "x"
// [1, SEQ, HIDDEN] float32 (the embeddings), LAYERS x (self-attention with HEADS heads, residual,
// LayerNormalization; FFN MatMul/Add/Gelu/MatMul/Add, residual, LayerNormalization), output "y"
// [1, SEQ, HIDDEN]. Only ops the importer maps: MatMul, Add, Mul, Reshape, Transpose, Softmax,
// Gelu (opset 20), LayerNormalization. Weights are pseudo-random (xorshift64*, deterministic
// seeds), uniform in [-sqrt(3 / fan_in), sqrt(3 / fan_in)], so activations keep their scale.
//
//   make_encoder_onnx OUT.onnx [--layers 12] [--hidden 768] [--heads 12] [--ffn 3072] [--seq 128]
//
// The defaults are BERT-base's sizes (85 M weights, 340 MiB), embedded in the file.
#include <onnx/onnx_pb.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Options {
  std::string out;
  int layers = 12;
  int64_t hidden = 768;
  int64_t heads = 12;
  int64_t ffn = 3072;
  int64_t seq = 128;
};

// xorshift64*, uniform in [-scale, scale] (the same generator as make_mlp_onnx).
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

class Writer {
 public:
  explicit Writer(::onnx::GraphProto& graph) : graph_(graph) {}

  // A float32 initializer: OFFSET + uniform noise of SCALE (seeded by the tensor's index).
  std::string weight(const std::string& name, std::vector<int64_t> dims, float scale,
                     float offset = 0.0f) {
    auto* t = graph_.add_initializer();
    t->set_name(name);
    t->set_data_type(::onnx::TensorProto::FLOAT);
    int64_t n = 1;
    for (int64_t d : dims) {
      t->add_dims(d);
      n *= d;
    }
    Generator g(++seed_);
    std::string bytes(static_cast<size_t>(n) * 4, '\0');
    for (int64_t i = 0; i < n; ++i) {
      const float v = offset + g.next(scale);
      std::memcpy(bytes.data() + i * 4, &v, 4);
    }
    t->set_raw_data(std::move(bytes));
    return name;
  }

  std::string shape(const std::string& name, std::vector<int64_t> dims) {
    auto* t = graph_.add_initializer();
    t->set_name(name);
    t->set_data_type(::onnx::TensorProto::INT64);
    t->add_dims(static_cast<int64_t>(dims.size()));
    for (int64_t d : dims) t->add_int64_data(d);
    return name;
  }

  std::string scalar(const std::string& name, float value) {
    auto* t = graph_.add_initializer();
    t->set_name(name);
    t->set_data_type(::onnx::TensorProto::FLOAT);
    t->add_float_data(value);
    return name;
  }

  ::onnx::NodeProto& node(const char* op, std::vector<std::string> inputs,
                          const std::string& output) {
    auto* n = graph_.add_node();
    n->set_op_type(op);
    n->set_name(output);
    for (auto& in : inputs) n->add_input(in);
    n->add_output(output);
    return *n;
  }

  void attr(::onnx::NodeProto& n, const char* name, int64_t value) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(::onnx::AttributeProto::INT);
    a->set_i(value);
  }
  void attr(::onnx::NodeProto& n, const char* name, std::vector<int64_t> values) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(::onnx::AttributeProto::INTS);
    for (int64_t v : values) a->add_ints(v);
  }
  void attr(::onnx::NodeProto& n, const char* name, float value) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(::onnx::AttributeProto::FLOAT);
    a->set_f(value);
  }

 private:
  ::onnx::GraphProto& graph_;
  uint64_t seed_ = 0;
};

float fanIn(int64_t n) {
  return std::sqrt(3.0f / static_cast<float>(n));
}

// x @ W + b, W [in, out].
std::string linear(Writer& w, const std::string& x, const std::string& name, int64_t in,
                   int64_t out) {
  const std::string weight = w.weight(name + ".weight", {in, out}, fanIn(in));
  const std::string bias = w.weight(name + ".bias", {out}, 0.02f);
  w.node("MatMul", {x, weight}, name + ".matmul");
  w.node("Add", {name + ".matmul", bias}, name);
  return name;
}

std::string layerNorm(Writer& w, const std::string& x, const std::string& name, int64_t hidden) {
  const std::string gamma = w.weight(name + ".gamma", {hidden}, 0.05f, 1.0f);
  const std::string beta = w.weight(name + ".beta", {hidden}, 0.05f);
  auto& n = w.node("LayerNormalization", {x, gamma, beta}, name);
  w.attr(n, "axis", int64_t{-1});
  w.attr(n, "epsilon", 1e-12f);
  return name;
}

std::string encoderLayer(Writer& w, const Options& o, const std::string& x, int index) {
  const std::string p = "layer" + std::to_string(index);
  const int64_t dh = o.hidden / o.heads;
  const std::string split = w.shape(p + ".heads_shape", {1, o.seq, o.heads, dh});
  const std::string merge = w.shape(p + ".merge_shape", {1, o.seq, o.hidden});
  auto heads = [&](const char* what, std::vector<int64_t> perm) {
    const std::string y = linear(w, x, p + ".attn." + what, o.hidden, o.hidden);
    w.node("Reshape", {y, split}, y + ".split");
    w.attr(w.node("Transpose", {y + ".split"}, y + ".heads"), "perm", perm);
    return y + ".heads";
  };
  const std::string q = heads("q", {0, 2, 1, 3});  // [1, heads, seq, dh]
  const std::string k = heads("k", {0, 2, 3, 1});  // [1, heads, dh, seq]
  const std::string v = heads("v", {0, 2, 1, 3});  // [1, heads, seq, dh]
  const std::string scale = w.scalar(p + ".attn.scale", 1.0f / std::sqrt(static_cast<float>(dh)));
  w.node("MatMul", {q, k}, p + ".attn.scores");
  w.node("Mul", {p + ".attn.scores", scale}, p + ".attn.scaled");
  w.attr(w.node("Softmax", {p + ".attn.scaled"}, p + ".attn.probs"), "axis", int64_t{-1});
  w.node("MatMul", {p + ".attn.probs", v}, p + ".attn.context");
  w.attr(w.node("Transpose", {p + ".attn.context"}, p + ".attn.context_t"), "perm",
         std::vector<int64_t>{0, 2, 1, 3});
  w.node("Reshape", {p + ".attn.context_t", merge}, p + ".attn.merged");
  const std::string attn = linear(w, p + ".attn.merged", p + ".attn.out", o.hidden, o.hidden);
  w.node("Add", {attn, x}, p + ".attn.residual");
  const std::string h = layerNorm(w, p + ".attn.residual", p + ".attn.norm", o.hidden);

  const std::string up = linear(w, h, p + ".ffn.up", o.hidden, o.ffn);
  w.node("Gelu", {up}, p + ".ffn.gelu");
  const std::string down = linear(w, p + ".ffn.gelu", p + ".ffn.down", o.ffn, o.hidden);
  w.node("Add", {down, h}, p + ".ffn.residual");
  return layerNorm(w, p + ".ffn.residual", p + ".ffn.norm", o.hidden);
}

void write(const Options& o) {
  ::onnx::ModelProto model;
  model.set_ir_version(9);
  model.set_producer_name("webnn-cpp make_encoder_onnx");
  auto* opset = model.add_opset_import();
  opset->set_domain("");
  opset->set_version(20);  // Gelu
  auto* graph = model.mutable_graph();
  graph->set_name("encoder");
  auto addValue = [&](::onnx::ValueInfoProto* v, const std::string& name) {
    v->set_name(name);
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(::onnx::TensorProto::FLOAT);
    for (int64_t d : {int64_t{1}, o.seq, o.hidden}) t->mutable_shape()->add_dim()->set_dim_value(d);
  };
  addValue(graph->add_input(), "x");
  Writer w(*graph);
  std::string h = "x";
  for (int i = 0; i < o.layers; ++i) h = encoderLayer(w, o, h, i);
  w.node("Identity", {h}, "y");
  addValue(graph->add_output(), "y");

  std::ofstream out(o.out, std::ios::binary);
  if (!out || !model.SerializeToOstream(&out) || !out.flush()) {
    throw std::runtime_error("writing " + o.out + " failed");
  }
  std::printf("%s (%d layers, hidden %lld, %lld heads, FFN %lld, seq %lld)\n", o.out.c_str(),
              o.layers, static_cast<long long>(o.hidden), static_cast<long long>(o.heads),
              static_cast<long long>(o.ffn), static_cast<long long>(o.seq));
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Options o;
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      auto value = [&]() -> int64_t {
        if (i + 1 >= argc) throw std::runtime_error(arg + " needs a value");
        return std::stoll(argv[++i]);
      };
      if (arg == "--layers") {
        o.layers = static_cast<int>(value());
      } else if (arg == "--hidden") {
        o.hidden = value();
      } else if (arg == "--heads") {
        o.heads = value();
      } else if (arg == "--ffn") {
        o.ffn = value();
      } else if (arg == "--seq") {
        o.seq = value();
      } else if (o.out.empty() && arg[0] != '-') {
        o.out = arg;
      } else {
        throw std::runtime_error("unknown argument " + arg);
      }
    }
    if (o.out.empty() || o.layers < 1 || o.heads < 1 || o.hidden % o.heads != 0 || o.ffn < 1 ||
        o.seq < 1) {
      std::fprintf(stderr,
                   "usage: make_encoder_onnx OUT.onnx [--layers 12] [--hidden 768] [--heads 12] "
                   "[--ffn 3072] [--seq 128] (HIDDEN a multiple of HEADS)\n");
      return 2;
    }
    write(o);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "make_encoder_onnx: %s\n", e.what());
    return 1;
  }
}
