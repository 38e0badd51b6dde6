//===- TensorBuilderNN.cpp - pooling windows, matmul, conv, softmax -*- C++
//-*-//
//
// The composite part of TensorBuilder. tgc has no matmul or conv primitive:
// as in tinygrad, both become broadcasting movement ops, an elementwise mul
// and a sum, and windows (conv, pooling) are views made by `pool`, so the
// scheduler sees only index arithmetic.
//
//===----------------------------------------------------------------------===//

#include "Frontend/TensorBuilder.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include <cmath>

using namespace mlir;
using namespace mlir::tgc;

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

Value TensorBuilder::pool(Value x, ArrayRef<int64_t> kernel,
                          ArrayRef<int64_t> strides,
                          ArrayRef<int64_t> dilations) {
  if (!x)
    return {};
  int64_t n = kernel.size();
  int64_t prefix = rankOf(x) - n;
  if (prefix < 0 || (int64_t)strides.size() != n ||
      (int64_t)dilations.size() != n) {
    error() << "pooling window of rank " << n << " does not fit a tensor of "
            << "rank " << rankOf(x);
    return {};
  }
  ArrayRef<int64_t> in = shapeOf(x).drop_front(prefix);
  SmallVector<int64_t> out;
  for (int64_t i = 0; i < n; ++i) {
    int64_t span = dilations[i] * (kernel[i] - 1) + 1;
    if (kernel[i] < 1 || strides[i] < 1 || dilations[i] < 1 || span > in[i]) {
      error() << "window " << kernel[i] << " (stride " << strides[i]
              << ", dilation " << dilations[i] << ") does not fit dim "
              << prefix + i << " of size " << in[i];
      return {};
    }
    out.push_back((in[i] - span) / strides[i] + 1);
  }
  SmallVector<int64_t> lead(shapeOf(x).take_front(prefix));
  auto range = [](int64_t from, int64_t count) {
    SmallVector<int64_t> r;
    for (int64_t i = 0; i < count; ++i)
      r.push_back(from + i);
    return r;
  };
  // Result order: [lead..., out..., kernel...].
  SmallVector<int64_t> order = range(0, prefix);

  bool overlapFree = llvm::all_of(llvm::seq<int64_t>(0, n), [&](int64_t i) {
    return kernel[i] <= strides[i] && dilations[i] == 1;
  });
  if (overlapFree) {
    // Windows do not overlap: cut each dim to out*stride, split it into
    // [out, stride] and keep the first `kernel` of each stride.
    SmallVector<int64_t> begin(rankOf(x), 0), end(shapeOf(x));
    SmallVector<int64_t> low(rankOf(x), 0), high(rankOf(x), 0);
    for (int64_t i = 0; i < n; ++i) {
      int64_t want = out[i] * strides[i];
      end[prefix + i] = std::min(in[i], want);
      high[prefix + i] = std::max<int64_t>(0, want - in[i]);
    }
    x = pad(shrink(x, begin, end), low, high);
    SmallVector<int64_t> split(lead), keepEnd(lead);
    for (int64_t i = 0; i < n; ++i) {
      split.append({out[i], strides[i]});
      keepEnd.append({out[i], kernel[i]});
    }
    x = reshape(x, split);
    x = shrink(x, SmallVector<int64_t>(split.size(), 0), keepEnd);
    for (int64_t i = 0; i < n; ++i)
      order.push_back(prefix + 2 * i);
    for (int64_t i = 0; i < n; ++i)
      order.push_back(prefix + 2 * i + 1);
    return permute(x, order);
  }

  // Overlapping or dilated windows. Repeat each dim so that element
  // j = a*L + b of the repeats is x[(a*L + b) mod in] with L = in*f + d:
  // that is x[a*d + b] for kernel tap a and position b, with no wrap-around.
  // Then taking b = o*stride reads x[o*stride + a*dilation].
  SmallVector<int64_t> rowLen, repeats(prefix, 1);
  for (int64_t i = 0; i < n; ++i) {
    int64_t need = out[i] * strides[i];
    int64_t f = std::max<int64_t>(1, ceilDiv(need - dilations[i], in[i]));
    rowLen.push_back(in[i] * f + dilations[i]);
    repeats.push_back(ceilDiv(kernel[i] * rowLen[i], in[i]));
  }
  x = repeat(x, repeats);
  if (!x)
    return {};
  SmallVector<int64_t> begin(rankOf(x), 0), end(lead);
  for (int64_t i = 0; i < n; ++i)
    end.push_back(kernel[i] * rowLen[i]);
  x = shrink(x, begin, end);
  SmallVector<int64_t> rows(lead), cut(lead), strided(lead), taps(lead);
  for (int64_t i = 0; i < n; ++i) {
    rows.append({kernel[i], rowLen[i]});
    cut.append({kernel[i], out[i] * strides[i]});
    strided.append({kernel[i], out[i], strides[i]});
    taps.append({kernel[i], out[i], 1});
  }
  x = reshape(x, rows);
  x = shrink(x, SmallVector<int64_t>(rows.size(), 0), cut);
  x = reshape(x, strided);
  x = shrink(x, SmallVector<int64_t>(strided.size(), 0), taps);
  SmallVector<int64_t> windows(lead);
  for (int64_t i = 0; i < n; ++i)
    windows.append({kernel[i], out[i]});
  x = reshape(x, windows);
  for (int64_t i = 0; i < n; ++i)
    order.push_back(prefix + 2 * i + 1);
  for (int64_t i = 0; i < n; ++i)
    order.push_back(prefix + 2 * i);
  return permute(x, order);
}

