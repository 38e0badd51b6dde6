//===- DecomposeNN.cpp - matmul, conv, pooling, norms, softmax --*- C++ -*-===//
//
// The neural-network ops. None has a primitive of its own: MatMul and Gemm
// are broadcast + mul + sum, Conv and pooling go through the window view of
// TensorBuilder::pool, the normalizations are reductions and elementwise ops.
//
//===----------------------------------------------------------------------===//

#include "Frontend/Decomposition.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"

using namespace mlir;
using namespace mlir::tgc;

namespace {

LogicalResult decomposeMatMul(NodeContext &ctx) {
  Value a = ctx.requiredInput(0, "A"), b = ctx.requiredInput(1, "B");
  if (!a || !b)
    return failure();
  ctx.setResult(0, ctx.tb().matmul(a, b));
  return success();
}

/// Y = alpha * A' B' + beta * C
LogicalResult decomposeGemm(NodeContext &ctx) {
  Value a = ctx.requiredInput(0, "A"), b = ctx.requiredInput(1, "B");
  Value c = ctx.input(2);
  double alpha = ctx.floatAttr("alpha", 1.0f);
  double beta = ctx.floatAttr("beta", 1.0f);
  bool transA = ctx.intAttr("transA", 0) != 0;
  bool transB = ctx.intAttr("transB", 0) != 0;
  // Before opset 7: whether C may broadcast; numpy broadcasting covers both.
  ctx.intAttr("broadcast", 0);
  if (!a || !b)
    return failure();
  TensorBuilder &tb = ctx.tb();
  if (TensorBuilder::rankOf(a) != 2 || TensorBuilder::rankOf(b) != 2) {
    ctx.error() << "A and B must be matrices";
    return failure();
  }
  if (transA)
    a = tb.permute(a, {1, 0});
  if (transB)
    b = tb.permute(b, {1, 0});
  Value y = tb.matmul(a, b);
  if (alpha != 1.0)
    y = tb.mul(y, alpha);
  if (c)
    y = tb.add(y, beta == 1.0 ? c : tb.mul(c, beta));
  ctx.setResult(0, y);
  return success();
}

/// Padding of the spatial dims from `pads` / `auto_pad`, for input dims
/// `in`, kernel, strides and dilations.
FailureOr<std::pair<SmallVector<int64_t>, SmallVector<int64_t>>>
spatialPads(NodeContext &ctx, ArrayRef<int64_t> in, ArrayRef<int64_t> kernel,
            ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations) {
  size_t n = in.size();
  SmallVector<int64_t> low(n, 0), high(n, 0);
  std::string autoPad = ctx.strAttr("auto_pad", "NOTSET");
  std::optional<SmallVector<int64_t>> pads = ctx.intsAttr("pads");
  if (autoPad == "NOTSET") {
    if (pads) {
      if (pads->size() != 2 * n) {
        ctx.error() << "'pads' has " << pads->size() << " values for " << n
                    << " spatial dims";
        return failure();
      }
      for (size_t i = 0; i < n; ++i) {
        low[i] = (*pads)[i];
        high[i] = (*pads)[n + i];
      }
    }
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    // Output size ceil(in / stride); the odd pad goes at the end (UPPER)
    // or the beginning (LOWER).
    for (size_t i = 0; i < n; ++i) {
      int64_t out = (in[i] + strides[i] - 1) / strides[i];
      int64_t total =
          std::max<int64_t>(0, (out - 1) * strides[i] +
                                   (kernel[i] - 1) * dilations[i] + 1 - in[i]);
      int64_t small = total / 2;
      low[i] = autoPad == "SAME_UPPER" ? small : total - small;
      high[i] = total - low[i];
    }
  } else if (autoPad != "VALID") {
    ctx.error() << "auto_pad '" << autoPad << "' is not supported";
    return failure();
  }
  return std::make_pair(low, high);
}

/// An attribute with one value per spatial dim, defaulting to `dflt`.
FailureOr<SmallVector<int64_t>> perDim(NodeContext &ctx, StringRef name,
                                       size_t n, int64_t dflt) {
  std::optional<SmallVector<int64_t>> values = ctx.intsAttr(name);
  if (!values)
    return SmallVector<int64_t>(n, dflt);
  if (values->size() != n) {
    ctx.error() << "'" << name << "' has " << values->size() << " values for "
                << n << " spatial dims";
    return failure();
  }
  return *values;
}

/// Checks that every one of `params` is 1-D of the channel count of `x`.
LogicalResult checkPerChannel(NodeContext &ctx, Value x,
                              ArrayRef<Value> params) {
  if (TensorBuilder::rankOf(x) < 2) {
    ctx.error() << "needs an input with a channel dim";
    return failure();
  }
  int64_t channels = TensorBuilder::shapeOf(x)[1];
  for (Value param : params)
    if (TensorBuilder::typeOf(param).getShape() !=
        ArrayRef<int64_t>(channels)) {
      ctx.error() << "per-channel parameters must have the shape [" << channels
                  << "] (one value per channel), not "
                  << TensorBuilder::typeOf(param);
      return failure();
    }
  return success();
}

/// `param` of shape [C] reshaped to [C, 1, ...] so that it broadcasts over
/// the channel dim of a rank-`rank` tensor.
Value perChannel(TensorBuilder &tb, Value param, int64_t rank) {
  if (!param)
    return {};
  if (TensorBuilder::rankOf(param) != 1 || rank < 2) {
    tb.error() << "a per-channel parameter must be 1-D, not "
               << TensorBuilder::typeOf(param);
    return {};
  }
  SmallVector<int64_t> shape(rank - 1, 1);
  shape[0] = TensorBuilder::shapeOf(param)[0];
  return tb.reshape(param, shape);
}

} // namespace

