//===- DecomposeTopK.cpp - ONNX TopK ----------------------------*- C++ -*-===//
//
// TopK from elementwise and movement ops: a bitonic network, as GPU top-k
// kernels run it. Sort blocks of k (rounded up to a power of two), then
// keep the better half of each pair of blocks and sort that again, until
// one block is left: about n log^2 k comparisons, each column of them one
// elementwise kernel over the axis. (Ranking every element against every
// other, one reduce, is n^2: 70 million comparisons for a detector's 8400
// boxes, billions for a vocabulary; the network was faster from n = 8 on.)
//
// Where n is much larger than k, packed keys are first narrowed to the
// groups of g neighbours whose best key is among the k best groups' bests:
// one reduce over n, a network over n / g and one over k g (bestGroups).
//
// Values of 32 bits or fewer travel packed with their index in one i64
// whose order is the output order, so a comparator is a max; wider ones
// travel beside their index and compare on both. Either way ties keep the
// lower index first, as ONNX requires, and the result is sorted whatever
// `sorted` says.
//
//===----------------------------------------------------------------------===//

#include "Frontend/Decomposition.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tgc;

namespace {

/// The elements along the axis: one or more tensors side by side, each
/// [outer, length, inner] (TopK's axis in the middle, the dims before and
/// after it flattened) or a view of that.
using Elements = SmallVector<Value, 2>;

/// How elements compare: the comparators of the network.
class Order {
public:
  virtual ~Order() = default;
  /// Scalars, one per tensor, of an element every real one is ahead of:
  /// the padding.
  virtual Elements worst() = 0;
  /// Element by element the better of `a` and `b`, then the worse; where
  /// `alternate` is not empty, the other way round in the second of the
  /// two runs whose axis it is the shape of (a broadcast [0, 1]).
  virtual std::pair<Elements, Elements>
  exchange(const Elements &a, const Elements &b,
           ArrayRef<int64_t> alternate) = 0;
  /// Only the better.
  virtual Elements better(const Elements &a, const Elements &b) = 0;
};

/// The bitonic network of one TopK node.
class BitonicTopK {
public:
  BitonicTopK(TensorBuilder &tb, int64_t outer, int64_t inner, Order &order)
      : tb(tb), outer(outer), inner(inner), order(order) {}

  /// The best `k` of `x`, in order, as [outer, k, inner].
  Elements run(Elements x, int64_t k) {
    int64_t block = llvm::PowerOf2Ceil(k);
    // Blocks come in pairs, one sorted each way.
    auto padded = [&](int64_t length) {
      return length > block ? llvm::alignTo(length, 2 * block) : block;
    };
    x = padTo(x, padded(lengthOf(x)));
    // Sort each block, the classic network: runs of s elements sorted
    // alternately best-first and best-last are, in pairs, bitonic
    // sequences that comparing at distances s, s/2, .. 1 sorts into runs of
    // 2s. Blocks end up alternately best-first and best-last.
    for (int64_t s = 2; s <= block; s *= 2)
      for (int64_t j = s / 2; j >= 1; j /= 2)
        x = exchange(x, j, /*run=*/s);
    // Halve the blocks: the better of element i of a best-first block and
    // element i of its best-last neighbour are the best `block` of the two,
    // a bitonic sequence, sorted again alternately.
    while (lengthOf(x) > block) {
      x = padTo(keepBetter(x, block), padded(lengthOf(x) / 2));
      for (int64_t j = block / 2; j >= 1; j /= 2)
        x = exchange(x, j, /*run=*/block);
    }
    Elements top;
    for (Value v : flat(x))
      top.push_back(tb.shrink(v, {0, 0, 0}, {outer, k, inner}));
    return top;
  }

private:
  /// The axis' length; a column leaves its result in the shape it
  /// compared in, [outer, groups, 2, half, inner].
  int64_t lengthOf(const Elements &x) {
    int64_t count = 1;
    for (int64_t dim : TensorBuilder::shapeOf(x[0]))
      count *= dim;
    return count / (outer * inner);
  }

  Elements flat(const Elements &x) {
    Elements result;
    for (Value v : x)
      result.push_back(tb.reshape(v, {outer, lengthOf(x), inner}));
    return result;
  }

  Elements padTo(const Elements &x, int64_t length) {
    int64_t extra = length - lengthOf(x);
    if (extra == 0)
      return x;
    Elements result = flat(x);
    for (auto [v, fill] : llvm::zip(result, order.worst()))
      v = tb.pad(v, {0, 0, 0}, {0, extra, 0}, fill);
    return result;
  }