std::optional<TensorBuilder::IndexRuns>
TensorBuilder::matchIndexRuns(ArrayRef<int64_t> indices) {
  int64_t m = indices.size();
  if (m == 0)
    return std::nullopt;
  auto runAt = [&](int64_t begin) {
    int64_t end = begin;
    while (end < m && indices[end] == indices[begin])
      ++end;
    return end - begin;
  };
  IndexRuns runs{indices[0], 1, 1, 0};
  int64_t first = runAt(0);
  if (first == m) {
    runs.run = m;
  } else {
    int64_t second = runAt(first);
    bool secondIsLast = first + second == m;
    runs.step = indices[first] - indices[0];
    if (first == 1 && second == 1) {
      runs.run = 1; // a progression (or, past here, nothing)
    } else if (secondIsLast && second <= first) {
      runs.run = first; // the last run may be cut short
    } else if (second >= first) {
      runs.run = second;
      runs.phase = second - first;
    } else {
      return std::nullopt;
    }
  }
  for (int64_t j = 0; j < m; ++j)
    if (indices[j] != runs.at(j))
      return std::nullopt;
  return runs;
}

Value TensorBuilder::take(Value x, int64_t axis, ArrayRef<int64_t> indices) {
  if (!x)
    return {};
  ArrayRef<int64_t> shape = shapeOf(x);
  int64_t rank = shape.size(), n = shape[axis], m = indices.size();
  for (int64_t i : indices)
    if (i < 0 || i >= n) {
      error() << "index " << i << " is out of range for dim " << axis
              << " of size " << n;
      return {};
    }
  SmallVector<int64_t> outShape(shape);
  outShape[axis] = m;
  if (m == 0)
    return stride(x, axis, 0, 0, 1);
  if (std::optional<IndexRuns> runs = matchIndexRuns(indices)) {
    // One index: that element, expanded.
    int64_t rows = runs->rowCount(m);
    if (rows == 1) {
      Value one = stride(x, axis, runs->start, 1, 1);
      return m == 1 ? one : expand(one, outShape);
    }
    // A progression is a strided slice; runs of one of its elements
    // (nearest upsampling) the slice with each element expanded `run`
    // times, the first run cut short by `phase`, the last by the end.
    Value base = stride(x, axis, runs->start, rows, runs->step);
    if (runs->run == 1)
      return base;
    SmallVector<int64_t> split(shapeOf(base)), grown, joined(shapeOf(base));
    split.insert(split.begin() + axis + 1, 1);
    grown = split;
    grown[axis + 1] = runs->run;
    joined[axis] = rows * runs->run;
    Value repeated = reshape(expand(reshape(base, split), grown), joined);
    if (joined[axis] == m)
      return repeated;
    SmallVector<int64_t> begin(rank, 0), end(joined);
    begin[axis] = runs->phase;
    end[axis] = runs->phase + m;
    return shrink(repeated, begin, end);
  }
  // One-hot: x as [A, 1, n, B], the indices as [1, m, 1, 1...] compared
  // with an arange [1, 1, n, 1...], summed over n. Written as a compare
  // with an arange, not as a constant mask, so that tgc-collapse-gather
  // makes it one load per output at the index read from the constant.
  Type element = elementTypeOf(x);
  Value values = x;
  if (element.isInteger(1)) // i1 cannot be summed; select bytes instead
    values = cast(values, builder.getIntegerType(8, false));
  SmallVector<int64_t> view(shape), indexShape(rank + 1, 1),
      rangeShape(rank + 1, 1);
  view.insert(view.begin() + axis, 1);
  indexShape[axis] = m;
  rangeShape[axis + 1] = n;
  Type indexType = builder.getIntegerType(32, true);
  SmallVector<Attribute> indexValues;
  for (int64_t i : indices)
    indexValues.push_back(builder.getIntegerAttr(indexType, i));
  Value wanted = constant(DenseElementsAttr::get(
      RankedTensorType::get({m}, indexType), indexValues));
  Value hit = eq(reshape(wanted, indexShape),
                 reshape(arange(n, indexType), rangeShape));
  Value zero = splat(elementTypeOf(values), {}, 0);
  Value picked = where(hit, reshape(values, view), zero);
  Value result = reshape(sum(picked, {axis + 1}, false), outShape);
  return cast(result, element);
}