Value mlir::tgc::convolveWithAttrs(NodeContext &ctx, Value x, Value w,
                                   bool exactProducts) {
  int64_t rank = TensorBuilder::rankOf(x);
  if (rank < 3 || TensorBuilder::rankOf(w) != rank) {
    ctx.error() << "needs input and weight of the same rank >= 3";
    return {};
  }
  size_t n = rank - 2;
  SmallVector<int64_t> kernel(TensorBuilder::shapeOf(w).drop_front(2));
  if (auto given = ctx.intsAttr("kernel_shape"); given && *given != kernel) {
    ctx.error() << "'kernel_shape' differs from the weight's shape";
    return {};
  }
  auto strides = perDim(ctx, "strides", n, 1);
  auto dilations = perDim(ctx, "dilations", n, 1);
  if (failed(strides) || failed(dilations))
    return {};
  auto pads = spatialPads(ctx, TensorBuilder::shapeOf(x).drop_front(2), kernel,
                          *strides, *dilations);
  if (failed(pads))
    return {};
  TensorBuilder::ConvOptions options;
  options.groups = ctx.intAttr("group", 1);
  options.strides = *strides;
  options.dilations = *dilations;
  options.padLow = pads->first;
  options.padHigh = pads->second;
  const ConvChoices &choices = ctx.convChoices();
  options.channelsLast = choices.channelsLast;
  WinogradMode winograd = choices.winograd;
  if (!exactProducts && winograd != WinogradMode::Never &&
      winogradApplies(x, w, options) &&
      (winograd != WinogradMode::Auto ||
       winogradPays(x, w, options, choices.vectorRegisters))) {
    int tile = winograd == WinogradMode::Tile2   ? 2
               : winograd == WinogradMode::Tile4 ? 4
                                                 : winogradTile(x, w, options);
    return winogradConv(ctx.tb(), x, w, options, tile);
  }
  return ctx.tb().conv(x, w, options);
}

