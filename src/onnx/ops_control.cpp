// Control flow ONNX ops that fold at import: If, when its condition is known (computed from
// shapes, or from an input fixed at import): the branch it takes is mapped in its place.
#include "onnx/errors.h"
#include "onnx/ops.h"

namespace webnn::onnx_import {
namespace {

void ifOp(Context& c) {
  const Known& condition = c.requireKnown(0, "cond");
  if (condition.size() != 1) c.failData("cond must hold one value");
  const bool taken = condition.isFloat() ? condition.number(0) != 0.0 : condition.integer(0) != 0;
  const char* name = taken ? "then_branch" : "else_branch";
  const auto* branch = c.attribute(name);
  if (!branch || !branch->has_g()) c.failData(std::string("the node has no ") + name);
  const ::onnx::GraphProto& g = branch->g();
  if (g.output_size() != static_cast<int>(c.outputCount()))
    c.failData(std::string(name) + " has " + std::to_string(g.output_size()) +
               " outputs, the node " + std::to_string(c.outputCount()));
  const ::onnx::NodeProto* node = c.node;
  c.importSubgraph(g);
  for (int i = 0; i < g.output_size(); ++i) {
    const std::string& out = node->output(i);
    if (out.empty()) continue;
    auto it = c.values.find(g.output(i).name());
    if (it == c.values.end())
      c.failData(std::string(name) + " does not compute its output " + g.output(i).name());
    c.values[out] = it->second;
  }
}

}  // namespace

void addControlOps(OpTable& t) {
  t["If"] = {ifOp};
}

}  // namespace webnn::onnx_import