namespace {

/// Rows of the lhs (and columns of the rhs) from which a transposed rhs is
/// worth a copy: the copy moves k * m elements, the product reads them n
/// times.
constexpr int64_t kMinTransposedRows = 8;

/// True if `b` ([..., k, m]) is a transpose of a computed tensor that puts
/// its columns apart in memory (attention's K^T: the keys [m, k] viewed
/// [k, m]). Every load of the product would then be contiguous along the
/// reduction only: vectors along it, summed lane by lane once per output.
/// A copy with the columns innermost makes the product an ordinary matmul
/// (vectors along the columns, a register tile of rows): the 128x128x64
/// products of a 256-wide transformer block's attention ran 2x faster.
/// Weights are left alone: the kernel optimizer packs those (PACK).
bool isTransposedActivation(Value b) {
  auto permute = b.getDefiningOp<PermuteOp>();
  if (!permute ||
      permute.getOrder().back() == (int64_t)permute.getOrder().size() - 1)
    return false;
  Value source = permute.getSrc();
  while (source.getDefiningOp() && isGraphMovement(source.getDefiningOp()))
    source = source.getDefiningOp()->getOperand(0);
  return !source.getDefiningOp<ConstOp>();
}

} // namespace

Value TensorBuilder::matmul(Value a, Value b) {
  if (!a || !b)
    return {};
  if (rankOf(a) == 0 || rankOf(b) == 0) {
    error() << "matmul of a scalar";
    return {};
  }
  // numpy: a 1-D lhs is a row, a 1-D rhs a column; both extra dims go away.
  bool vecA = rankOf(a) == 1, vecB = rankOf(b) == 1;
  if (vecA)
    a = reshape(a, {1, shapeOf(a)[0]});
  if (vecB)
    b = reshape(b, {shapeOf(b)[0], 1});
  ArrayRef<int64_t> sa = shapeOf(a), sb = shapeOf(b);
  int64_t n = sa[sa.size() - 2], k = sa.back();
  int64_t kb = sb[sb.size() - 2], m = sb.back();
  if (k != kb) {
    error() << "matmul of [" << n << ", " << k << "] by [" << kb << ", " << m
            << "]";
    return {};
  }
  if (n >= kMinTransposedRows && m >= kMinTransposedRows &&
      isTransposedActivation(b))
    b = contiguous(b);
  // a: [..., n, 1, k]; b: [..., m, k] -> [..., 1, m, k]; the shared axis is
  // innermost for both, then mul and sum over it.
  SmallVector<int64_t> aShape(sa.drop_back(2));
  aShape.append({n, 1, k});
  SmallVector<int64_t> order;
  for (int64_t i = 0; i + 2 < (int64_t)sb.size(); ++i)
    order.push_back(i);
  order.append({(int64_t)sb.size() - 1, (int64_t)sb.size() - 2});
  SmallVector<int64_t> bShape(sb.drop_back(2));
  bShape.append({1, m, k});
  Value lhs = reshape(a, aShape);
  Value rhs = reshape(permute(b, order), bShape);
  Value product = mul(lhs, rhs);
  Value result = sum(product, {product ? rankOf(product) - 1 : 0}, false);
  if (!result || (!vecA && !vecB))
    return result;
  SmallVector<int64_t> shape(shapeOf(result));
  if (vecB)
    shape.pop_back();
  if (vecA)
    shape.erase(shape.end() - (vecB ? 1 : 2));
  return reshape(result, shape);
}