namespace {

LogicalResult decomposeConv(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X"), w = ctx.requiredInput(1, "W");
  Value bias = ctx.input(2);
  if (!x || !w)
    return failure();
  Value y = convolveWithAttrs(ctx, x, w);
  if (bias)
    y = ctx.tb().add(y, perChannel(ctx.tb(), bias, TensorBuilder::rankOf(x)));
  ctx.setResult(0, y);
  return success();
}

/// A ConvTranspose weight [cin, cout/g, k..] as the weight of the
/// convolution that computes it: [g, cin/g, cout/g, k..] -> [g, cout/g,
/// cin/g, k..] -> [cout, cin/g, k..], flipped in space.
Value convWeightOfTransposed(TensorBuilder &tb, Value w, int64_t groups) {
  ArrayRef<int64_t> shape = TensorBuilder::shapeOf(w);
  int64_t cin = shape[0], coutPerGroup = shape[1];
  ArrayRef<int64_t> kernel = shape.drop_front(2);
  SmallVector<int64_t> grouped{groups, cin / groups, coutPerGroup};
  llvm::append_range(grouped, kernel);
  SmallVector<int64_t> order{0, 2, 1}, spatial;
  for (size_t i = 0; i < kernel.size(); ++i) {
    order.push_back(3 + i);
    spatial.push_back(2 + i);
  }
  SmallVector<int64_t> convShape{groups * coutPerGroup, cin / groups};
  llvm::append_range(convShape, kernel);
  Value weight = tb.permute(tb.reshape(w, grouped), order);
  return tb.flip(tb.reshape(weight, convShape), spatial);
}

/// A strided ConvTranspose by phases: output position Y = q*s + r (before
/// the crop) gets x[q - m] * w[r + s*m] for every m, so phase r is a
/// stride-1 convolution of x with the taps r, r+s, r+2s, .. of the kernel,
/// and the output is the phases interleaved (depth to space). When s
/// divides k every phase has k/s taps and they are one convolution with
/// s^n times the output channels; otherwise one convolution each. Spreading
/// x out by the stride instead multiplies s^n - 1 zeros for each product
/// that counts: 4x the work for a 2x2-strided upsampling.
Value convTransposeByPhases(TensorBuilder &tb, Value x, Value w, int64_t groups,
                            ArrayRef<int64_t> strides, ArrayRef<int64_t> crop,
                            ArrayRef<int64_t> out) {
  ArrayRef<int64_t> in = TensorBuilder::shapeOf(x).drop_front(2);
  ArrayRef<int64_t> wShape = TensorBuilder::shapeOf(w);
  int64_t cin = wShape[0], coutPerGroup = wShape[1];
  size_t n = in.size();
  int64_t phases = 1;
  SmallVector<int64_t> taps, rows;
  for (size_t i = 0; i < n; ++i) {
    taps.push_back(llvm::divideCeil(wShape[2 + i], strides[i]));
    // Rows of phases that cover the cropped output.
    rows.push_back(llvm::divideCeil(crop[i] + out[i], strides[i]));
    phases *= strides[i];
  }

  // Row q of phase r sums x[q - m] over the taps: x padded by M-1 before
  // (and cut or padded after to make `rows` rows).
  int64_t batch = TensorBuilder::shapeOf(x)[0], cout = groups * coutPerGroup;
  SmallVector<int64_t> cut(2 + n, 0), none(2 + n, 0);
  for (size_t i = 0; i < n; ++i)
    cut[2 + i] = std::min<int64_t>(0, rows[i] - in[i]);
  Value xRows = tb.pad(x, none, cut);
  auto convolve = [&](Value weight, ArrayRef<int64_t> phaseTaps) {
    TensorBuilder::ConvOptions options;
    options.groups = groups;
    options.strides.assign(n, 1);
    options.dilations.assign(n, 1);
    for (size_t i = 0; i < n; ++i) {
      options.padLow.push_back(phaseTaps[i] - 1);
      options.padHigh.push_back(std::max<int64_t>(0, rows[i] - in[i]));
    }
    // Realized in the convolution's own layout: written straight into the
    // interleaved one, the reduce loses its register tiles (5x slower).
    return tb.contiguous(tb.conv(xRows, weight, options));
  };
  SmallVector<int64_t> byPhase{batch, cout};
  llvm::append_range(byPhase, strides);
  llvm::append_range(byPhase, rows);

  Value z; // [N, cout, s.., q..]
  bool whole = true;
  for (size_t i = 0; i < n; ++i)
    whole = whole && wShape[2 + i] % strides[i] == 0;
  if (whole) {
    // Every phase has M taps: one convolution with the phases beside the
    // output channels. W [cin, cout/g, (M, s)..] -> [g, cin/g, cout/g,
    // (M, s)..] -> M flipped -> [g, cout/g, s.., cin/g, M..] -> [cout*S,
    // cin/g, M..].
    SmallVector<int64_t> split{groups, cin / groups, coutPerGroup};
    SmallVector<int64_t> flipped, order{0, 2}, strideAxes, tapAxes;
    for (size_t i = 0; i < n; ++i) {
      split.append({taps[i], strides[i]});
      flipped.push_back(3 + 2 * i);
      tapAxes.push_back(3 + 2 * i);
      strideAxes.push_back(4 + 2 * i);
    }
    llvm::append_range(order, strideAxes);
    order.push_back(1);
    llvm::append_range(order, tapAxes);
    SmallVector<int64_t> convShape{cout * phases, cin / groups};
    llvm::append_range(convShape, taps);
    Value weight = tb.reshape(w, split);
    weight = tb.reshape(tb.permute(tb.flip(weight, flipped), order), convShape);
    z = tb.reshape(convolve(weight, taps), byPhase);
  } else {
    // Phases of fewer taps (k = 3, s = 2: 2 and 1): a convolution each, of
    // exactly their taps, stacked. One padded to M taps would multiply
    // 16 weights for 9 (a 3x3 kernel), 7 of them zeros.
    SmallVector<Value> stacked;
    SmallVector<int64_t> phaseShape{batch, cout, 1};
    llvm::append_range(phaseShape, rows);
    for (int64_t p = 0; p < phases; ++p) {
      Value sub = w;
      SmallVector<int64_t> phaseTaps(n, 0);
      bool noTaps = false;
      for (int64_t i = n - 1, rest = p; i >= 0; rest /= strides[i], --i) {
        int64_t r = rest % strides[i], k = wShape[2 + i];
        phaseTaps[i] = k > r ? llvm::divideCeil(k - r, strides[i]) : 0;
        noTaps = noTaps || phaseTaps[i] == 0;
        if (!noTaps)
          sub = tb.stride(sub, 2 + i, r, phaseTaps[i], strides[i]);
      }
      if (noTaps) {
        // A stride past the kernel: this phase gets no products.
        stacked.push_back(
            tb.splat(TensorBuilder::elementTypeOf(x), phaseShape, 0));
        continue;
      }
      stacked.push_back(tb.reshape(
          convolve(convWeightOfTransposed(tb, sub, groups), phaseTaps),
          phaseShape));
    }
    z = tb.reshape(tb.concat(stacked, 2), byPhase);
  }

  // Depth to space: [N, cout, s.., q..] -> [N, cout, (q, s)..], cropped.
  SmallVector<int64_t> interleave{0, 1}, merged{batch, cout};
  for (size_t i = 0; i < n; ++i) {
    interleave.append(
        {static_cast<int64_t>(2 + n + i), static_cast<int64_t>(2 + i)});
    merged.push_back(rows[i] * strides[i]);
  }
  Value y = tb.reshape(tb.permute(z, interleave), merged);
  SmallVector<int64_t> cropBegin{0, 0}, cropEnd{batch, cout};
  for (size_t i = 0; i < n; ++i) {
    cropBegin.push_back(crop[i]);
    cropEnd.push_back(crop[i] + out[i]);
  }
  return tb.shrink(y, cropBegin, cropEnd);
}

/// ConvTranspose: strided without dilation by phases (above); otherwise as
/// tinygrad does it: spread the input out by the stride (zeros in between),
/// pad by what the kernel overhangs, and convolve with the weight flipped
/// and its channel dims swapped.
LogicalResult decomposeConvTranspose(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X"), w = ctx.requiredInput(1, "W");
  Value bias = ctx.input(2);
  if (!x || !w)
    return failure();
  int64_t rank = TensorBuilder::rankOf(x);
  if (rank < 3 || TensorBuilder::rankOf(w) != rank ||
      ctx.resultType(0).getRank() != rank) {
    ctx.error() << "needs input, weight and result of the same rank >= 3";
    return failure();
  }
  size_t n = rank - 2;
  int64_t groups = ctx.intAttr("group", 1);
  ArrayRef<int64_t> in = TensorBuilder::shapeOf(x).drop_front(2);
  ArrayRef<int64_t> out = ctx.resultType(0).getShape().drop_front(2);
  int64_t cin = TensorBuilder::shapeOf(w)[0];
  SmallVector<int64_t> kernel(TensorBuilder::shapeOf(w).drop_front(2));
  if (auto given = ctx.intsAttr("kernel_shape"); given && *given != kernel) {
    ctx.error() << "'kernel_shape' differs from the weight's shape";
    return failure();
  }
  if (groups < 1 || cin % groups != 0 || TensorBuilder::shapeOf(x)[1] != cin) {
    ctx.error() << "weight of " << cin << " input channels in " << groups
                << " groups does not fit the input";
    return failure();
  }
  auto strides = perDim(ctx, "strides", n, 1);
  auto dilations = perDim(ctx, "dilations", n, 1);
  auto outputPadding = perDim(ctx, "output_padding", n, 0);
  if (failed(strides) || failed(dilations) || failed(outputPadding))
    return failure();

  // Padding of the output: given, or what makes the output the size the
  // result type (from output_shape or auto_pad) says.
  std::string autoPad = ctx.strAttr("auto_pad", "NOTSET");
  std::optional<SmallVector<int64_t>> pads = ctx.intsAttr("pads");
  bool fromShape = ctx.intsAttr("output_shape").has_value() ||
                   autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
  if (autoPad != "NOTSET" && autoPad != "VALID" && !fromShape) {
    ctx.error() << "auto_pad '" << autoPad << "' is not supported";
    return failure();
  }
  SmallVector<int64_t> begin(n, 0), end(n, 0);
  for (size_t i = 0; i < n; ++i) {
    int64_t span = ((kernel[i] - 1) * (*dilations)[i] + 1);
    int64_t full = (*strides)[i] * (in[i] - 1) + (*outputPadding)[i] + span;
    if (fromShape) {
      // An output larger than the transposed convolution makes is padded
      // at the end, like output_padding (as the ONNX test data has it).
      int64_t total = full - out[i];
      int64_t half = total / 2;
      begin[i] = total < 0 ? 0 : autoPad == "SAME_UPPER" ? half : total - half;
      end[i] = total - begin[i];
    } else if (pads && autoPad == "NOTSET") {
      if (pads->size() != 2 * n) {
        ctx.error() << "'pads' has " << pads->size() << " values for " << n
                    << " spatial dims";
        return failure();
      }
      begin[i] = (*pads)[i];
      end[i] = (*pads)[n + i];
    }
  }

  TensorBuilder &tb = ctx.tb();
  bool strided = llvm::any_of(*strides, [](int64_t s) { return s > 1; });
  bool dilated = llvm::any_of(*dilations, [](int64_t d) { return d > 1; });
  bool cropsOnly = llvm::all_of(begin, [](int64_t b) { return b >= 0; });
  if (strided && !dilated && cropsOnly) {
    Value y = convTransposeByPhases(tb, x, w, groups, *strides, begin, out);
    if (bias)
      y = tb.add(y, perChannel(tb, bias, rank));
    ctx.setResult(0, y);
    return success();
  }

  // Spread: [.., d, ..] -> [.., d, 1, ..] -> pad to [.., d, s, ..] ->
  // [.., d*s, ..] -> drop the s-1 trailing zeros.
  Value spread = x;
  for (size_t i = 0; i < n; ++i) {
    int64_t s = (*strides)[i];
    if (s == 1)
      continue;
    int64_t axis = 2 + i;
    SmallVector<int64_t> shape(TensorBuilder::shapeOf(spread));
    SmallVector<int64_t> split(shape);
    split.insert(split.begin() + axis + 1, 1);
    SmallVector<int64_t> low(split.size(), 0), high(split.size(), 0);
    high[axis + 1] = s - 1;
    Value v = tb.pad(tb.reshape(spread, split), low, high);
    SmallVector<int64_t> merged(shape);
    merged[axis] = shape[axis] * s;
    v = tb.reshape(v, merged);
    SmallVector<int64_t> keepBegin(merged.size(), 0), keepEnd(merged);
    keepEnd[axis] -= s - 1;
    spread = tb.shrink(v, keepBegin, keepEnd);
  }

  Value weight = convWeightOfTransposed(tb, w, groups);

  TensorBuilder::ConvOptions options;
  options.groups = groups;
  options.strides.assign(n, 1);
  options.dilations = *dilations;
  for (size_t i = 0; i < n; ++i) {
    int64_t overhang = (kernel[i] - 1) * (*dilations)[i];
    options.padLow.push_back(overhang - begin[i]);
    options.padHigh.push_back(overhang - end[i] + (*outputPadding)[i]);
  }
  Value y = tb.conv(spread, weight, options);
  if (bias)
    y = tb.add(y, perChannel(tb, bias, rank));
  ctx.setResult(0, y);
  return success();
}

/// MaxPool's Indices: the flat index into x of the first maximum of each
/// window (row-major, or column-major in the spatial dims with
/// storage_order 1). A constant grid of spatial positions is pooled like
/// the input; the window's argmax picks from it.
Value maxPoolIndices(NodeContext &ctx, Value x, Value windows,
                     ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                     ArrayRef<int64_t> extra, ArrayRef<int64_t> kernel,
                     ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                     bool columnMajor) {
  TensorBuilder &tb = ctx.tb();
  ArrayRef<int64_t> shape = TensorBuilder::shapeOf(x);
  int64_t rank = shape.size(), n = rank - 2;
  ArrayRef<int64_t> spatial = shape.drop_front(2);
  int64_t plane = TensorBuilder::numElements(spatial);
  Type si64 = tb.getBuilder().getIntegerType(64, /*isSigned=*/true);
  // Position of every spatial element, in the storage order.
  SmallVector<Attribute> positions;
  SmallVector<int64_t> index(n, 0);
  for (int64_t flat = 0; flat < plane; ++flat) {
    int64_t pos = 0;
    if (columnMajor)
      for (int64_t d = n - 1; d >= 0; --d)
        pos = pos * spatial[d] + index[d];
    else
      for (int64_t d = 0; d < n; ++d)
        pos = pos * spatial[d] + index[d];
    positions.push_back(IntegerAttr::get(si64, pos));
    for (int64_t d = n - 1; d >= 0 && ++index[d] == spatial[d]; --d)
      index[d] = 0;
  }
  SmallVector<int64_t> gridShape{1, 1};
  llvm::append_range(gridShape, spatial);
  Value grid = tb.constant(DenseElementsAttr::get(
      RankedTensorType::get(gridShape, si64), positions));
  SmallVector<int64_t> none(rank, 0);
  Value padded = tb.pad(tb.pad(grid, low, high), none, extra);
  Value gridWindows = tb.pool(padded, kernel, strides, dilations);
  // Flatten the window dims, take the first max, pick its position.
  ArrayRef<int64_t> ws = TensorBuilder::shapeOf(windows);
  SmallVector<int64_t> flatShape(ws.take_front(rank));
  int64_t taps = TensorBuilder::numElements(ws.drop_front(rank));
  flatShape.push_back(taps);
  Value flatWindows = tb.reshape(windows, flatShape);
  Value first = tb.argExtreme(flatWindows, rank, /*keepdim=*/true,
                              /*isMax=*/true, /*last=*/false, si64);
  SmallVector<int64_t> gridFlat(TensorBuilder::shapeOf(gridWindows).take_front(
      rank));
  gridFlat.push_back(taps);
  SmallVector<int64_t> tapView(rank + 1, 1);
  tapView[rank] = taps;
  Value hit = tb.eq(first, tb.reshape(tb.arange(taps, si64), tapView));
  Value picked = tb.sum(
      tb.where(hit, tb.reshape(gridWindows, gridFlat), tb.splat(si64, {}, 0)),
      {rank}, false);
  // Plus the offset of the (n, c) plane.
  SmallVector<int64_t> planeView{shape[0], shape[1]};
  planeView.append(n, 1);
  Value planes = tb.reshape(tb.arange(shape[0] * shape[1], si64), planeView);
  Value offset = tb.mul(planes, tb.splatLike(planes, plane));
  return tb.add(picked, offset);
}

/// The order a pool computes and stores in. In a channels-last model
/// (--conv-layout) a pool reads and writes [batch, spatial..., channels]
/// as the convolutions around it do (TensorBuilder::conv): the permute of
/// its input cancels the one after the convolution before it, its pad
/// leaves the innermost dim whole (one mask per vector of channels), its
/// vectors load contiguous channels, and the next convolution's permute
/// cancels the one after it. ResNeXt-50's max pool after its channels-last
/// stem transposed 64 channels into a padded NCHW copy (1.05 ms) before
/// pooling it (0.18 ms).
struct PoolLayout {
  bool channelsLast;
  /// [batch, channels, spatial...] -> [batch, spatial..., channels].
  SmallVector<int64_t> toLast;

