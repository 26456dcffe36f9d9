// Einsum of one or two operands onto WebNN: each operand's repeated labels become a diagonal
// (a product with an identity mask and a sum), labels no one else needs are summed out, and two
// operands meet in one batched matmul ([batch, free of a, contracted] x [batch, contracted, free of
// b]) whose result is reshaped and transposed to the output's labels. "..." stands for the leading
// axes a label does not name (the same count in every operand that has it).
#include <algorithm>
#include <map>
#include <numeric>

#include "onnx/errors.h"
#include "onnx/ops.h"
#include "onnx/shape_logic.h"

namespace webnn::onnx_import {
namespace {

// An operand with one label per axis.
struct Labeled {
  MLOperand value;
  std::string labels;
};

// A term with "..." written out as the characters '0', '1', ...: the last `own` of the
// `ellipsisRank` axes "..." stands for (right-aligned across operands).
std::string withEllipsis(const std::string& term, size_t own, size_t ellipsisRank) {
  const size_t at = term.find("...");
  if (at == std::string::npos) return term;
  std::string axes;
  for (size_t i = ellipsisRank - own; i < ellipsisRank; ++i) axes += static_cast<char>('0' + i);
  return term.substr(0, at) + axes + term.substr(at + 3);
}

MLOperand transposeTo(Context& c, const Labeled& x, const std::string& order,
                      const std::string& what) {
  if (x.labels == order) return x.value;
  std::vector<uint32_t> permutation;
  for (char label : order) permutation.push_back(static_cast<uint32_t>(x.labels.find(label)));
  return c.builder.transpose(x.value, {c.label() + "/" + what, permutation});
}

// Repeated labels become the diagonal; labels outside `keep` are summed out.
Labeled simplify(Context& c, Labeled x, const std::string& keep, const std::string& what) {
  for (size_t p = 0; p < x.labels.size(); ++p) {
    const size_t q = x.labels.find(x.labels[p], p + 1);
    if (q == std::string::npos) continue;
    const auto& shape = x.value.shape();
    if (shape[p] != shape[q]) c.failData("a repeated label spans axes of different sizes");
    Known eye;
    eye.type = isOnnxFloat(c.onnxType(0)) ? c.onnxType(0) : kFloat;
    eye.shape.assign(shape.size(), 1);
    eye.shape[p] = eye.shape[q] = shape[p];
    const uint64_t n = c.reserveKnown(eye.shape, "the diagonal mask");
    eye.floats.assign(n, 0.0);
    for (uint32_t i = 0; i < shape[p]; ++i) eye.floats[uint64_t{i} * shape[p] + i] = 1.0;
    MLReduceOptions sum;
    sum.label = c.label() + "/" + what + "_diagonal";
    sum.axes = std::vector<uint32_t>{static_cast<uint32_t>(q)};
    x.value =
        c.builder.reduceSum(c.builder.mul(x.value, c.constant(eye), {sum.label + "_mask"}), sum);
    x.labels.erase(q, 1);
    --p;  // the label may repeat once more
  }
  std::vector<uint32_t> axes;
  std::string kept;
  for (size_t i = 0; i < x.labels.size(); ++i) {
    if (keep.find(x.labels[i]) == std::string::npos)
      axes.push_back(static_cast<uint32_t>(i));
    else
      kept += x.labels[i];
  }
  if (!axes.empty()) {
    MLReduceOptions sum;
    sum.label = c.label() + "/" + what + "_sum";
    sum.axes = axes;
    x.value = c.builder.reduceSum(x.value, sum);
    x.labels = kept;
  }
  return x;
}

uint32_t product(Context& c, const std::vector<uint32_t>& dims) {
  uint64_t p = 1;
  for (uint32_t d : dims) p *= d;
  if (p > 0xffffffffu) c.failData("an intermediate shape is too large");
  return static_cast<uint32_t>(p);
}

void einsum(Context& c) {
  std::string equation;
  for (char ch : c.attrString("equation", "")) {
    if (ch != ' ') equation += ch;
  }
  const size_t arrow = equation.find("->");
  std::string left = equation.substr(0, arrow);
  std::vector<std::string> terms;
  for (size_t start = 0;;) {
    const size_t comma = left.find(',', start);
    terms.push_back(
        left.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != c.inputCount()) c.failData("the equation's terms differ from the inputs");
  if (terms.size() > 2) c.fail("Einsum of more than two operands is not supported");
  for (size_t i = 0; i < terms.size(); ++i) {
    if (!isFloatingPoint(c.dataType(i))) c.fail("Einsum of integers is not supported");
  }
  // The leading axes "..." stands for: the most any operand has.
  std::vector<size_t> own(terms.size(), 0);
  size_t ellipsisRank = 0;
  for (size_t i = 0; i < terms.size(); ++i) {
    const size_t rank = c.rank(i);
    if (terms[i].find("...") != std::string::npos) {
      if (rank + 3 < terms[i].size())
        c.failData("the equation names more axes than an operand has");
      own[i] = rank + 3 - terms[i].size();
      ellipsisRank = std::max(ellipsisRank, own[i]);
    }
  }
  if (ellipsisRank > 10) c.fail("\"...\" standing for more than 10 axes is not supported");
  std::vector<Labeled> operands;
  for (size_t i = 0; i < terms.size(); ++i) {
    Labeled x{c.input(i), withEllipsis(terms[i], own[i], ellipsisRank)};
    if (x.labels.size() != x.value.shape().size())
      c.failData("term " + std::to_string(i) + " has a label count other than its rank");
    operands.push_back(std::move(x));
  }
  // The output's labels: given, or (implicit) "..." then the labels used once, sorted.
  std::string output;
  if (arrow != std::string::npos) {
    output = withEllipsis(equation.substr(arrow + 2), ellipsisRank, ellipsisRank);
  } else {
    std::map<char, int> uses;
    for (const auto& o : operands) {
      for (char label : o.labels) ++uses[label];
    }
    for (size_t k = 0; k < ellipsisRank; ++k) output += static_cast<char>('0' + k);
    for (const auto& [label, count] : uses) {
      if (count == 1 && !(label >= '0' && label <= '9')) output += label;
    }
  }
  const std::string l = c.label();
  if (operands.size() == 1) {
    Labeled x = simplify(c, operands[0], output, "a");
    for (char label : output) {
      if (x.labels.find(label) == std::string::npos)
        c.failData("an output label is not an input's");
    }
    c.setOutput(0, transposeTo(c, x, output, "out"));
    return;
  }
  Labeled a = simplify(c, operands[0], output + operands[1].labels, "a");
  Labeled b = simplify(c, operands[1], output + a.labels, "b");
  std::string batch, freeA, freeB, contracted;
  for (char label : a.labels) {
    const bool inB = b.labels.find(label) != std::string::npos;
    const bool inOut = output.find(label) != std::string::npos;
    (inB ? (inOut ? batch : contracted) : freeA) += label;
  }
  for (char label : b.labels) {
    if (a.labels.find(label) == std::string::npos) freeB += label;
  }
  auto dims = [](const Labeled& x, const std::string& labels) {
    std::vector<uint32_t> out;
    for (char label : labels) out.push_back(x.value.shape()[x.labels.find(label)]);
    return out;
  };
  // Batch axes of size 1 on one side broadcast to the other's.
  std::vector<uint32_t> batchDims = dims(a, batch), bBatch = dims(b, batch);
  for (size_t i = 0; i < batchDims.size(); ++i) {
    if (batchDims[i] != bBatch[i] && batchDims[i] != 1 && bBatch[i] != 1)
      c.failData("batch axes of different sizes");
    batchDims[i] = std::max(batchDims[i], bBatch[i]);
  }
  auto prepare = [&](const Labeled& x, const std::string& order, const std::string& what) {
    MLOperand v = transposeTo(c, x, order, what);
    std::vector<uint32_t> shape = v.shape();
    std::copy(batchDims.begin(), batchDims.end(), shape.begin());
    if (shape != v.shape()) v = c.builder.expand(v, shape, {l + "/" + what + "_broadcast"});
    return v;
  };
  const MLOperand left3 = prepare(a, batch + freeA + contracted, "a_order");
  const MLOperand right3 = prepare(b, batch + contracted + freeB, "b_order");
  const uint32_t batchSize = product(c, batchDims), m = product(c, dims(a, freeA)),
                 k = product(c, dims(a, contracted)), n = product(c, dims(b, freeB));
  const MLOperand product3 =
      c.builder.matmul(c.builder.reshape(left3, {batchSize, m, k}, {l + "/a3"}),
                       c.builder.reshape(right3, {batchSize, k, n}, {l + "/b3"}), {l + "/matmul"});
  std::vector<uint32_t> shape = batchDims;
  for (uint32_t d : dims(a, freeA)) shape.push_back(d);
  for (uint32_t d : dims(b, freeB)) shape.push_back(d);
  Labeled result{reshapeTo(c, product3, shape), batch + freeA + freeB};
  for (char label : output) {
    if (result.labels.find(label) == std::string::npos)
      c.failData("an output label is not an input's");
  }
  c.setOutput(0, transposeTo(c, result, output, "out"));
}

}  // namespace

void addEinsumOps(OpTable& t) {
  t["Einsum"] = {einsum};
}

}  // namespace webnn::onnx_import
