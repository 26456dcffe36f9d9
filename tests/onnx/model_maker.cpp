#include "model_maker.h"

#include <stdlib.h>

#include <fstream>
#include <stdexcept>

namespace webnn::testing {

ModelMaker::ModelMaker(int64_t opset) {
  model.set_ir_version(8);
  auto* o = model.add_opset_import();
  o->set_domain("");
  o->set_version(opset);
  model.mutable_graph()->set_name("test");
  char pattern[] = "/tmp/webnn-onnx-test-XXXXXX";
  if (!mkdtemp(pattern)) throw std::runtime_error("mkdtemp failed");
  folder_ = pattern;
}

void ModelMaker::input(const std::string& name, const std::vector<int64_t>& shape, int32_t type) {
  auto* v = model.mutable_graph()->add_input();
  v->set_name(name);
  auto* t = v->mutable_type()->mutable_tensor_type();
  t->set_elem_type(type);
  for (int64_t d : shape) {
    auto* dim = t->mutable_shape()->add_dim();
    if (d < 0)
      dim->set_dim_param("N");
    else
      dim->set_dim_value(d);
  }
}

void ModelMaker::output(const std::string& name) {
  model.mutable_graph()->add_output()->set_name(name);
}

void ModelMaker::floats(const std::string& name, const std::vector<int64_t>& shape,
                        const std::vector<float>& values) {
  auto* t = model.mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(1);
  for (int64_t d : shape) t->add_dims(d);
  t->set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size() * 4));
}

void ModelMaker::ints(const std::string& name, const std::vector<int64_t>& values) {
  auto* t = model.mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(7);
  t->add_dims(static_cast<int64_t>(values.size()));
  t->set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size() * 8));
}

void ModelMaker::raw(const std::string& name, int32_t type, const std::vector<int64_t>& shape,
                     const std::string& bytes) {
  auto* t = model.mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(type);
  for (int64_t d : shape) t->add_dims(d);
  t->set_raw_data(bytes);
}

void ModelMaker::opset(const std::string& domain, int64_t version) {
  auto* o = model.add_opset_import();
  o->set_domain(domain);
  o->set_version(version);
}

void ModelMaker::externalFloats(const std::string& name, const std::vector<int64_t>& shape,
                                const std::string& location, uint64_t offset, uint64_t length) {
  auto* t = model.mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(1);
  for (int64_t d : shape) t->add_dims(d);
  t->set_data_location(::onnx::TensorProto::EXTERNAL);
  auto add = [&](const char* key, const std::string& value) {
    auto* kv = t->add_external_data();
    kv->set_key(key);
    kv->set_value(value);
  };
  add("location", location);
  add("offset", std::to_string(offset));
  add("length", std::to_string(length));
}

::onnx::NodeProto& ModelMaker::node(const std::string& op, const std::vector<std::string>& inputs,
                                    const std::vector<std::string>& outputs) {
  auto* n = model.mutable_graph()->add_node();
  n->set_op_type(op);
  n->set_name(op + std::to_string(model.graph().node_size()));
  for (const auto& i : inputs) n->add_input(i);
  for (const auto& o : outputs) n->add_output(o);
  return *n;
}

void ModelMaker::attr(::onnx::NodeProto& node, const std::string& name, int64_t value) {
  auto* a = node.add_attribute();
  a->set_name(name);
  a->set_type(::onnx::AttributeProto::INT);
  a->set_i(value);
}

void ModelMaker::attr(::onnx::NodeProto& node, const std::string& name, float value) {
  auto* a = node.add_attribute();
  a->set_name(name);
  a->set_type(::onnx::AttributeProto::FLOAT);
  a->set_f(value);
}

void ModelMaker::attr(::onnx::NodeProto& node, const std::string& name, const std::string& value) {
  auto* a = node.add_attribute();
  a->set_name(name);
  a->set_type(::onnx::AttributeProto::STRING);
  a->set_s(value);
}

void ModelMaker::attr(::onnx::NodeProto& node, const std::string& name,
                      const std::vector<int64_t>& values) {
  auto* a = node.add_attribute();
  a->set_name(name);
  a->set_type(::onnx::AttributeProto::INTS);
  for (int64_t v : values) a->add_ints(v);
}

std::string ModelMaker::save() {
  const std::string path = folder_ + "/model.onnx";
  std::ofstream out(path, std::ios::binary);
  if (!model.SerializeToOstream(&out)) throw std::runtime_error("serializing failed");
  return path;
}

}  // namespace webnn::testing