  PoolLayout(bool channelsLast, int64_t rank) : channelsLast(channelsLast) {
    toLast.push_back(0);
    for (int64_t d = 2; d < rank; ++d)
      toLast.push_back(d);
    toLast.push_back(1);
  }

  /// `x` padded by `low` and `high` (per dim of x) with `fill`, in this
  /// order, and viewed as [batch, channels, spatial...] again.
  Value pad(TensorBuilder &tb, Value x, ArrayRef<int64_t> low,
            ArrayRef<int64_t> high, Value fill) const {
    if (!channelsLast)
      return fill ? tb.pad(x, low, high, fill) : tb.pad(x, low, high);
    SmallVector<int64_t> lastLow(low), lastHigh(high);
    applyPermutationToVector(lastLow, toLast);
    applyPermutationToVector(lastHigh, toLast);
    Value moved = tb.permute(x, toLast);
    Value padded = fill ? tb.pad(moved, lastLow, lastHigh, fill)
                        : tb.pad(moved, lastLow, lastHigh);
    return tb.permute(padded, invertPermutationVector(toLast));
  }

  /// `reduce` of pooling windows [batch, channels, out..., kernel...] over
  /// the kernel's axes, computed in this order, as [batch, channels,
  /// out...].
  template <typename Reduce>
  Value reduceWindows(TensorBuilder &tb, Value windows, Reduce reduce) const {
    if (!windows)
      return {};
    int64_t rank = toLast.size();
    SmallVector<int64_t> kernelAxes, order(toLast);
    for (int64_t d = rank; d < TensorBuilder::rankOf(windows); ++d) {
      kernelAxes.push_back(d);
      order.push_back(d);
    }
    if (!channelsLast)
      return reduce(windows, kernelAxes);
    Value result = reduce(tb.permute(windows, order), kernelAxes);
    return tb.permute(result, invertPermutationVector(toLast));
  }
};

/// MaxPool and AveragePool. The output size comes from the node's result
/// type; with ceil_mode the windows that hang over the end see extra
/// padding that never counts.
template <bool isMax> LogicalResult decomposePool(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X");
  if (!x)
    return failure();
  TensorBuilder &tb = ctx.tb();
  int64_t rank = TensorBuilder::rankOf(x);
  if (rank < 3) {
    ctx.error() << "needs an input of rank >= 3";
    return failure();
  }
  size_t n = rank - 2;
  std::optional<SmallVector<int64_t>> kernel = ctx.intsAttr("kernel_shape");
  if (!kernel || kernel->size() != n) {
    ctx.error() << "needs 'kernel_shape' with " << n << " values";
    return failure();
  }
  auto strides = perDim(ctx, "strides", n, 1);
  auto dilations = perDim(ctx, "dilations", n, 1);
  if (failed(strides) || failed(dilations))
    return failure();
  ArrayRef<int64_t> in = TensorBuilder::shapeOf(x).drop_front(2);
  auto pads = spatialPads(ctx, in, *kernel, *strides, *dilations);
  if (failed(pads))
    return failure();
  bool ceilMode = ctx.intAttr("ceil_mode", 0) != 0;
  bool includePad = ctx.intAttr("count_include_pad", 0) != 0;
  bool columnMajor = isMax && ctx.intAttr("storage_order", 0) != 0;

  if (ctx.resultType(0).getRank() != rank) {
    ctx.error() << "declares a result of rank " << ctx.resultType(0).getRank()
                << " for an input of rank " << rank;
    return failure();
  }
  ArrayRef<int64_t> out = ctx.resultType(0).getShape().drop_front(2);
  SmallVector<int64_t> low{0, 0}, high{0, 0}, extra{0, 0}, none(rank, 0);
  for (size_t i = 0; i < n; ++i) {
    low.push_back(pads->first[i]);
    high.push_back(pads->second[i]);
    int64_t covered =
        (out[i] - 1) * (*strides)[i] + ((*kernel)[i] - 1) * (*dilations)[i] + 1;
    // Only ceil_mode lets windows hang over the end; otherwise a result
    // type that needs it is wrong (and reported when the result is checked).
    int64_t overhang = covered - (in[i] + low.back() + high.back());
    extra.push_back(ceilMode ? std::max<int64_t>(0, overhang) : 0);
  }
  SmallVector<int64_t> windowAxes;
  for (size_t i = 0; i < n; ++i)
    windowAxes.push_back(rank + i);
  PoolLayout layout(ctx.convChoices().channelsLast, rank);
  auto padAll = [&](Value v, Value fill) {
    return layout.pad(tb, layout.pad(tb, v, low, high, fill), none, extra,
                      fill);
  };

  if (isMax) {
    Value lowest = tb.lowest(TensorBuilder::elementTypeOf(x), {});
    Value windows = tb.pool(padAll(x, lowest), *kernel, *strides, *dilations);
    ctx.setResult(0, layout.reduceWindows(tb, windows,
                                          [&](Value v, ArrayRef<int64_t> axes) {
                                            return tb.reduceMax(v, axes, false);
                                          }));
    if (ctx.numResults() > 1 && ctx.resultUsed(1))
      ctx.setResult(1, maxPoolIndices(ctx, x, windows, low, high, extra,
                                      *kernel, *strides, *dilations,
                                      columnMajor));
    return success();
  }
  // Average: the divisor counts the window's elements inside the input
  // (and inside the explicit pads with count_include_pad), never the
  // ceil_mode overhang.
  Value windows = tb.pool(padAll(x, Value()), *kernel, *strides, *dilations);
  Value total =
      layout.reduceWindows(tb, windows, [&](Value v, ArrayRef<int64_t> axes) {
        return tb.sum(v, axes, false);
      });
  bool padded = llvm::any_of(llvm::concat<int64_t>(low, high, extra),
                             [](int64_t p) { return p != 0; });
  if (!padded ||
      (includePad && llvm::all_of(extra, [](int64_t p) { return p == 0; }))) {
    int64_t count = 1;
    for (int64_t k : *kernel)
      count *= k;
    ctx.setResult(0, tb.div(total, static_cast<double>(count)));
    return success();
  }
  Value ones = tb.splatLike(x, 1);
  Value counted =
      includePad ? tb.pad(ones, low, high, 1.0) : tb.pad(ones, low, high);
  Value counts = tb.sum(
      tb.pool(tb.pad(counted, none, extra), *kernel, *strides, *dilations),
      windowAxes, false);
  ctx.setResult(0, tb.div(total, counts));
  return success();
}

template <bool isMax> LogicalResult decomposeGlobalPool(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X");
  if (!x)
    return failure();
  SmallVector<int64_t> axes;
  for (int64_t i = 2; i < TensorBuilder::rankOf(x); ++i)
    axes.push_back(i);
  TensorBuilder &tb = ctx.tb();
  ctx.setResult(0,
                isMax ? tb.reduceMax(x, axes, true) : tb.mean(x, axes, true));
  return success();
}

/// Inference form: (x - mean) * (scale / sqrt(var + eps)) + bias.
LogicalResult decomposeBatchNorm(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X"), scale = ctx.requiredInput(1, "scale");
  Value bias = ctx.requiredInput(2, "B");
  Value mean = ctx.requiredInput(3, "input_mean");
  Value var = ctx.requiredInput(4, "input_var");
  double epsilon = ctx.floatAttr("epsilon", 1e-5f);
  double momentum = ctx.floatAttr("momentum", 0.9f);
  ctx.ignoreAttr("consumed_inputs"); // opset 1 bookkeeping
  bool isTest = ctx.intAttr("is_test", 1) != 0;
  bool training = ctx.intAttr("training_mode", 0) != 0;
  if (!isTest) {
    ctx.error() << "training mode through is_test = 0 (before opset 7) is "
                   "not supported";
    return failure();
  }
  if (ctx.intAttr("spatial", 1) != 1) {
    ctx.error() << "spatial = 0 is not supported";
    return failure();
  }
  for (unsigned i = 1; i < ctx.numResults() && !training; ++i)
    if (ctx.resultUsed(i)) {
      ctx.error() << "the running statistics outputs need training mode";
      return failure();
    }
  if (!x || !scale || !bias || !mean || !var ||
      failed(checkPerChannel(ctx, x, {scale, bias, mean, var})))
    return failure();
  TensorBuilder &tb = ctx.tb();
  int64_t rank = TensorBuilder::rankOf(x);
  if (training) {
    // The batch's own statistics (population variance) normalize; the
    // running ones move toward them by 1 - momentum.
    SmallVector<int64_t> axes{0};
    for (int64_t i = 2; i < rank; ++i)
      axes.push_back(i);
    Value batchMean = tb.mean(x, axes, true);
    Value centered = tb.sub(x, batchMean);
    Value batchVar = tb.mean(tb.mul(centered, centered), axes, true);
    Value invStd = tb.recip(tb.sqrt(tb.add(batchVar, epsilon)));
    Value y = tb.mul(tb.mul(centered, invStd), perChannel(tb, scale, rank));
    ctx.setResult(0, tb.add(y, perChannel(tb, bias, rank)));
    int64_t channels = TensorBuilder::shapeOf(x)[1];
    auto running = [&](Value old, Value batch) {
      return tb.add(tb.mul(old, momentum),
                    tb.mul(tb.reshape(batch, {channels}), 1 - momentum));
    };
    if (ctx.numResults() > 1)
      ctx.setResult(1, running(mean, batchMean));
    if (ctx.numResults() > 2)
      ctx.setResult(2, running(var, batchVar));
    return success();
  }
  Value invStd = tb.recip(tb.sqrt(tb.add(var, epsilon)));
  Value factor = perChannel(tb, tb.mul(scale, invStd), rank);
  Value centered = tb.sub(x, perChannel(tb, mean, rank));
  Value scaled = tb.mul(centered, factor);
  ctx.setResult(0, tb.add(scaled, perChannel(tb, bias, rank)));
  return success();
}

LogicalResult decomposeInstanceNorm(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "input"),
        scale = ctx.requiredInput(1, "scale");
  Value bias = ctx.requiredInput(2, "B");
  double epsilon = ctx.floatAttr("epsilon", 1e-5f);
  if (!x || !scale || !bias || failed(checkPerChannel(ctx, x, {scale, bias})))
    return failure();
  TensorBuilder &tb = ctx.tb();
  int64_t rank = TensorBuilder::rankOf(x);
  SmallVector<int64_t> axes;
  for (int64_t i = 2; i < rank; ++i)
    axes.push_back(i);
  Value centered = tb.sub(x, tb.mean(x, axes, true));
  Value var = tb.mean(tb.mul(centered, centered), axes, true);
  Value normalized = tb.mul(centered, tb.recip(tb.sqrt(tb.add(var, epsilon))));
  Value scaled = tb.mul(normalized, perChannel(tb, scale, rank));
  ctx.setResult(0, tb.add(scaled, perChannel(tb, bias, rank)));
  return success();
}

