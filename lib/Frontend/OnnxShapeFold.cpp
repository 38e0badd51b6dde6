//===- OnnxShapeFold.cpp - fold shape arithmetic in an ONNX graph -*- C++ -*-=//
//
// A small evaluator for the integer ops exporters use to compute shapes. It
// works on the protobuf graph, before any MLIR exists, because its results
// feed ONNX shape inference. It computes with INT32, INT64 and BOOL values
// and with FLOAT and DOUBLE ones (a Range over a float size, the trip count
// ceil((limit - start) / delta) of an expanded Range); anything else is left
// alone.
//
// Only whole-number results replace their nodes: a float result with a
// fraction stays a node of the graph, so that the compiled kernel and not
// the folder decides its numerics, but the folder keeps its value for the
// nodes that read it (a Ceil of it is whole again).
//
//===----------------------------------------------------------------------===//

#include "Frontend/OnnxShapeFold.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/bit.h"
#include <cmath>
#include <cstring>
#include <functional>
#include <optional>

using namespace mlir::tgc;
using llvm::ArrayRef;
using llvm::SmallVector;
using onnx::AttributeProto;
using onnx::NodeProto;
using onnx::TensorProto;

namespace {

/// Largest tensor the folder computes; shape arithmetic is far smaller.
constexpr int64_t kMaxFoldedElements = 4096;

/// A constant tensor, row-major. Integer and bool elements are held as
/// their values; FLOAT and DOUBLE ones as the bits of the double that holds
/// them (see realOf / laneOf), so that the ops that only move elements copy
/// lanes whatever the type.
struct Const {
  SmallVector<int64_t> dims;
  SmallVector<int64_t> values;
  int32_t dataType = TensorProto::INT64;
};

int64_t product(ArrayRef<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

bool isFloatType(int32_t dataType) {
  return dataType == TensorProto::FLOAT || dataType == TensorProto::DOUBLE;
}

bool isFoldableType(int32_t dataType) {
  return dataType == TensorProto::INT64 || dataType == TensorProto::INT32 ||
         dataType == TensorProto::BOOL || isFloatType(dataType);
}

/// The float value a lane of a FLOAT or DOUBLE tensor holds.
double realOf(int64_t lane) { return llvm::bit_cast<double>(lane); }

/// The lane that holds `v` in a tensor of float type `dataType` (rounded to
/// single precision for FLOAT, as the op computing it would).
int64_t laneOf(double v, int32_t dataType) {
  if (dataType == TensorProto::FLOAT)
    v = static_cast<float>(v);
  return llvm::bit_cast<int64_t>(v);
}

/// The largest magnitude up to which an int64 converts to double exactly.
constexpr double kMaxExactInteger = 9007199254740992.0; // 2^53

/// `v` as an integer, if it is a whole number an int64 holds exactly.
std::optional<int64_t> wholeNumber(double v) {
  // -0.0 stays out: as an integer it would lose its sign.
  if (!(std::abs(v) <= kMaxExactInteger) || v != std::trunc(v) ||
      (v == 0 && std::signbit(v)))
    return std::nullopt;
  return static_cast<int64_t>(v);
}

/// Row-major strides of `dims`.
SmallVector<int64_t> stridesOf(ArrayRef<int64_t> dims) {
  SmallVector<int64_t> strides(dims.size(), 1);
  for (int64_t i = static_cast<int64_t>(dims.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * dims[i + 1];
  return strides;
}

/// Calls `fn` with each multi-index of `dims`, in row-major order.
void forEachIndex(ArrayRef<int64_t> dims,
                  llvm::function_ref<void(ArrayRef<int64_t>)> fn) {
  int64_t total = product(dims);
  SmallVector<int64_t> index(dims.size(), 0);
  for (int64_t n = 0; n < total; ++n) {
    fn(index);
    for (int64_t i = static_cast<int64_t>(dims.size()) - 1; i >= 0; --i) {
      if (++index[i] < dims[i])
        break;
      index[i] = 0;
    }
  }
}

std::optional<Const> readTensor(const TensorProto &tensor) {
  if (!isFoldableType(tensor.data_type()) ||
      tensor.data_location() == TensorProto::EXTERNAL)
    return std::nullopt;
  Const c;
  c.dataType = tensor.data_type();
  c.dims.assign(tensor.dims().begin(), tensor.dims().end());
  if (llvm::any_of(c.dims, [](int64_t d) { return d < 0; }))
    return std::nullopt;
  int64_t count = product(c.dims);
  if (count > kMaxFoldedElements)
    return std::nullopt;
  if (isFloatType(c.dataType)) {
    SmallVector<double> values;
    bool isDouble = c.dataType == TensorProto::DOUBLE;
    size_t size = isDouble ? 8 : 4;
    if (tensor.has_raw_data()) {
      const std::string &raw = tensor.raw_data();
      if (raw.size() != static_cast<size_t>(count) * size)
        return std::nullopt;
      for (int64_t i = 0; i < count; ++i) {
        if (isDouble) {
          double v;
          std::memcpy(&v, raw.data() + 8 * i, 8);
          values.push_back(v);
        } else {
          float v;
          std::memcpy(&v, raw.data() + 4 * i, 4);
          values.push_back(v);
        }
      }
    } else if (isDouble) {
      values.assign(tensor.double_data().begin(), tensor.double_data().end());
    } else {
      values.assign(tensor.float_data().begin(), tensor.float_data().end());
    }
    for (double v : values)
      c.values.push_back(laneOf(v, c.dataType));
  } else if (tensor.has_raw_data()) {
    const std::string &raw = tensor.raw_data();
    size_t size = c.dataType == TensorProto::INT64   ? 8
                  : c.dataType == TensorProto::INT32 ? 4
                                                     : 1;
    if (raw.size() != static_cast<size_t>(count) * size)
      return std::nullopt;
    for (int64_t i = 0; i < count; ++i) {
      if (size == 8) {
        int64_t v;
        std::memcpy(&v, raw.data() + 8 * i, 8);
        c.values.push_back(v);
      } else if (size == 4) {
        int32_t v;
        std::memcpy(&v, raw.data() + 4 * i, 4);
        c.values.push_back(v);
      } else {
        c.values.push_back(raw[i] != 0);
      }
    }
  } else if (c.dataType == TensorProto::INT64) {
    c.values.assign(tensor.int64_data().begin(), tensor.int64_data().end());
  } else {
    c.values.assign(tensor.int32_data().begin(), tensor.int32_data().end());
  }
  if (static_cast<int64_t>(c.values.size()) != count)
    return std::nullopt;
  return c;
}

const AttributeProto *findAttr(const NodeProto &node, llvm::StringRef name) {
  for (const AttributeProto &attr : node.attribute())
    if (attr.name() == name)
      return &attr;
  return nullptr;
}

int64_t intAttr(const NodeProto &node, llvm::StringRef name, int64_t dflt) {
  const AttributeProto *attr = findAttr(node, name);
  return attr && attr->type() == AttributeProto::INT ? attr->i() : dflt;
}

/// Shapes broadcast the numpy way, or nullopt.
std::optional<SmallVector<int64_t>>
broadcastShapes(ArrayRef<SmallVector<int64_t>> shapes) {
  size_t rank = 0;
  for (const auto &s : shapes)
    rank = std::max(rank, s.size());
  SmallVector<int64_t> out(rank, 1);
  for (const auto &s : shapes)
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t &o = out[rank - s.size() + i];
      if (s[i] == o || s[i] == 1)
        continue;
      if (o != 1)
        return std::nullopt;
      o = s[i];
    }
  return out;
}

/// Elementwise `fn` over broadcast operands.
std::optional<Const> elementwise(
    ArrayRef<const Const *> args, int32_t resultType,
    const std::function<std::optional<int64_t>(ArrayRef<int64_t>)> &fn) {
  SmallVector<SmallVector<int64_t>> shapes;
  for (const Const *a : args)
    shapes.push_back(a->dims);
  auto dims = broadcastShapes(shapes);
  if (!dims || product(*dims) > kMaxFoldedElements)
    return std::nullopt;
  Const out;
  out.dims = *dims;
  out.dataType = resultType;
  SmallVector<SmallVector<int64_t>> strides;
  for (const Const *a : args) {
    SmallVector<int64_t> s = stridesOf(a->dims);
    SmallVector<int64_t> aligned(dims->size(), 0);
    for (size_t i = 0; i < a->dims.size(); ++i)
      if (a->dims[i] != 1)
        aligned[dims->size() - a->dims.size() + i] = s[i];
    strides.push_back(aligned);
  }
  bool ok = true;
  forEachIndex(*dims, [&](ArrayRef<int64_t> index) {
    SmallVector<int64_t> lanes;
    for (auto [a, s] : llvm::zip(args, strides)) {
      int64_t flat = 0;
      for (size_t i = 0; i < index.size(); ++i)
        flat += index[i] * s[i];
      lanes.push_back(a->values[flat]);
    }
    std::optional<int64_t> v = fn(lanes);
    if (!v)
      ok = false;
    out.values.push_back(v.value_or(0));
  });
  if (!ok)
    return std::nullopt;
  return out;
}

/// Wraps `v` to the range of integer or bool `dataType`, as a cast to it
/// would.
int64_t wrapTo(int64_t v, int32_t dataType) {
  if (dataType == TensorProto::INT32)
    return static_cast<int32_t>(v);
  if (dataType == TensorProto::BOOL)
    return v != 0;
  return v;
}

/// The value of one lane of a tensor of `dataType` as a double (for
/// comparisons and casts; int64 beyond 2^53 rounds).
double numberOf(int64_t lane, int32_t dataType) {
  return isFloatType(dataType) ? realOf(lane) : static_cast<double>(lane);
}

/// ONNX Cast of one lane from `from` to `to`; nullopt where the result is
/// undefined (NaN, infinity or out of range to an integer).
std::optional<int64_t> castLane(int64_t lane, int32_t from, int32_t to) {
  if (to == TensorProto::BOOL)
    return isFloatType(from) ? realOf(lane) != 0 : lane != 0;
  if (isFloatType(to))
    return laneOf(numberOf(lane, from), to);
  if (!isFloatType(from))
    return wrapTo(lane, to);
  double v = std::trunc(realOf(lane));
  if (!(std::abs(v) < 9.2e18))
    return std::nullopt;
  return wrapTo(static_cast<int64_t>(v), to);
}

/// Whether every element of `c` is a whole number (always, for integer
/// types): the results the folder writes back into the graph.
bool holdsWholeNumbers(const Const &c) {
  if (!isFloatType(c.dataType))
    return true;
  return llvm::all_of(c.values, [](int64_t lane) {
    double v = realOf(lane);
    return std::isfinite(v) && v == std::trunc(v);
  });
}

class Folder {
public:
  explicit Folder(onnx::GraphProto &graph) : graph(graph) {}
  int run();

private:
  void collectShapes(const onnx::ValueInfoProto &info);
  const Const *input(const NodeProto &node, int index);
  const SmallVector<int64_t> *shapeOf(const std::string &name);
  std::optional<Const> evaluate(const NodeProto &node);
  std::optional<Const> evalShape(const NodeProto &node);
  std::optional<Const> evalGather(const NodeProto &node);
  std::optional<Const> evalSlice(const NodeProto &node);
  std::optional<Const> evalConcat(const NodeProto &node);
  std::optional<Const> evalTranspose(const NodeProto &node);
  std::optional<Const> evalRange(const NodeProto &node);
  std::optional<Const> evalBinary(const NodeProto &node);
  std::optional<Const> evalReshapeLike(const NodeProto &node);

  onnx::GraphProto &graph;
  llvm::StringMap<Const> constants;
  llvm::StringMap<SmallVector<int64_t>> shapes;
};

void Folder::collectShapes(const onnx::ValueInfoProto &info) {
  if (!info.type().has_tensor_type() || !info.type().tensor_type().has_shape())
    return;
  SmallVector<int64_t> dims;
  for (const auto &dim : info.type().tensor_type().shape().dim()) {
    if (!dim.has_dim_value())
      return;
    dims.push_back(dim.dim_value());
  }
  shapes[info.name()] = dims;
}

const Const *Folder::input(const NodeProto &node, int index) {
  if (index >= node.input_size() || node.input(index).empty())
    return nullptr;
  auto it = constants.find(node.input(index));
  return it == constants.end() ? nullptr : &it->second;
}

const SmallVector<int64_t> *Folder::shapeOf(const std::string &name) {
  auto it = shapes.find(name);
  return it == shapes.end() ? nullptr : &it->second;
}

std::optional<Const> Folder::evalShape(const NodeProto &node) {
  const SmallVector<int64_t> *dims = shapeOf(node.input(0));
  if (!dims)
    return std::nullopt;
  int64_t rank = dims->size();
  auto clamp = [&](int64_t v) {
    if (v < 0)
      v += rank;
    return std::clamp<int64_t>(v, 0, rank);
  };
  int64_t start = clamp(intAttr(node, "start", 0));
  int64_t end = clamp(intAttr(node, "end", rank));
  Const out;
  for (int64_t i = start; i < end; ++i)
    out.values.push_back((*dims)[i]);
  out.dims = {static_cast<int64_t>(out.values.size())};
  return out;
}

std::optional<Const> Folder::evalGather(const NodeProto &node) {
  const Const *data = input(node, 0), *indices = input(node, 1);
  if (!data || !indices || data->dims.empty())
    return std::nullopt;
  int64_t rank = data->dims.size();
  int64_t axis = intAttr(node, "axis", 0);
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis >= rank)
    return std::nullopt;
  int64_t n = data->dims[axis];
  Const out;
  out.dataType = data->dataType;
  out.dims.append(data->dims.begin(), data->dims.begin() + axis);
  out.dims.append(indices->dims.begin(), indices->dims.end());
  out.dims.append(data->dims.begin() + axis + 1, data->dims.end());
  if (product(out.dims) > kMaxFoldedElements)
    return std::nullopt;
  int64_t outer = product(ArrayRef<int64_t>(data->dims).take_front(axis));
  int64_t inner = product(ArrayRef<int64_t>(data->dims).drop_front(axis + 1));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t idx : indices->values) {
      if (idx < 0)
        idx += n;
      if (idx < 0 || idx >= n)
        return std::nullopt;
      for (int64_t i = 0; i < inner; ++i)
        out.values.push_back(data->values[(o * n + idx) * inner + i]);
    }
  return out;
}

std::optional<Const> Folder::evalSlice(const NodeProto &node) {
  const Const *data = input(node, 0);
  if (!data)
    return std::nullopt;
  int64_t rank = data->dims.size();
  SmallVector<int64_t> starts, ends, axes, steps;
  if (node.input_size() >= 3) { // opset 10: bounds are inputs
    const Const *s = input(node, 1), *e = input(node, 2);
    if (!s || !e)
      return std::nullopt;
    starts = s->values;
    ends = e->values;
    if (node.input_size() > 3 && !node.input(3).empty()) {
      const Const *a = input(node, 3);
      if (!a)
        return std::nullopt;
      axes = a->values;
    }
    if (node.input_size() > 4 && !node.input(4).empty()) {
      const Const *st = input(node, 4);
      if (!st)
        return std::nullopt;
      steps = st->values;
    }
  } else {
    const AttributeProto *s = findAttr(node, "starts");
    const AttributeProto *e = findAttr(node, "ends");
    if (!s || !e)
      return std::nullopt;
    starts.assign(s->ints().begin(), s->ints().end());
    ends.assign(e->ints().begin(), e->ints().end());
    if (const AttributeProto *a = findAttr(node, "axes"))
      axes.assign(a->ints().begin(), a->ints().end());
  }
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i)
      axes.push_back(i);
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      steps.size() != starts.size())
    return std::nullopt;

  SmallVector<int64_t> begin(rank, 0), step(rank, 1), count(data->dims);
  for (size_t i = 0; i < starts.size(); ++i) {
    int64_t axis = axes[i] < 0 ? axes[i] + rank : axes[i];
    if (axis < 0 || axis >= rank || steps[i] == 0)
      return std::nullopt;
    int64_t dim = data->dims[axis];
    int64_t s = starts[i] < 0 ? starts[i] + dim : starts[i];
    int64_t e = ends[i] < 0 ? ends[i] + dim : ends[i];
    if (steps[i] > 0) {
      s = std::clamp<int64_t>(s, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
      count[axis] = e > s ? (e - s + steps[i] - 1) / steps[i] : 0;
    } else {
      s = std::clamp<int64_t>(s, 0, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
      count[axis] = s > e ? (s - e - steps[i] - 1) / -steps[i] : 0;
    }
    begin[axis] = s;
    step[axis] = steps[i];
  }
  Const out;
  out.dataType = data->dataType;
  out.dims = count;
  SmallVector<int64_t> strides = stridesOf(data->dims);
  forEachIndex(count, [&](ArrayRef<int64_t> index) {
    int64_t flat = 0;
    for (int64_t i = 0; i < rank; ++i)
      flat += (begin[i] + index[i] * step[i]) * strides[i];
    out.values.push_back(data->values[flat]);
  });
  return out;
}

/// Transpose by `perm` (default: the dims reversed), as exporters use to
/// reorder pads computed per dim (Swin's window padding).
std::optional<Const> Folder::evalTranspose(const NodeProto &node) {
  const Const *data = input(node, 0);
  if (!data)
    return std::nullopt;
  int64_t rank = data->dims.size();
  SmallVector<int64_t> perm;
  if (const AttributeProto *attr = findAttr(node, "perm"))
    perm.assign(attr->ints().begin(), attr->ints().end());
  else
    for (int64_t i = rank - 1; i >= 0; --i)
      perm.push_back(i);
  if ((int64_t)perm.size() != rank)
    return std::nullopt;
  SmallVector<int64_t> sorted(perm);
  llvm::sort(sorted);
  for (int64_t i = 0; i < rank; ++i)
    if (sorted[i] != i)
      return std::nullopt;
  Const out;
  out.dataType = data->dataType;
  for (int64_t axis : perm)
    out.dims.push_back(data->dims[axis]);
  SmallVector<int64_t> strides = stridesOf(data->dims);
  forEachIndex(out.dims, [&](ArrayRef<int64_t> index) {
    int64_t flat = 0;
    for (int64_t i = 0; i < rank; ++i)
      flat += index[i] * strides[perm[i]];
    out.values.push_back(data->values[flat]);
  });
  return out;
}

std::optional<Const> Folder::evalConcat(const NodeProto &node) {
  SmallVector<const Const *> parts;
  for (int i = 0; i < node.input_size(); ++i) {
    const Const *c = input(node, i);
    if (!c)
      return std::nullopt;
    parts.push_back(c);
  }
  if (parts.empty() || parts[0]->dims.empty())
    return std::nullopt;
  int64_t rank = parts[0]->dims.size();
  int64_t axis = intAttr(node, "axis", 0);
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis >= rank)
    return std::nullopt;
  Const out;
  out.dataType = parts[0]->dataType;
  out.dims = parts[0]->dims;
  out.dims[axis] = 0;
  for (const Const *p : parts) {
    if (static_cast<int64_t>(p->dims.size()) != rank)
      return std::nullopt;
    out.dims[axis] += p->dims[axis];
  }
  int64_t outer = product(ArrayRef<int64_t>(out.dims).take_front(axis));
  for (int64_t o = 0; o < outer; ++o)
    for (const Const *p : parts) {
      int64_t chunk = product(ArrayRef<int64_t>(p->dims).drop_front(axis));
      out.values.append(p->values.begin() + o * chunk,
                        p->values.begin() + (o + 1) * chunk);
    }
  return out;
}

