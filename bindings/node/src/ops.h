// The builder methods of the spec that take operands, by name: each converts its positional
// arguments and options dictionary as the spec's IDL types them and calls MLGraphBuilder.
#pragma once

#include <napi.h>
#include <webnn/webnn.h>

#include <string>
#include <vector>

namespace webnn::node {

// Calls builder method `name` with the JS arguments `args`; returns a NativeOperand, or an array
// of them for the methods returning sequence<MLOperand>. Throws TypeError for an unknown name.
Napi::Value callOp(Napi::Env env, MLGraphBuilder& builder, const std::string& name,
                   const Napi::Array& args);
// The names callOp knows, in the spec's order.
std::vector<std::string> opNames();

}  // namespace webnn::node