/// Normalizes over the dims from `axis` on; optional Mean and InvStdDev
/// outputs. stash_type 1 computes half-precision inputs in f32.
LogicalResult decomposeLayerNorm(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X"), scale = ctx.requiredInput(1, "Scale");
  Value bias = ctx.input(2);
  double epsilon = ctx.floatAttr("epsilon", 1e-5f);
  int64_t stash = ctx.intAttr("stash_type", 1);
  if (!x || !scale)
    return failure();
  int64_t rank = TensorBuilder::rankOf(x);
  auto axis = ctx.normalizeAxis(ctx.intAttr("axis", -1), rank);
  if (failed(axis))
    return failure();
  if (stash != 1 && stash != -1) {
    ctx.error() << "stash_type " << stash << " is not supported";
    return failure();
  }
  TensorBuilder &tb = ctx.tb();
  Type element = TensorBuilder::elementTypeOf(x);
  Type compute = element;
  if (stash == 1 && (element.isF16() || element.isBF16()))
    compute = tb.getBuilder().getF32Type();
  SmallVector<int64_t> axes;
  for (int64_t i = *axis; i < rank; ++i)
    axes.push_back(i);

  Value xs = tb.cast(x, compute);
  Value mean = tb.mean(xs, axes, true);
  Value centered = tb.sub(xs, mean);
  Value var = tb.mean(tb.mul(centered, centered), axes, true);
  Value invStd = tb.recip(tb.sqrt(tb.add(var, epsilon)));
  Value y = tb.mul(tb.cast(tb.mul(centered, invStd), element), scale);
  if (bias)
    y = tb.add(y, bias);
  ctx.setResult(0, y);
  if (ctx.numResults() > 1)
    ctx.setResult(1, tb.cast(mean, ctx.resultType(1).getElementType()));
  if (ctx.numResults() > 2)
    ctx.setResult(2, tb.cast(invStd, ctx.resultType(2).getElementType()));
  return success();
}