std::optional<Const> Folder::evalRange(const NodeProto &node) {
  const Const *start = input(node, 0), *limit = input(node, 1),
              *delta = input(node, 2);
  if (!start || !limit || !delta || start->values.size() != 1 ||
      limit->values.size() != 1 || delta->values.size() != 1 ||
      delta->values[0] == 0)
    return std::nullopt;
  Const out;
  out.dataType = start->dataType;
  if (isFloatType(out.dataType)) {
    double s = realOf(start->values[0]), l = realOf(limit->values[0]),
           d = realOf(delta->values[0]);
    double count = std::ceil((l - s) / d);
    if (!(count <= kMaxFoldedElements))
      return std::nullopt;
    int64_t n = std::max<int64_t>(0, static_cast<int64_t>(count));
    out.dims = {n};
    for (int64_t i = 0; i < n; ++i)
      out.values.push_back(laneOf(s + i * d, out.dataType));
    return out;
  }
  int64_t s = start->values[0], l = limit->values[0], d = delta->values[0];
  int64_t n =
      std::max<int64_t>(0, d > 0 ? (l - s + d - 1) / d : (s - l - d - 1) / -d);
  if (n > kMaxFoldedElements)
    return std::nullopt;
  out.dims = {n};
  for (int64_t i = 0; i < n; ++i)
    out.values.push_back(s + i * d);
  return out;
}