  /// Part 0 and part 1 of `x` viewed as `view`, along `axis`.
  std::pair<Elements, Elements> halves(const Elements &x,
                                       ArrayRef<int64_t> view, int64_t axis) {
    SmallVector<int64_t> begin(view.size(), 0), end(view);
    Elements a, b;
    for (Value v : x) {
      Value viewed = tb.reshape(v, view);
      end[axis] = 1;
      a.push_back(tb.shrink(viewed, begin, end));
      begin[axis] = 1;
      end[axis] = 2;
      b.push_back(tb.shrink(viewed, begin, end));
      begin[axis] = 0;
    }
    return {a, b};
  }

  /// One column of comparators: in every group of 2 * half elements,
  /// element i of the first half meets element i of the second, and the
  /// better goes first in runs 0, 2, 4, .. of `run` elements, last in the
  /// others. Realized, since each element is read by two comparators of
  /// the next column; in the shape compared in, so that the kernel loops
  /// over the halves rather than dividing a flat index.
  Elements exchange(const Elements &x, int64_t half, int64_t run) {
    int64_t length = lengthOf(x);
    SmallVector<int64_t> view, alternate;
    int64_t axis;
    if (run < length) {
      // [outer, pairs of runs, 2 runs, groups in a run, 2, half, inner]
      view = {outer, length / (2 * run), 2, run / (2 * half), 2, half, inner};
      alternate = {1, 1, 2, 1, 1, 1, 1};
      axis = 4;
    } else {
      view = {outer, length / (2 * half), 2, half, inner};
      axis = 2;
    }
    auto [a, b] = halves(x, view, axis);
    auto [first, second] = order.exchange(a, b, alternate);
    Elements result;
    for (auto [u, v] : llvm::zip(first, second))
      result.push_back(tb.contiguous(tb.concat({u, v}, axis)));
    return result;
  }

  /// The better of each pair of `exchange`, the second halves dropped.
  Elements keepBetter(const Elements &x, int64_t half) {
    auto [a, b] =
        halves(x, {outer, lengthOf(x) / (2 * half), 2, half, inner}, 2);
    Elements result;
    for (Value v : order.better(a, b))
      result.push_back(tb.contiguous(v));
    return result;
  }

  TensorBuilder &tb;
  int64_t outer, inner;
  Order &order;
};

/// [0, on] of `element`, shaped `alternate` (Order::exchange).
Value alternation(TensorBuilder &tb, Type element, ArrayRef<int64_t> alternate,
                  int64_t on) {
  unsigned width = element.getIntOrFloatBitWidth();
  auto pair = DenseElementsAttr::get(
      RankedTensorType::get({2}, element),
      {APInt(width, 0), APInt(width, on, /*isSigned=*/true)});
  return tb.reshape(tb.constant(pair), alternate);
}

/// Values of 32 bits or fewer packed with their index into one i64 key
/// (encodeKeys), the better the greater: a comparator is a max and two
/// xors, no comparison or select, so it vectorizes like arithmetic.
class KeyOrder : public Order {
public:
  explicit KeyOrder(TensorBuilder &tb) : tb(tb) {}

  Elements worst() override {
    return {tb.lowest(tb.getBuilder().getIntegerType(64, true), {})};
  }

  std::pair<Elements, Elements> exchange(const Elements &a, const Elements &b,
                                         ArrayRef<int64_t> alternate) override {
    // Complementing both keys reverses their order: in best-last runs the
    // max of the complements, complemented back, is the lesser key. The
    // other key is what is left of a ^ b.
    Value u = a[0], v = b[0];
    Value flip;
    if (!alternate.empty()) {
      flip = alternation(tb, TensorBuilder::elementTypeOf(u), alternate, -1);
      u = tb.logicalXor(u, flip);
      v = tb.logicalXor(v, flip);
    }
    Value first = tb.max(u, v);
    if (flip)
      first = tb.logicalXor(first, flip);
    Value second = tb.logicalXor(tb.logicalXor(a[0], b[0]), first);
    return {{first}, {second}};
  }