/// Hardmax: 1 at the first max along the axis, 0 elsewhere (flattened to
/// 2-D at the axis before opset 13, as Softmax).
LogicalResult decomposeHardmax(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "input");
  bool legacy = ctx.opset() < 13;
  int64_t axisAttr = ctx.intAttr("axis", legacy ? 1 : -1);
  if (!x)
    return failure();
  TensorBuilder &tb = ctx.tb();
  ArrayRef<int64_t> shape = TensorBuilder::shapeOf(x);
  auto axis = ctx.normalizeAxis(axisAttr, shape.size());
  if (failed(axis))
    return failure();
  Value v = x;
  int64_t a = *axis;
  if (legacy) {
    v = tb.reshape(x, {TensorBuilder::numElements(shape.take_front(a)),
                       TensorBuilder::numElements(shape.drop_front(a))});
    a = 1;
  }
  int64_t rank = TensorBuilder::rankOf(v), n = TensorBuilder::shapeOf(v)[a];
  Type si64 = tb.getBuilder().getIntegerType(64, /*isSigned=*/true);
  Value first = tb.argExtreme(v, a, /*keepdim=*/true, /*isMax=*/true,
                              /*last=*/false, si64);
  SmallVector<int64_t> along(rank, 1);
  along[a] = n;
  Value hit = tb.eq(tb.reshape(tb.arange(n, si64), along), first);
  Value y = tb.cast(hit, TensorBuilder::elementTypeOf(x));
  ctx.setResult(0, tb.reshape(y, shape));
  return success();
}