std::optional<Const> Folder::evalBinary(const NodeProto &node) {
  llvm::StringRef op = node.op_type();
  SmallVector<const Const *> args;
  for (int i = 0; i < node.input_size(); ++i) {
    const Const *c = input(node, i);
    if (!c)
      return std::nullopt;
    args.push_back(c);
  }
  if (args.empty())
    return std::nullopt;
  int32_t type = args.back()->dataType;
  bool real = isFloatType(type);
  using Lanes = ArrayRef<int64_t>;
  using Result = std::optional<int64_t>;
  // Float operands compare by value; NaN is unordered, as in C.
  auto compare = [&](std::function<bool(int64_t, int64_t)> intFn,
                     std::function<bool(double, double)> realFn) {
    return elementwise(args, TensorProto::BOOL,
                       [=](Lanes x) -> Result {
                         return real ? realFn(realOf(x[0]), realOf(x[1]))
                                     : intFn(x[0], x[1]);
                       });
  };
  // A float op computed in double and rounded once to the type gives the
  // same result as the op in single precision for + - * /.
  auto realUnary = [&](std::function<double(double)> fn) {
    return elementwise(args, type, [=](Lanes x) -> Result {
      return laneOf(fn(realOf(x[0])), type);
    });
  };
  if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div") {
    if (args.size() != 2 || type == TensorProto::BOOL ||
        args[0]->dataType != type)
      return std::nullopt;
    if (real)
      return elementwise(args, type, [op, type](Lanes x) -> Result {
        double a = realOf(x[0]), b = realOf(x[1]);
        double r = op == "Add"   ? a + b
                   : op == "Sub" ? a - b
                   : op == "Mul" ? a * b
                                 : a / b;
        return laneOf(r, type);
      });
    return elementwise(args, type, [op, type](Lanes x) -> Result {
      int64_t a = x[0], b = x[1];
      if (op == "Add")
        return wrapTo(a + b, type);
      if (op == "Sub")
        return wrapTo(a - b, type);
      if (op == "Mul")
        return wrapTo(a * b, type);
      if (b == 0 || (a == INT64_MIN && b == -1))
        return std::nullopt;
      return wrapTo(a / b, type); // C division: toward zero
    });
  }
  if (op == "Mod") {
    // Integer Mod takes the divisor's sign (Python's %) unless fmod=1,
    // which takes the dividend's (C's fmod); float Mod needs fmod=1.
    bool fmod = intAttr(node, "fmod", 0) != 0;
    if (args.size() != 2 || type == TensorProto::BOOL ||
        args[0]->dataType != type || (real && !fmod))
      return std::nullopt;
    if (real)
      return elementwise(args, type, [type](Lanes x) -> Result {
        return laneOf(std::fmod(realOf(x[0]), realOf(x[1])), type);
      });
    return elementwise(args, type, [fmod](Lanes x) -> Result {
      int64_t a = x[0], b = x[1];
      if (b == 0 || (a == INT64_MIN && b == -1))
        return std::nullopt;
      int64_t r = a % b;
      if (!fmod && r != 0 && (r < 0) != (b < 0))
        r += b;
      return r;
    });
  }
  if (op == "Max" || op == "Min")
    return elementwise(args, type, [op, real](Lanes x) -> Result {
      int64_t r = x[0];
      for (int64_t v : x) {
        if (real && (std::isnan(realOf(v)) || std::isnan(realOf(r))))
          return std::nullopt; // NaN propagation: left to the graph
        bool less = real ? realOf(v) < realOf(r) : v < r;
        bool greater = real ? realOf(r) < realOf(v) : r < v;
        if (op == "Max" ? greater : less)
          r = v;
      }
      return r;
    });
  if (args.size() == 2 && op == "Equal")
    return compare([](int64_t a, int64_t b) { return a == b; },
                   [](double a, double b) { return a == b; });
  if (args.size() == 2 && op == "Less")
    return compare([](int64_t a, int64_t b) { return a < b; },
                   [](double a, double b) { return a < b; });
  if (args.size() == 2 && op == "Greater")
    return compare([](int64_t a, int64_t b) { return a > b; },
                   [](double a, double b) { return a > b; });
  if (args.size() == 2 && op == "LessOrEqual")
    return compare([](int64_t a, int64_t b) { return a <= b; },
                   [](double a, double b) { return a <= b; });
  if (args.size() == 2 && op == "GreaterOrEqual")
    return compare([](int64_t a, int64_t b) { return a >= b; },
                   [](double a, double b) { return a >= b; });
  if (args.size() == 2 && type == TensorProto::BOOL &&
      (op == "And" || op == "Or" || op == "Xor"))
    return elementwise(args, TensorProto::BOOL, [op](Lanes x) -> Result {
      int64_t a = x[0], b = x[1];
      return op == "And" ? (a && b) : op == "Or" ? (a || b) : (!a != !b);
    });
  if (args.size() == 1 && op == "Not" && type == TensorProto::BOOL)
    return elementwise(args, type, [](Lanes x) -> Result { return !x[0]; });
  if (args.size() == 1 && real) {
    if (op == "Neg")
      return realUnary([](double v) { return -v; });
    if (op == "Abs")
      return realUnary([](double v) { return std::abs(v); });
    if (op == "Ceil")
      return realUnary([](double v) { return std::ceil(v); });
    if (op == "Floor")
      return realUnary([](double v) { return std::floor(v); });
    if (op == "Round") // half to even, the default rounding mode
      return realUnary([](double v) { return std::nearbyint(v); });
    if (op == "Relu") // NaN stays NaN
      return realUnary([](double v) { return v < 0 ? 0.0 : v; });
    return std::nullopt;
  }
  if (args.size() == 1 && op == "Neg" && type != TensorProto::BOOL)
    return elementwise(
        args, type, [type](Lanes x) -> Result { return wrapTo(-x[0], type); });
  if (args.size() == 1 && op == "Abs" && type != TensorProto::BOOL)
    return elementwise(args, type, [type](Lanes x) -> Result {
      return wrapTo(x[0] < 0 ? -x[0] : x[0], type);
    });
  if (args.size() == 1 && op == "Relu" && type != TensorProto::BOOL)
    return elementwise(args, type,
                       [](Lanes x) -> Result { return std::max<int64_t>(x[0], 0); });
  if (args.size() == 3 && op == "Where") {
    if (args[0]->dataType != TensorProto::BOOL ||
        args[1]->dataType != args[2]->dataType)
      return std::nullopt;
    return elementwise(args, args[1]->dataType,
                       [](Lanes x) -> Result { return x[0] ? x[1] : x[2]; });
  }
  return std::nullopt;
}

