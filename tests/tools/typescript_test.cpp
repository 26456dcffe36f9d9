// The TypeScript declarations written from the op schema, and the generated regions they go into.
#include <gtest/gtest.h>

#include "schema/typescript.h"

namespace webnn::tools {
namespace {

TEST(TypeScriptFromSchema, EveryOpIsAMethodWithTheSpecsParameterNamesAndTypes) {
  const std::string methods = typescriptBuilderMethods();
  EXPECT_NE(methods.find("  conv2d(input: MLOperand, filter: MLOperand, options?: MLConv2dOptions)"
                         ": MLOperand;\n"),
            std::string::npos)
      << methods;
  EXPECT_NE(methods.find("  split(input: MLOperand, splits: number | number[], options?: "
                         "MLSplitOptions): MLOperand[];\n"),
            std::string::npos);
  EXPECT_NE(methods.find("  concat(inputs: MLOperand[], axis: number, options?: "
                         "MLOperatorOptions): MLOperand;\n"),
            std::string::npos);
  EXPECT_NE(methods.find("  cast(input: MLOperand, type: MLOperandDataType, "), std::string::npos);
}

TEST(TypeScriptFromSchema, OptionsAndTheEnumsTheyUseAreDeclared) {
  const std::string types = typescriptTypes();
  EXPECT_NE(types.find("export type MLInterpolationMode = 'nearest-neighbor' | 'linear';\n"),
            std::string::npos)
      << types;
  EXPECT_NE(types.find("export interface MLPadOptions extends MLOperatorOptions { mode?: "
                       "MLPaddingMode; value?: MLNumber }\n"),
            std::string::npos);
  EXPECT_NE(types.find("activations?: MLRecurrentNetworkActivation[]"), std::string::npos);
  EXPECT_EQ(types.find("label?: string }", types.find("MLArgMinMaxOptions")), std::string::npos)
      << "label is declared once, on MLOperatorOptions";
}

TEST(TypeScriptFromSchema, GeneratedRegionsAreReplacedBetweenTheirMarkers) {
  const std::string text = "before\n  // BEGIN generated: x\n  old\n  // END generated: x\nafter\n";
  EXPECT_EQ(replaceGeneratedRegion(text, "x", "  new\n"),
            "before\n  // BEGIN generated: x\n  new\n  // END generated: x\nafter\n");
  EXPECT_FALSE(replaceGeneratedRegion(text, "y", "z").has_value());
  EXPECT_FALSE(
      replaceGeneratedRegion("// END generated: x\n// BEGIN generated: x\n", "x", "").has_value());
}

}  // namespace
}  // namespace webnn::tools