/// MeanVarianceNormalization: (x - mean) / (std + 1e-9) over `axes`.
LogicalResult decomposeMeanVarianceNorm(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X");
  SmallVector<int64_t> axes =
      ctx.intsAttr("axes").value_or(SmallVector<int64_t>{0, 2, 3});
  if (!x)
    return failure();
  auto normalized = ctx.normalizeAxes(axes, TensorBuilder::rankOf(x));
  if (failed(normalized))
    return failure();
  TensorBuilder &tb = ctx.tb();
  Value centered = tb.sub(x, tb.mean(x, *normalized, true));
  Value var = tb.mean(tb.mul(centered, centered), *normalized, true);
  Value deviation = tb.add(tb.sqrt(var), 1e-9);
  ctx.setResult(0, tb.div(centered, deviation));
  return success();
}

/// LRN: x / (bias + alpha / size * (sum of x^2 over `size` neighbouring
/// channels))^beta; the channel window is a pool over the padded channels.
LogicalResult decomposeLRN(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X");
  double alpha = ctx.floatAttr("alpha", 1e-4f);
  double beta = ctx.floatAttr("beta", 0.75f);
  double bias = ctx.floatAttr("bias", 1.0f);
  int64_t size = ctx.intAttr("size", 0);
  if (!x)
    return failure();
  int64_t rank = TensorBuilder::rankOf(x);
  if (size < 1 || rank < 2) {
    ctx.error() << "needs a positive 'size' and a channel dim";
    return failure();
  }
  TensorBuilder &tb = ctx.tb();
  // Channels last, padded by (size-1)/2 before and the rest after.
  SmallVector<int64_t> order{0};
  for (int64_t i = 2; i < rank; ++i)
    order.push_back(i);
  order.push_back(1);
  SmallVector<int64_t> inverse = invertPermutationVector(order);
  Value squares = tb.permute(tb.mul(x, x), order);
  SmallVector<int64_t> low(rank, 0), high(rank, 0);
  low.back() = (size - 1) / 2;
  high.back() = size - 1 - low.back();
  Value windows = tb.pool(tb.pad(squares, low, high), {size}, {1}, {1});
  Value sums = tb.permute(tb.sum(windows, {rank}, false), inverse);
  Value scaled = tb.add(tb.mul(sums, alpha / size), bias);
  Value denominator = tb.pow(scaled, tb.splatLike(scaled, beta));
  ctx.setResult(0, tb.div(x, denominator));
  return success();
}

