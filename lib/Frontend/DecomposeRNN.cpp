//===- DecomposeRNN.cpp - RNN, GRU and LSTM ---------------------*- C++ -*-===//
//
// The recurrent layers, unrolled over their static sequence length. The
// input projection of every step is one matmul up front; each step then
// adds the recurrent projection of the previous hidden state and applies the
// gates. sequence_lens (forward direction) freezes a batch entry's state
// past its length and zeroes its outputs there, with where-selects.
//
//===----------------------------------------------------------------------===//

#include "Frontend/Decomposition.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::tgc;

namespace {

enum class Cell { RNN, GRU, LSTM };

/// Gates per cell, in ONNX's weight layout order (RNN: i; GRU: z r h;
/// LSTM: i o f c).
int64_t gateCount(Cell cell) {
  return cell == Cell::RNN ? 1 : cell == Cell::GRU ? 3 : 4;
}

/// Activations per direction and their defaults.
SmallVector<std::string> defaultActivations(Cell cell) {
  if (cell == Cell::RNN)
    return {"Tanh"};
  if (cell == Cell::GRU)
    return {"Sigmoid", "Tanh"};
  return {"Sigmoid", "Tanh", "Tanh"};
}

struct Activation {
  std::string name;
  double alpha = 0, beta = 0;
};

/// Whether activation `name` takes alpha / beta, and their defaults.
struct ActivationInfo {
  bool known, usesAlpha, usesBeta;
  double alpha, beta;
};

ActivationInfo activationInfo(StringRef name) {
  return llvm::StringSwitch<ActivationInfo>(name)
      .Case("Relu", {true, false, false, 0, 0})
      .Case("Tanh", {true, false, false, 0, 0})
      .Case("Sigmoid", {true, false, false, 0, 0})
      .Case("Softsign", {true, false, false, 0, 0})
      .Case("Softplus", {true, false, false, 0, 0})
      .Case("Affine", {true, true, true, 1.0, 0.0})
      .Case("LeakyRelu", {true, true, false, 0.01, 0})
      .Case("ThresholdedRelu", {true, true, false, 1.0, 0})
      .Case("ScaledTanh", {true, true, true, 1.0, 1.0})
      .Case("HardSigmoid", {true, true, true, 0.2, 0.5})
      .Case("Elu", {true, true, false, 1.0, 0})
      .Default({false, false, false, 0, 0});
}

Value activate(TensorBuilder &tb, const Activation &act, Value x) {
  StringRef name = act.name;
  Value zero = tb.splatLike(x, 0);
  if (name == "Relu")
    return tb.relu(x);
  if (name == "Tanh")
    return tb.tanh(x);
  if (name == "Sigmoid")
    return tb.sigmoid(x);
  if (name == "Softsign")
    return tb.div(x, tb.add(tb.abs(x), 1.0));
  if (name == "Softplus")
    return tb.log(tb.add(tb.exp(x), 1.0));
  if (name == "Affine")
    return tb.add(tb.mul(x, act.alpha), act.beta);
  if (name == "LeakyRelu")
    return tb.where(tb.lt(x, zero), tb.mul(x, act.alpha), x);
  if (name == "ThresholdedRelu")
    return tb.where(tb.gt(x, tb.splatLike(x, act.alpha)), x, zero);
  if (name == "ScaledTanh")
    return tb.mul(tb.tanh(tb.mul(x, act.beta)), act.alpha);
  if (name == "HardSigmoid") {
    Value linear = tb.add(tb.mul(x, act.alpha), act.beta);
    return tb.max(tb.min(linear, tb.splatLike(x, 1)), zero);
  }
  // Elu
  Value negative = tb.mul(tb.sub(tb.exp(x), 1.0), act.alpha);
  return tb.where(tb.lt(x, zero), negative, x);
}

/// Reads `activations`, `activation_alpha` and `activation_beta`: alphas and
/// betas are consumed in order by the activations that take them.
FailureOr<SmallVector<Activation>> readActivations(NodeContext &ctx, Cell cell,
                                                   int64_t directions) {
  SmallVector<std::string> names;
  if (Attribute attr = ctx.attr("activations")) {
    auto list = dyn_cast<ArrayAttr>(attr);
    for (Attribute a : list ? list.getValue() : ArrayRef<Attribute>())
      if (auto s = dyn_cast<StringAttr>(a))
        names.push_back(s.str());
  } else {
    for (int64_t d = 0; d < directions; ++d)
      llvm::append_range(names, defaultActivations(cell));
  }
  size_t perDirection = defaultActivations(cell).size();
  if (names.size() != perDirection * directions) {
    ctx.error() << "needs " << perDirection * directions << " activations, not "
                << names.size();
    return failure();
  }
  SmallVector<float> alphas =
      ctx.floatsAttr("activation_alpha").value_or(SmallVector<float>());
  SmallVector<float> betas =
      ctx.floatsAttr("activation_beta").value_or(SmallVector<float>());
  size_t nextAlpha = 0, nextBeta = 0;
  SmallVector<Activation> result;
  for (const std::string &name : names) {
    ActivationInfo info = activationInfo(name);
    if (!info.known) {
      ctx.error() << "activation '" << name << "' is not supported";
      return failure();
    }
    Activation act{name, info.alpha, info.beta};
    if (info.usesAlpha && nextAlpha < alphas.size())
      act.alpha = alphas[nextAlpha++];
    if (info.usesBeta && nextBeta < betas.size())
      act.beta = betas[nextBeta++];
    result.push_back(act);
  }
  return result;
}

/// Slice `index` of dim 0, with dim 0 dropped.
Value row(TensorBuilder &tb, Value x, int64_t index) {
  SmallVector<int64_t> begin(TensorBuilder::rankOf(x), 0),
      end(TensorBuilder::shapeOf(x));
  begin[0] = index;
  end[0] = index + 1;
  return tb.reshape(tb.shrink(x, begin, end),
                    TensorBuilder::shapeOf(x).drop_front());
}

/// Gate `g` of `hidden` columns from the last dim of x.
Value gate(TensorBuilder &tb, Value x, int64_t g, int64_t hidden) {
  SmallVector<int64_t> begin(TensorBuilder::rankOf(x), 0),
      end(TensorBuilder::shapeOf(x));
  begin.back() = g * hidden;
  end.back() = (g + 1) * hidden;
  return tb.shrink(x, begin, end);
}

struct RecurrentOptions {
  Cell cell;
  int64_t hidden;
  double clip = 0; // 0: none
  bool linearBeforeReset = false;
  bool inputForget = false;
};

/// Parts concatenated along `axis` at most kConcatRun at a time: runs of
/// parts concatenated and realized, then the runs the same way. A kernel
/// that concatenates n parts selects among all n for every element, unless
/// the C target writes its loop once per part (tgc-unswitch, up to 256
/// parts): a 100-step LSTM's output took 1.3 ms of selects for 19 KB.
constexpr size_t kConcatRun = 128;

Value concatInRuns(TensorBuilder &tb, ArrayRef<Value> parts, int64_t axis) {
  if (parts.size() <= kConcatRun)
    return tb.concat(parts, axis);
  SmallVector<Value> runs;
  for (size_t i = 0; i < parts.size(); i += kConcatRun)
    runs.push_back(tb.contiguous(tb.concat(
        parts.slice(i, std::min(kConcatRun, parts.size() - i)), axis)));
  return concatInRuns(tb, runs, axis);
}

/// One direction over the whole sequence. x: [T, B, I]; w: [G*H, I];
/// r: [G*H, H]; bias: [G*H] or null (W and R biases summed, except GRU's
/// recurrent h bias, in `rbh`); p: [3*H] peepholes or null; h0, c0: [B, H].
/// `lengths` ([B] of the sequence_lens type) or null. Fills one [B, H]
/// output per step (`ys`), the last h and c.
void runDirection(TensorBuilder &tb, const RecurrentOptions &opts,
                  ArrayRef<Activation> acts, Value x, Value w, Value r,
                  Value bias, Value wbh, Value rbh, Value p, Value h0,
                  Value c0, Value lengths, bool reverse,
                  SmallVectorImpl<Value> &ys, Value &hLast, Value &cLast) {
  int64_t steps = TensorBuilder::shapeOf(x)[0];
  int64_t hidden = opts.hidden;
  Value wt = tb.permute(w, {1, 0});
  Value rt = tb.permute(r, {1, 0});
  // The input projection of all steps at once: [T, B, G*H].
  Value projected = tb.matmul(x, wt);
  if (bias)
    projected = tb.add(projected, bias);
  Value h = h0, c = c0;
  auto clip = [&](Value v) {
    if (opts.clip <= 0)
      return v;
    return tb.clamp(v, -opts.clip, opts.clip);
  };
  ys.assign(steps, Value());
  for (int64_t s = 0; s < steps; ++s) {
    int64_t t = reverse ? steps - 1 - s : s;
    Value xt = row(tb, projected, t);
    Value hNew, cNew;
    if (opts.cell == Cell::GRU) {
      // Recurrent projections of z and r; h's depends on linear_before_reset.
      Value rzr = tb.matmul(h, gate(tb, rt, 0, 2 * hidden));
      Value z = activate(tb, acts[0], clip(tb.add(gate(tb, xt, 0, hidden),
                                                  gate(tb, rzr, 0, hidden))));
      Value rs = activate(tb, acts[0], clip(tb.add(gate(tb, xt, 1, hidden),
                                                   gate(tb, rzr, 1, hidden))));
      Value rh = gate(tb, rt, 2, hidden);
      Value candidate;
      if (opts.linearBeforeReset) {
        Value hr = tb.matmul(h, rh);
        if (rbh)
          hr = tb.add(hr, rbh);
        candidate = tb.add(gate(tb, xt, 2, hidden), tb.mul(rs, hr));
      } else {
        Value hr = tb.matmul(tb.mul(rs, h), rh);
        if (rbh)
          hr = tb.add(hr, rbh);
        candidate = tb.add(gate(tb, xt, 2, hidden), hr);
      }
      if (wbh)
        candidate = tb.add(candidate, wbh);
      Value hh = activate(tb, acts[1], clip(candidate));
      Value one = tb.splatLike(z, 1.0);
      hNew = tb.add(tb.mul(tb.sub(one, z), hh), tb.mul(z, h));
    } else {
      Value gates = tb.add(xt, tb.matmul(h, rt));
      if (opts.cell == Cell::RNN) {
        hNew = activate(tb, acts[0], clip(gates));
      } else {
        Value gi = gate(tb, gates, 0, hidden), go = gate(tb, gates, 1, hidden);
        Value gf = gate(tb, gates, 2, hidden), gc = gate(tb, gates, 3, hidden);
        if (p) {
          gi = tb.add(gi, tb.mul(gate(tb, p, 0, hidden), c));
          gf = tb.add(gf, tb.mul(gate(tb, p, 2, hidden), c));
        }
        Value i = activate(tb, acts[0], clip(gi));
        Value f = opts.inputForget ? tb.sub(tb.splatLike(i, 1.0), i)
                                   : activate(tb, acts[0], clip(gf));
        Value cc = activate(tb, acts[1], clip(gc));
        cNew = tb.add(tb.mul(f, c), tb.mul(i, cc));
        if (p)
          go = tb.add(go, tb.mul(gate(tb, p, 1, hidden), cNew));
        Value o = activate(tb, acts[0], clip(go));
        hNew = tb.mul(o, activate(tb, acts[2], cNew));
      }
    }
    if (lengths) {
      // Past a batch entry's length its state stays and its output is 0.
      Value live = tb.reshape(tb.lt(tb.splatLike(lengths, t), lengths),
                              {TensorBuilder::shapeOf(lengths)[0], 1});
      ys[t] = tb.where(live, hNew, tb.splatLike(hNew, 0));
      hNew = tb.where(live, hNew, h);
      if (cNew)
        cNew = tb.where(live, cNew, c);
    } else {
      ys[t] = hNew;
    }
    h = hNew;
    c = cNew;
  }
  hLast = h;
  cLast = c;
}

template <Cell cell> LogicalResult decomposeRecurrent(NodeContext &ctx) {
  Value x = ctx.requiredInput(0, "X"), w = ctx.requiredInput(1, "W");
  Value r = ctx.requiredInput(2, "R");
  Value b = ctx.input(3), lengths = ctx.input(4), h0 = ctx.input(5);
  Value c0 = cell == Cell::LSTM ? ctx.input(6) : Value();
  Value p = cell == Cell::LSTM ? ctx.input(7) : Value();
  RecurrentOptions opts;
  opts.cell = cell;
  opts.hidden = ctx.intAttr("hidden_size", 0);
  opts.clip = ctx.floatAttr("clip", 0.0f);
  std::string direction = ctx.strAttr("direction", "forward");
  int64_t layout = ctx.intAttr("layout", 0);
  if (cell == Cell::GRU)
    opts.linearBeforeReset = ctx.intAttr("linear_before_reset", 0) != 0;
  if (cell == Cell::LSTM)
    opts.inputForget = ctx.intAttr("input_forget", 0) != 0;
  if (!x || !w || !r)
    return failure();
  if (direction != "forward" && direction != "reverse" &&
      direction != "bidirectional") {
    ctx.error() << "direction '" << direction << "' is not supported";
    return failure();
  }
  int64_t dirs = direction == "bidirectional" ? 2 : 1;
  auto acts = readActivations(ctx, cell, dirs);
  if (failed(acts))
    return failure();
  TensorBuilder &tb = ctx.tb();
  int64_t g = gateCount(cell), hsz = opts.hidden;
  if (TensorBuilder::rankOf(x) != 3 || layout < 0 || layout > 1) {
    ctx.error() << "needs a 3-D input and layout 0 or 1";
    return failure();
  }
  if (layout == 1)
    x = tb.permute(x, {1, 0, 2});
  ArrayRef<int64_t> xs = TensorBuilder::shapeOf(x);
  int64_t batch = xs[1], inputSize = xs[2];
  auto expect = [&](Value v, ArrayRef<int64_t> shape, StringRef what) {
    if (!v || TensorBuilder::shapeOf(v) == shape)
      return true;
    std::string dims;
    for (int64_t d : shape)
      dims += (dims.empty() ? "" : ", ") + std::to_string(d);
    ctx.error() << what << " has type " << TensorBuilder::typeOf(v)
                << " where the input and hidden_size " << hsz
                << " need the shape [" << dims << "]";
    return false;
  };
  if (hsz < 1 || !expect(w, {dirs, g * hsz, inputSize}, "W") ||
      !expect(r, {dirs, g * hsz, hsz}, "R") ||
      !expect(b, {dirs, 2 * g * hsz}, "B") ||
      !expect(lengths, {batch}, "sequence_lens") ||
      !expect(p, {dirs, 3 * hsz}, "P"))
    return failure();
  if (layout == 1) {
    if (h0)
      h0 = tb.permute(h0, {1, 0, 2});
    if (c0)
      c0 = tb.permute(c0, {1, 0, 2});
  }
  if (!expect(h0, {dirs, batch, hsz}, "initial_h") ||
      !expect(c0, {dirs, batch, hsz}, "initial_c"))
    return failure();
  if (lengths && direction != "forward") {
    ctx.error() << "sequence_lens with direction '" << direction
                << "' is not supported";
    return failure();
  }

  Type element = TensorBuilder::elementTypeOf(x);
  Value zeros = tb.splat(element, {batch, hsz}, 0);
  SmallVector<Value> outputs, lastH, lastC;
  for (int64_t d = 0; d < dirs; ++d) {
    Value bias, wbh, rbh;
    if (b) {
      Value bd = row(tb, b, d);
      Value wb = tb.shrink(bd, {0}, {g * hsz});
      Value rb = tb.shrink(bd, {g * hsz}, {2 * g * hsz});
      if (cell == Cell::GRU) {
        // h's recurrent bias sits inside the reset product.
        bias = tb.add(tb.shrink(wb, {0}, {2 * hsz}),
                      tb.shrink(rb, {0}, {2 * hsz}));
        bias = tb.concat({bias, tb.splat(element, {hsz}, 0)}, 0);
        wbh = tb.shrink(wb, {2 * hsz}, {3 * hsz});
        rbh = tb.shrink(rb, {2 * hsz}, {3 * hsz});
      } else {
        bias = tb.add(wb, rb);
      }
    }
    SmallVector<Value> ys;
    Value hLast, cLast;
    ArrayRef<Activation> dirActs =
        ArrayRef<Activation>(*acts).slice(d * (acts->size() / dirs),
                                          acts->size() / dirs);
    runDirection(tb, opts, dirActs, x, row(tb, w, d), row(tb, r, d), bias,
                 wbh, rbh, p ? row(tb, p, d) : Value(),
                 h0 ? row(tb, h0, d) : zeros, c0 ? row(tb, c0, d) : zeros,
                 lengths, direction == "reverse" || d == 1, ys, hLast, cLast);
    for (Value &y : ys)
      y = tb.reshape(y, {1, 1, batch, hsz});
    Value yd = concatInRuns(tb, ys, 0); // [T, 1, B, H]
    // Realized when there are two directions, so that their concatenation
    // selects between two parts, not among all the steps of both (a kernel
    // too large for tgc-unswitch: 1.3 ms for a 100-step GRU's 51 KB).
    outputs.push_back(dirs > 1 && ys.size() > 1 ? tb.contiguous(yd) : yd);
    lastH.push_back(tb.reshape(hLast, {1, batch, hsz}));
    if (cLast)
      lastC.push_back(tb.reshape(cLast, {1, batch, hsz}));
  }
  Value y = tb.concat(outputs, 1);
  Value yh = tb.concat(lastH, 0);
  Value yc = cell == Cell::LSTM ? tb.concat(lastC, 0) : Value();
  if (layout == 1) {
    y = tb.permute(y, {2, 0, 1, 3});
    yh = tb.permute(yh, {1, 0, 2});
    if (yc)
      yc = tb.permute(yc, {1, 0, 2});
  }
  if (ctx.numResults() > 0)
    ctx.setResult(0, y);
  if (ctx.numResults() > 1)
    ctx.setResult(1, yh);
  if (ctx.numResults() > 2)
    ctx.setResult(2, yc);
  return success();
}

} // namespace

void mlir::tgc::addRecurrentDecompositions(DecompositionTable &table) {
  table["RNN"] = decomposeRecurrent<Cell::RNN>;
  table["GRU"] = decomposeRecurrent<Cell::GRU>;
  table["LSTM"] = decomposeRecurrent<Cell::LSTM>;
}