  Elements better(const Elements &a, const Elements &b) override {
    return {tb.max(a[0], b[0])};
  }

private:
  TensorBuilder &tb;
};

/// Values of any type beside their indices (si64), compared on both: the
/// greater (or smaller) value first, the lower index on ties.
class PairOrder : public Order {
public:
  PairOrder(TensorBuilder &tb, bool largest, Type element, int64_t n)
      : tb(tb), largest(largest), element(element), n(n) {}

  Elements worst() override {
    Type si64 = tb.getBuilder().getIntegerType(64, /*isSigned=*/true);
    return {largest ? tb.lowest(element, {}) : tb.highest(element, {}),
            tb.splat(si64, {}, static_cast<double>(n))};
  }

  std::pair<Elements, Elements> exchange(const Elements &a, const Elements &b,
                                         ArrayRef<int64_t> alternate) override {
    Value aFirst = ahead(a, b);
    if (!alternate.empty())
      aFirst = tb.logicalXor(
          aFirst, alternation(tb, tb.getBuilder().getI1Type(), alternate, 1));
    return {select(aFirst, a, b), select(aFirst, b, a)};
  }

  Elements better(const Elements &a, const Elements &b) override {
    return select(ahead(a, b), a, b);
  }

private:
  Value ahead(const Elements &a, const Elements &b) {
    Value better = largest ? tb.gt(a[0], b[0]) : tb.lt(a[0], b[0]);
    Value tie = tb.logicalAnd(tb.eq(a[0], b[0]), tb.lt(a[1], b[1]));
    return tb.logicalOr(better, tie);
  }

  Elements select(Value cond, const Elements &a, const Elements &b) {
    return {tb.where(cond, a[0], b[0]), tb.where(cond, a[1], b[1])};
  }