/// Ops that only change the shape: the new shape is the one inference gave
/// the output.
std::optional<Const> Folder::evalReshapeLike(const NodeProto &node) {
  const Const *data = input(node, 0);
  const SmallVector<int64_t> *dims = shapeOf(node.output(0));
  if (!data || !dims || product(*dims) != product(data->dims))
    return std::nullopt;
  Const out = *data;
  out.dims = *dims;
  return out;
}

std::optional<Const> Folder::evaluate(const NodeProto &node) {
  if (!node.domain().empty() && node.domain() != "ai.onnx")
    return std::nullopt;
  if (node.output_size() != 1 || node.output(0).empty())
    return std::nullopt;
  llvm::StringRef op = node.op_type();
  if (op == "Shape")
    return evalShape(node);
  if (op == "Size") {
    const SmallVector<int64_t> *dims = shapeOf(node.input(0));
    if (!dims)
      return std::nullopt;
    Const out;
    out.values = {product(*dims)};
    return out;
  }
  if (op == "Gather")
    return evalGather(node);
  if (op == "Slice")
    return evalSlice(node);
  if (op == "Concat")
    return evalConcat(node);
  if (op == "Transpose")
    return evalTranspose(node);
  if (op == "Range")
    return evalRange(node);
  if (op == "Identity" || op == "Reshape" || op == "Squeeze" ||
      op == "Unsqueeze" || op == "Flatten")
    return evalReshapeLike(node);
  if (op == "Cast") {
    const Const *data = input(node, 0);
    int64_t to = intAttr(node, "to", 0);
    if (!data || !isFoldableType(static_cast<int32_t>(to)))
      return std::nullopt;
    Const out = *data;
    out.dataType = to;
    for (int64_t &v : out.values) {
      std::optional<int64_t> cast = castLane(v, data->dataType, out.dataType);
      if (!cast)
        return std::nullopt;
      v = *cast;
    }
    return out;
  }
  if (op == "Expand") {
    const Const *data = input(node, 0), *shape = input(node, 1);
    if (!data || !shape)
      return std::nullopt;
    Const target;
    target.dims = SmallVector<int64_t>(shape->values);
    if (llvm::any_of(target.dims, [](int64_t d) { return d < 0; }) ||
        product(target.dims) > kMaxFoldedElements)
      return std::nullopt;
    target.values.assign(product(target.dims), 0);
    return elementwise({data, &target}, data->dataType,
                       [](ArrayRef<int64_t> x) { return x[0]; });
  }
  if (op == "ConstantOfShape") {
    const Const *shape = input(node, 0);
    const AttributeProto *value = findAttr(node, "value");
    if (!shape || !value || value->type() != AttributeProto::TENSOR)
      return std::nullopt;
    std::optional<Const> fill = readTensor(value->t());
    if (!fill || fill->values.size() != 1 ||
        llvm::any_of(shape->values, [](int64_t d) { return d < 0; }) ||
        product(shape->values) > kMaxFoldedElements)
      return std::nullopt;
    Const out;
    out.dataType = fill->dataType;
    out.dims = SmallVector<int64_t>(shape->values);
    out.values.assign(product(out.dims), fill->values[0]);
    return out;
  }
  return evalBinary(node);
}