Value TensorBuilder::cumsum(Value x, int64_t axis, bool exclusive) {
  if (!x)
    return {};
  int64_t rank = rankOf(x), n = shapeOf(x)[axis];
  if (n == 0)
    return x;
  // The axis goes last; exclusive sums shift the input by one first.
  SmallVector<int64_t> order;
  for (int64_t i = 0; i < rank; ++i)
    if (i != axis)
      order.push_back(i);
  order.push_back(axis);
  Value v = permute(x, order);
  SmallVector<int64_t> low(rank, 0), high(rank, 0);
  if (exclusive) {
    low.back() = 1;
    high.back() = -1;
    v = pad(v, low, high);
  }
  return permute(cumsumLast(v), invertPermutationVector(order));
}

Value TensorBuilder::cumsumLast(Value v) {
  int64_t rank = rankOf(v), n = shapeOf(v).back();
  SmallVector<int64_t> low(rank, 0), high(rank, 0);
  if (n <= kCumsumBlock) {
    // Window i of the padded axis covers x[i-n+1 .. i].
    low.back() = n - 1;
    Value windows = pool(pad(v, low, high), {n}, {1}, {1});
    return sum(windows, {rank}, false);
  }
  // Blocks of s elements, s about sqrt(n): each block's running sums, plus
  // the sum of all blocks before it (an exclusive running sum over the
  // blocks' totals). n * s + b * b additions instead of n * n: a row of
  // 4096 took 297 ms, ONNX Runtime 1 ms.
  int64_t s = (int64_t)std::ceil(std::sqrt((double)n));
  int64_t b = (n + s - 1) / s;
  high.back() = b * s - n;
  SmallVector<int64_t> blocked(shapeOf(v));
  blocked.back() = b;
  blocked.push_back(s);
  Value blocks = reshape(pad(v, low, high), blocked);
  Value inner = cumsumLast(blocks);
  // The blocks' totals as [.., b], their exclusive running sums, then
  // back as [.., b, 1] beside the blocks.
  Value totals = sum(blocks, {rank}, false);
  Value before = cumsum(totals, rank - 1, /*exclusive=*/true);
  SmallVector<int64_t> column(shapeOf(before));
  column.push_back(1);
  Value runs = add(inner, expand(reshape(before, column), blocked));
  SmallVector<int64_t> flat(shapeOf(v));
  flat.back() = b * s;
  SmallVector<int64_t> begin(rank, 0), end(shapeOf(v));
  return shrink(reshape(runs, flat), begin, end);
}

Value TensorBuilder::softmax(Value x, int64_t axis) {
  Value shifted = sub(x, reduceMax(x, {axis}, true));
  Value e = exp(shifted);
  // One reciprocal per row and a multiply per element rather than a
  // division per element (a fifth of a multiply's throughput): the sum is
  // at least 1 (the row's largest term is exp(0)) and at most the row's
  // length, so its reciprocal is a normal float, the product within an ulp
  // of the quotient.
  return mul(e, recip(sum(e, {axis}, true)));
}