  TensorBuilder &tb;
  bool largest;
  Type element;
  int64_t n;
};

/// Whether TopK's values fit a packed key: 32 bits or fewer that order as
/// a signed 32-bit integer once mapped.
bool fitsKey(Type element) {
  if (element.isF32())
    return true;
  auto integer = dyn_cast<IntegerType>(element);
  return integer && (integer.getWidth() < 32 ||
                     (integer.getWidth() == 32 && !integer.isUnsigned()));
}

/// f32 bits as a signed integer that orders like the float: positive
/// floats' bits already do; a negative float's magnitude bits are flipped,
/// and negative ones moved up by one, onto -0.0's place, so that -0.0 and
/// 0.0 are equal (and tie on their index), as they compare.
Value orderFloatBits(TensorBuilder &tb, Value bits) {
  Value sign = tb.shr(bits, tb.splatLike(bits, 31)); // -1 or 0
  Value ordered =
      tb.logicalXor(bits, tb.logicalAnd(sign, tb.splatLike(bits, 0x7fffffff)));
  return tb.sub(ordered, sign);
}

/// The inverse of orderFloatBits, but for -0.0, which comes back as 0.0.
Value floatBitsOf(TensorBuilder &tb, Value ordered) {
  Value sign = tb.shr(ordered, tb.splatLike(ordered, 31));
  Value bits = tb.add(ordered, sign);
  return tb.logicalXor(bits,
                       tb.logicalAnd(sign, tb.splatLike(bits, 0x7fffffff)));
}

/// Each element as one i64 whose order is the output order, so that a
/// comparator is a max (KeyOrder): the value mapped
/// to a signed 32-bit integer that orders like it (complemented for the
/// smallest) above the complement of the index (the lower index first on
/// ties). `positions` (si64) broadcasts to `x`.
Value encodeKeys(TensorBuilder &tb, Value x, Value positions, bool largest) {
  Type si32 = tb.getBuilder().getIntegerType(32, /*isSigned=*/true);
  Type si64 = tb.getBuilder().getIntegerType(64, /*isSigned=*/true);
  Value ordered = TensorBuilder::elementTypeOf(x).isF32()
                      ? orderFloatBits(tb, tb.bitcast(x, si32))
                      : x;
  ordered = tb.cast(ordered, si64);
  if (!largest)
    ordered = tb.logicalXor(ordered, tb.splatLike(ordered, -1));
  Value lowBits = tb.splatLike(positions, 0xffffffff);
  return tb.logicalOr(tb.shl(ordered, tb.splatLike(ordered, 32)),
                      tb.sub(lowBits, positions));
}

/// The index that `encodeKeys` packed into each key (si64).
Value indexOfKeys(TensorBuilder &tb, Value keys) {
  Value lowBits = tb.splatLike(keys, 0xffffffff);
  return tb.sub(lowBits, tb.logicalAnd(keys, lowBits));
}

/// The values and indices that `encodeKeys` packed.
std::pair<Value, Value> decodeKeys(TensorBuilder &tb, Value keys, Type element,
                                   Type indexType, bool largest) {
  Type si32 = tb.getBuilder().getIntegerType(32, /*isSigned=*/true);
  Value ordered = tb.shr(keys, tb.splatLike(keys, 32));
  if (!largest)
    ordered = tb.logicalXor(ordered, tb.splatLike(ordered, -1));
  Value values =
      element.isF32()
          ? tb.bitcast(floatBitsOf(tb, tb.cast(ordered, si32)), element)
          : tb.cast(ordered, element);
  return {values, tb.cast(indexOfKeys(tb, keys), indexType)};
}

Value bestKeys(TensorBuilder &tb, KeyOrder &order, Value keys, int64_t outer,
               int64_t n, int64_t inner, int64_t k, unsigned shift);

/// The keys of the groups of `group` neighbours whose best key is among
/// the k best groups' bests, as [outer, k * group, inner] (padded with
/// the worst key), or nullopt where that would not save much. Every one of
/// the k best keys is in such a group: its group's best is at least as
/// good, and a group left out has k distinct keys better than its best.
/// Keys are distinct (they hold their index), so there are no ties. A
/// key's place along `keys` is its index >> `shift` (the bests of groups
/// of 2^shift keys are in their groups' order), so its group's number is
/// that over `group`; the gather that reads the chosen groups is the
/// one-hot that CollapseGather makes an indexed load.
std::optional<Value> bestGroups(TensorBuilder &tb, KeyOrder &order, Value keys,
                                int64_t outer, int64_t n, int64_t inner,
                                int64_t k, unsigned shift) {
  // The group size that keeps the two networks' lengths, n / g + k g,
  // smallest; worth it when they are well below n.
  int64_t group = 0, best = n;
  for (int64_t g = 4; g * k < n; g *= 2)
    if (int64_t cost = llvm::divideCeil(n, g) + k * g; cost < best) {
      best = cost;
      group = g;
    }
  if (group == 0 || best * 4 > n)
    return std::nullopt;
  int64_t groups = llvm::divideCeil(n, group);
  Value padded =
      tb.pad(keys, {0, 0, 0}, {0, groups * group - n, 0}, order.worst()[0]);
  Value grouped = tb.reshape(padded, {outer, groups, group, inner});
  Value bests = tb.reshape(tb.reduceMax(grouped, {2}, /*keepdim=*/false),
                           {outer, groups, inner});
  // Every group holds a real key, so the k best bests are real ones.
  unsigned groupShift = shift + llvm::Log2_64(group);
  Value top = bestKeys(tb, order, bests, outer, groups, inner, k, groupShift);
  Value position = indexOfKeys(tb, top);
  Value chosen = tb.shr(position, tb.splatLike(position, groupShift));
  Type si64 = TensorBuilder::elementTypeOf(keys);
  // A constant arange, not one by digits: CollapseGather recognizes it,
  // and it leaves the package with the one-hot.
  Value hit = tb.eq(tb.reshape(chosen, {outer, k, 1, 1, inner}),
                    tb.reshape(tb.arange(groups, si64), {1, 1, groups, 1, 1}));
  Value candidates = tb.sum(
      tb.where(hit, tb.reshape(grouped, {outer, 1, groups, group, inner}),
               tb.splat(si64, {}, 0)),
      {2}, /*keepdim=*/false);
  return tb.reshape(candidates, {outer, k * group, inner});
}

/// The k best of `keys` ([outer, n, inner], a key's place its index >>
/// `shift`), in order: the bitonic network, over the best groups' keys
/// where there are many more than k (and over the best groups' bests'
/// groups' .. where there are still).
Value bestKeys(TensorBuilder &tb, KeyOrder &order, Value keys, int64_t outer,
               int64_t n, int64_t inner, int64_t k, unsigned shift) {
  if (std::optional<Value> candidates =
          bestGroups(tb, order, keys, outer, n, inner, k, shift))
    keys = *candidates;
  return BitonicTopK(tb, outer, inner, order).run({keys}, k)[0];
}

std::pair<Value, Value> topKByNetwork(TensorBuilder &tb, Value x, int64_t axis,
                                      int64_t k, bool largest, Type indexType) {
  ArrayRef<int64_t> shape = TensorBuilder::shapeOf(x);
  int64_t n = shape[axis], outer = 1, inner = 1;
  for (int64_t i = 0; i < axis; ++i)
    outer *= shape[i];
  for (int64_t i = axis + 1; i < static_cast<int64_t>(shape.size()); ++i)
    inner *= shape[i];
  Type element = TensorBuilder::elementTypeOf(x);
  x = tb.reshape(x, {outer, n, inner});
  SmallVector<int64_t> resultShape(shape);
  resultShape[axis] = k;

  Type si64 = tb.getBuilder().getIntegerType(64, /*isSigned=*/true);
  // Below 2^32 positions every key is above the padding (INT64_MIN).
  if (fitsKey(element) && n < (int64_t{1} << 32)) {
    KeyOrder order(tb);
    // Realized, since the first column reads each key twice, in rows of
    // 16: a row's positions are one 16-element constant plus the row's
    // start, no division of a flat index. The few keys past the axis go.
    int64_t rows = llvm::divideCeil(n, 16);
    Value rowStarts =
        tb.reshape(tb.mul(tb.arangeByDigits(rows, si64), 16), {1, rows, 1, 1});
    Value positions =
        tb.add(rowStarts, tb.reshape(tb.arange(16, si64), {1, 1, 16, 1}));
    Value xRows = tb.reshape(tb.pad(x, {0, 0, 0}, {0, rows * 16 - n, 0}),
                             {outer, rows, 16, inner});
    Value keys =
        tb.reshape(tb.contiguous(encodeKeys(tb, xRows, positions, largest)),
                   {outer, rows * 16, inner});
    keys = tb.shrink(keys, {0, 0, 0}, {outer, n, inner});
    Value top = bestKeys(tb, order, keys, outer, n, inner, k, /*shift=*/0);
    auto [values, indices] = decodeKeys(tb, top, element, indexType, largest);
    return {tb.reshape(values, resultShape), tb.reshape(indices, resultShape)};
  }
  PairOrder order(tb, largest, element, n);
  Value positions = tb.expand(tb.reshape(tb.arangeByDigits(n, si64), {1, n, 1}),
                              {outer, n, inner});
  Elements top = BitonicTopK(tb, outer, inner, order).run({x, positions}, k);
  return {tb.reshape(top[0], resultShape),
          tb.reshape(tb.cast(top[1], indexType), resultShape)};
}

LogicalResult decomposeTopK(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X");
  bool largest = ctx.intAttr("largest", 1) != 0;
  ctx.intAttr("sorted", 1); // the result is always sorted
  int64_t axisAttr = ctx.intAttr("axis", -1);
  std::optional<int64_t> kAttr;
  if (ctx.opset() < 10) {
    kAttr = ctx.intAttr("k", -1);
  } else {
    ctx.requiredInput(1, "K");
    auto given = ctx.constInts(1, "K");
    if (failed(given) || !*given)
      return failure();
    if ((*given)->size() != 1) {
      ctx.error() << "K must hold one value";
      return failure();
    }
    kAttr = (**given)[0];
  }
  if (!x)
    return failure();
  TensorBuilder &tb = ctx.tb();
  auto axis = ctx.normalizeAxis(axisAttr, TensorBuilder::rankOf(x));
  if (failed(axis))
    return failure();
  int64_t n = TensorBuilder::shapeOf(x)[*axis], k = *kAttr;
  if (k < 0 || k > n) {
    ctx.error() << "K = " << k << " is not in [0, " << n << "]";
    return failure();
  }
  Type indexType = ctx.numResults() > 1
                       ? ctx.resultType(1).getElementType()
                       : tb.getBuilder().getIntegerType(64, /*isSigned=*/true);
  Value values, indices;
  if (k == 0) {
    SmallVector<int64_t> empty(TensorBuilder::shapeOf(x));
    empty[*axis] = 0;
    values = tb.splat(TensorBuilder::elementTypeOf(x), empty, 0);
    indices = tb.splat(indexType, empty, 0);
  } else {
    std::tie(values, indices) =
        topKByNetwork(tb, x, *axis, k, largest, indexType);
  }
  ctx.setResult(0, values);
  if (ctx.numResults() > 1)
    ctx.setResult(1, indices);
  return success();
}

} // namespace

void mlir::tgc::addTopKDecompositions(DecompositionTable &table) {
  table["TopK"] = decomposeTopK;
}
