// Against the installed package: hollow constant -> build -> dispatch (throws, naming the
// constant) -> chunked writes -> dispatch (correct) -> re-fill -> dispatch (new result).
#include <webnn/webnn.h>

#include <cstdio>
#include <string>
#include <vector>

int main() {
  using namespace webnn;
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
  std::puts("install consumer: OK");
  return 0;
}