Value TensorBuilder::logSoftmax(Value x, int64_t axis) {
  Value shifted = sub(x, reduceMax(x, {axis}, true));
  return sub(shifted, log(sum(exp(shifted), {axis}, true)));
}

Value TensorBuilder::conv(Value x, Value w, const ConvOptions &options) {
  if (!x || !w)
    return {};
  int64_t rank = rankOf(x), n = rank - 2, groups = options.groups;
  if (n < 1 || rankOf(w) != rank) {
    error() << "convolution of rank " << rank << " input by rank " << rankOf(w)
            << " weight";
    return {};
  }
  int64_t batch = shapeOf(x)[0], channels = shapeOf(x)[1];
  int64_t cout = shapeOf(w)[0], cin = shapeOf(w)[1];
  SmallVector<int64_t> kernel(shapeOf(w).drop_front(2));
  if (groups < 1 || channels != groups * cin || cout % groups != 0) {
    error() << "convolution with " << groups << " groups of " << channels
            << " input channels by a weight of " << cout << "x" << cin;
    return {};
  }
  int64_t rcout = cout / groups;

  // Channels last, the channel dims come after the spatial ones: the input
  // is permuted so before its pad (the padded copy a convolution realizes
  // is stored in that order too), and the sum comes out as [batch, out...,
  // cout]. The NCHW result is a permute of it, which the next channels-last
  // convolution's permute cancels.
  bool last = options.channelsLast;
  auto inLayout = [&](SmallVector<int64_t> front, ArrayRef<int64_t> channel,
                      ArrayRef<int64_t> spatial) {
    llvm::append_range(front, last ? spatial : channel);
    llvm::append_range(front, last ? channel : spatial);
    return front;
  };
  auto axesFrom = [](int64_t first, int64_t count) {
    return llvm::to_vector(llvm::seq<int64_t>(first, first + count));
  };
  SmallVector<int64_t> toLast = inLayout({0}, {1}, axesFrom(2, n));
  SmallVector<int64_t> toFirst = invertPermutationVector(toLast);
  Value padded =
      pad(last ? permute(x, toLast) : x, inLayout({0}, {0}, options.padLow),
          inLayout({0}, {0}, options.padHigh));
  if (last)
    padded = permute(padded, toFirst);
  Value windows = pool(padded, kernel, options.strides, options.dilations);
  if (!windows)
    return {};
  // windows: [batch, groups*cin, out..., kernel...]
  SmallVector<int64_t> out(shapeOf(windows).slice(2, n));

  // -> [batch, groups, 1, out..., cin, kernel...] (channels last: [batch,
  // out..., groups, 1, cin, kernel...])
  SmallVector<int64_t> split{batch, groups, cin};
  llvm::append_range(split, out);
  llvm::append_range(split, kernel);
  SmallVector<int64_t> order = inLayout({0}, {1}, axesFrom(3, n));
  order.push_back(2);
  llvm::append_range(order, axesFrom(3 + n, n));
  SmallVector<int64_t> xShape = inLayout({batch}, {groups, 1}, out);
  xShape.push_back(cin);
  llvm::append_range(xShape, kernel);
  Value xs = reshape(permute(reshape(windows, split), order), xShape);

  // w -> [1, groups, rcout, 1..., cin, kernel...] (channels last: [1,
  // 1..., groups, rcout, cin, kernel...])
  SmallVector<int64_t> ones(n, 1);
  SmallVector<int64_t> wShape = inLayout({1}, {groups, rcout}, ones);
  wShape.push_back(cin);
  llvm::append_range(wShape, kernel);
  Value ws = reshape(w, wShape);

  // Sum over cin and the kernel taps, the last n + 1 axes.
  Value product = mul(xs, ws);
  Value summed = sum(product, axesFrom(3 + n, n + 1), false);
  Value result = reshape(summed, inLayout({batch}, {cout}, out));
  return last ? permute(result, toFirst) : result;
}