/// A Constant node that produces `c` as `output`.
NodeProto makeConstantNode(const std::string &name, const std::string &output,
                           const Const &c) {
  NodeProto node;
  node.set_name(name);
  node.set_op_type("Constant");
  node.add_output(output);
  AttributeProto *attr = node.add_attribute();
  attr->set_name("value");
  attr->set_type(AttributeProto::TENSOR);
  TensorProto *tensor = attr->mutable_t();
  tensor->set_name(output);
  tensor->set_data_type(c.dataType);
  for (int64_t d : c.dims)
    tensor->add_dims(d);
  for (int64_t v : c.values) {
    if (c.dataType == TensorProto::INT64)
      tensor->add_int64_data(v);
    else if (c.dataType == TensorProto::FLOAT)
      tensor->add_float_data(static_cast<float>(realOf(v)));
    else if (c.dataType == TensorProto::DOUBLE)
      tensor->add_double_data(realOf(v));
    else
      tensor->add_int32_data(static_cast<int32_t>(v));
  }
  return node;
}

int Folder::run() {
  for (const auto &info : graph.input())
    collectShapes(info);
  for (const auto &info : graph.value_info())
    collectShapes(info);
  for (const auto &info : graph.output())
    collectShapes(info);
  for (const TensorProto &init : graph.initializer()) {
    shapes[init.name()] =
        SmallVector<int64_t>(init.dims().begin(), init.dims().end());
    if (auto c = readTensor(init))
      constants[init.name()] = *c;
  }

  int folded = 0;
  for (int i = 0; i < graph.node_size(); ++i) {
    NodeProto &node = *graph.mutable_node(i);
    if (node.op_type() == "Constant" &&
        (node.domain().empty() || node.domain() == "ai.onnx")) {
      if (node.output_size() != 1)
        continue;
      const AttributeProto *value = findAttr(node, "value");
      if (value && value->type() == AttributeProto::TENSOR) {
        if (auto c = readTensor(value->t()))
          constants[node.output(0)] = *c;
      } else if (const AttributeProto *v = findAttr(node, "value_int")) {
        constants[node.output(0)] = Const{{}, {v->i()}, TensorProto::INT64};
      } else if (const AttributeProto *v = findAttr(node, "value_ints")) {
        Const c;
        c.values.assign(v->ints().begin(), v->ints().end());
        c.dims = {static_cast<int64_t>(c.values.size())};
        constants[node.output(0)] = c;
      }
      continue;
    }
    std::optional<Const> result = evaluate(node);
    if (!result || product(result->dims) > kMaxFoldedElements)
      continue;
    if (!holdsWholeNumbers(*result)) {
      // Known to the folder for the nodes that read it, but computed by
      // the compiled graph.
      constants[node.output(0)] = std::move(*result);
      continue;
    }
    std::string name = node.name().empty()
                           ? node.op_type() + "_" + std::to_string(i)
                           : node.name();
    std::string output = node.output(0);
    node = makeConstantNode(name, output, *result);
    shapes[output] = result->dims;
    constants[output] = std::move(*result);
    ++folded;
  }
  return folded;
}

} // namespace

