#include "conformance/replay.h"

#include <map>
#include <optional>
#include <sstream>

#include "conformance/compare.h"
#include "conformance/op_table.h"
#include "conformance/tensor_data.h"

namespace webnn::conformance {
namespace {

std::string shapeText(const std::vector<uint32_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

// The builder's operands by name, created on first use as the harness does.
class Operands {
 public:
  Operands(MLGraphBuilder& builder, const Case& c, ConstantPath path)
      : builder_(builder), case_(c), path_(path) {}

  std::optional<MLOperand> resolve(const std::string& name) {
    if (auto it = created_.find(name); it != created_.end()) return it->second;
    if (const TensorData* input = case_.findInput(name)) {
      MLOperand operand = create(name, *input);
      created_.emplace(name, operand);
      return operand;
    }
    if (auto it = intermediates_.find(name); it != intermediates_.end()) return it->second;
    return std::nullopt;
  }
  void addIntermediate(const std::string& name, const MLOperand& operand) {
    intermediates_[name] = operand;
  }
  std::optional<MLOperand> intermediate(const std::string& name) const {
    auto it = intermediates_.find(name);
    if (it == intermediates_.end()) return std::nullopt;
    return it->second;
  }

  // Graph inputs (name -> data) and hollow constants (operand, data) created so far.
  std::map<std::string, const TensorData*> graphInputs;
  std::vector<std::pair<MLOperand, const TensorData*>> hollowConstants;

 private:
  MLOperand create(const std::string& name, const TensorData& input) {
    if (!input.constant) {
      graphInputs.emplace(name, &input);
      return builder_.input(name, input.descriptor());
    }
    if (path_ == ConstantPath::Classic) {
      const std::vector<std::byte> bytes = encodeTensor(input);
      return builder_.constant(input.descriptor(), bytes);
    }
    MLConstantOptions options;
    options.label = name;
    MLOperand operand = builder_.constant(input.descriptor(), options);
    hollowConstants.emplace_back(operand, &input);
    return operand;
  }

  MLGraphBuilder& builder_;
  const Case& case_;
  ConstantPath path_;
  std::map<std::string, MLOperand> created_;
  std::map<std::string, MLOperand> intermediates_;
};

// A failure of the library (as opposed to a mismatch of results).
struct Failure {
  std::string message;
};

// Fills a hollow constant: whole when it has one element or one byte, otherwise in two chunks
// split on an element boundary and written second half first.
void fillConstant(MLGraph& graph, const MLOperand& constant, const TensorData& data) {
  const std::vector<std::byte> bytes = encodeTensor(data);
  const uint64_t count = data.elementCount();
  const uint32_t bits = bitsPerElement(data.dataType);
  // Elements in the first chunk, kept even for 4-bit types so the split falls on a byte.
  uint64_t firstElements = count / 2;
  if (bits < 8) firstElements &= ~uint64_t{1};
  const uint64_t split = firstElements * bits / 8;
  if (count <= 1 || split == 0 || split >= bytes.size()) {
    graph.setConstantData(constant, bytes);
    return;
  }
  const std::span<const std::byte> all(bytes);
  graph.writeConstantData(constant, split, all.subspan(split));
  graph.writeConstantData(constant, 0, all.subspan(0, split));
}

std::string errorText(const std::exception& error) {
  if (const auto* webnnError = dynamic_cast<const Error*>(&error)) {
    return std::string(webnnError->name()) + ": " + webnnError->message();
  }
  return error.what();
}

}  // namespace

const char* toString(ConstantPath path) {
  return path == ConstantPath::Classic ? "classic" : "hollow";
}

ReplayResult replayCase(MLContext& context, const Case& c, ConstantPath path) {
  ReplayResult result;
  std::string stage = "graph builder";
  try {
    MLGraphBuilder builder(context);
    Operands operands(builder, c, path);
    auto resolve = [&operands](const std::string& name) { return operands.resolve(name); };

    const auto& table = opTable();
    for (const OperatorCall& call : c.operators) {
      stage = call.name;
      auto entry = table.find(call.name);
      if (entry == table.end()) throw RunnerError("no builder method named \"" + call.name + "\"");
      OpCall opCall(call, resolve);
      std::vector<MLOperand> outputs = entry->second(builder, opCall);
      if (outputs.size() != call.outputs.size()) {
        throw Failure{call.name + " returned " + std::to_string(outputs.size()) +
                      " operands, the vector names " + std::to_string(call.outputs.size())};
      }
      for (size_t i = 0; i < outputs.size(); ++i)
        operands.addIntermediate(call.outputs[i], outputs[i]);
    }

    // Outputs: every expected output, with the descriptor upstream asserts.
    MLNamedOperands graphOutputs;
    for (const auto& [name, expected] : c.expectedOutputs) {
      auto operand = operands.intermediate(name);
      if (!operand) throw RunnerError("expected output \"" + name + "\" is no operator's output");
      if (operand->dataType() != expected.dataType || operand->shape() != expected.shape) {
        throw Failure{"output \"" + name + "\" is " + toString(operand->descriptor()) +
                      ", expected " + toString(expected.descriptor())};
      }
      graphOutputs.emplace(name, *operand);
    }
    stage = "build";
    MLGraph graph = builder.build(graphOutputs);

    if (path == ConstantPath::Hollow) {
      stage = "pendingConstants";
      const size_t pending = graph.pendingConstants().size();
      if (pending != operands.hollowConstants.size()) {
        throw Failure{"after build " + std::to_string(pending) + " constants are pending, " +
                      std::to_string(operands.hollowConstants.size()) + " were declared hollow"};
      }
      stage = "setConstantData";
      for (const auto& [constant, data] : operands.hollowConstants) {
        fillConstant(graph, constant, *data);
      }
      stage = "pendingConstants";
      if (!graph.pendingConstants().empty()) {
        throw Failure{std::to_string(graph.pendingConstants().size()) +
                      " constants still pending after their data was written"};
      }
    }

    stage = "createTensor";
    MLNamedTensors inputTensors;
    for (const auto& [name, data] : operands.graphInputs) {
      MLTensorDescriptor descriptor;
      static_cast<MLOperandDescriptor&>(descriptor) = data->descriptor();
      descriptor.writable = true;
      MLTensor tensor = context.createTensor(descriptor);
      stage = "writeTensor";
      context.writeTensor(tensor, encodeTensor(*data));
      inputTensors.emplace(name, tensor);
    }
    MLNamedTensors outputTensors;
    for (const auto& [name, expected] : c.expectedOutputs) {
      MLTensorDescriptor descriptor;
      static_cast<MLOperandDescriptor&>(descriptor) = expected.descriptor();
      descriptor.readable = true;
      outputTensors.emplace(name, context.createTensor(descriptor));
    }
    stage = "dispatch";
    context.dispatch(graph, inputTensors, outputTensors);

    stage = "readTensor";
    std::ostringstream differences;
    bool allPassed = true;
    for (const auto& [name, expected] : c.expectedOutputs) {
      const std::vector<std::byte> actual = context.readTensor(outputTensors.at(name));
      const CompareResult compared = compareOutput(expected, actual, c.tolerance);
      if (compared.passed) continue;
      if (!allPassed) differences << "; ";
      allPassed = false;
      differences << "output \"" << name << "\" " << shapeText(expected.shape) << ": ";
      if (!compared.error.empty()) {
        differences << compared.error;
        continue;
      }
      const Mismatch& m = *compared.first;
      differences << compared.mismatches << " of " << compared.checked
                  << " elements differ, first [" << m.index << "] got " << m.got << ", expected "
                  << m.expected << " (distance " << m.distance << ", tolerance "
                  << describe(c.tolerance) << ")";
    }
    graph.destroy();
    result.passed = allPassed;
    result.message = differences.str();
  } catch (const Failure& failure) {
    result.message = failure.message;
  } catch (const RunnerError& error) {
    result.runnerError = true;
    result.message = std::string("runner: ") + error.what();
  } catch (const LoadError& error) {
    result.runnerError = true;
    result.message = std::string("runner: ") + error.what();
  } catch (const std::exception& error) {
    result.message = errorText(error) + " (at " + stage + ")";
    result.unsupported = isBackendLimit(error, context.backendName());
  }
  return result;
}

bool isBackendLimit(const std::exception& error, const std::string& backend) {
  const auto* webnnError = dynamic_cast<const Error*>(&error);
  if (!webnnError || backend.empty() || backend == "reference") return false;
  const std::string& message = webnnError->message();
  if (webnnError->kind() == Error::Kind::NotSupportedError) {
    return message.find("not supported by the " + backend + " backend") != std::string::npos ||
           message.find("the " + backend + " backend cannot run") != std::string::npos;
  }
  const std::string suffix = "(the " + backend + " backend)";
  return webnnError->kind() == Error::Kind::TypeError &&
         ((message.size() >= suffix.size() &&
           message.compare(message.size() - suffix.size(), suffix.size(), suffix) == 0) ||
          (message.find("maxTensorByteLength") != std::string::npos &&
           message.find("of the " + backend + " backend") != std::string::npos));
}

}  // namespace webnn::conformance