/// Softmax and LogSoftmax. Before opset 13 the input is flattened to 2-D at
/// `axis` (default 1) and normalized over the second dim.
template <bool isLog> LogicalResult decomposeSoftmax(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "input");
  bool legacy = ctx.opset() < 13;
  int64_t axisAttr = ctx.intAttr("axis", legacy ? 1 : -1);
  if (!x)
    return failure();
  TensorBuilder &tb = ctx.tb();
  int64_t rank = TensorBuilder::rankOf(x);
  auto axis = ctx.normalizeAxis(axisAttr, rank);
  if (failed(axis))
    return failure();
  auto apply = [&](Value v, int64_t a) {
    return isLog ? tb.logSoftmax(v, a) : tb.softmax(v, a);
  };
  if (!legacy) {
    ctx.setResult(0, apply(x, *axis));
    return success();
  }
  ArrayRef<int64_t> shape = TensorBuilder::shapeOf(x);
  int64_t outer = TensorBuilder::numElements(shape.take_front(*axis));
  int64_t inner = TensorBuilder::numElements(shape.drop_front(*axis));
  ctx.setResult(0, tb.reshape(apply(tb.reshape(x, {outer, inner}), 1), shape));
  return success();
}

} // namespace

void mlir::tgc::addNNDecompositions(DecompositionTable &table) {
  table["MatMul"] = decomposeMatMul;
  table["Gemm"] = decomposeGemm;
  table["Conv"] = decomposeConv;
  table["ConvTranspose"] = decomposeConvTranspose;
  table["MaxPool"] = decomposePool<true>;
  table["AveragePool"] = decomposePool<false>;
  table["GlobalAveragePool"] = decomposeGlobalPool<false>;
  table["GlobalMaxPool"] = decomposeGlobalPool<true>;
  table["BatchNormalization"] = decomposeBatchNorm;
  table["InstanceNormalization"] = decomposeInstanceNorm;
  table["LayerNormalization"] = decomposeLayerNorm;
  table["Softmax"] = decomposeSoftmax<false>;
  table["LogSoftmax"] = decomposeSoftmax<true>;
  table["Hardmax"] = decomposeHardmax;
  table["MeanVarianceNormalization"] = decomposeMeanVarianceNorm;
  table["LRN"] = decomposeLRN;
}