int mlir::tgc::foldShapeArithmetic(onnx::GraphProto &graph) {
  return Folder(graph).run();
}

/// The integer values of `c`: its float elements only if all are whole.
static std::optional<SmallVector<int64_t>>
integerValues(const std::optional<Const> &c) {
  if (!c)
    return std::nullopt;
  if (!isFloatType(c->dataType))
    return c->values;
  SmallVector<int64_t> values;
  for (int64_t lane : c->values) {
    std::optional<int64_t> whole = wholeNumber(realOf(lane));
    if (!whole)
      return std::nullopt;
    values.push_back(*whole);
  }
  return values;
}

std::optional<SmallVector<int64_t>>
mlir::tgc::constantValues(const onnx::GraphProto &graph, llvm::StringRef name) {
  for (const TensorProto &init : graph.initializer())
    if (init.name() == name)
      return integerValues(readTensor(init));
  for (const NodeProto &node : graph.node()) {
    if (node.op_type() != "Constant" || node.output_size() != 1 ||
        node.output(0) != name)
      continue;
    if (const AttributeProto *value = findAttr(node, "value");
        value && value->type() == AttributeProto::TENSOR)
      return integerValues(readTensor(value->t()));
    if (const AttributeProto *v = findAttr(node, "value_int"))
      return SmallVector<int64_t>{v->i()};
    if (const AttributeProto *v = findAttr(node, "value_ints"))
      return SmallVector<int64_t>(v->ints().begin(), v->ints().end());
    return std::nullopt;
  }
  return std::nullopt;
}

void mlir::tgc::collectUsedNames(const onnx::GraphProto &graph,
                                 llvm::StringSet<> &used) {
  for (const NodeProto &node : graph.node()) {
    for (const std::string &input : node.input())
      used.insert(input);
    for (const AttributeProto &attr : node.attribute()) {
      if (attr.has_g())
        collectUsedNames(attr.g(), used);
      for (const onnx::GraphProto &g : attr.graphs())
        collectUsedNames(g, used);
    }
  }
  for (const auto &output : graph.output())
    used.insert(output.name());
}

void mlir::tgc::removeDeadConstants(onnx::GraphProto &graph) {
  llvm::StringSet<> used;
  collectUsedNames(graph, used);
  auto *nodes = graph.mutable_node();
  for (int i = nodes->size() - 1; i >= 0; --i) {
    const NodeProto &node = nodes->Get(i);
    if (node.op_type() == "Constant" && node.output_size() == 1 &&
        !used.contains(node.output(0)))
      nodes->DeleteSubrange(i, 1);
  }
}
