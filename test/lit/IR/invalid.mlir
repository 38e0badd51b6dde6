// RUN: tgc-opt %s -split-input-file -verify-diagnostics

func.func @reshape_count(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{changes the element count from 6 to 8}}
  %0 = tgc.reshape %a : tensor<2x3xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @permute_twice(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{axis 0 given twice}}
  %0 = tgc.permute %a [0, 0] : tensor<2x3xf32> -> tensor<2x2xf32>
  return
}

// -----

func.func @expand_non_one(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{cannot expand dim 0 of size 2 to 4}}
  %0 = tgc.expand %a : tensor<2x3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @pad_shape(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{result dim 1 is 3, expected 5}}
  %0 = tgc.pad %a low [0, 1] high [0, 1] : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @shrink_bounds(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{bounds [2, 4) of dim 1 are not within [0, 3]}}
  %0 = tgc.shrink %a begin [0, 2] end [2, 4] : tensor<2x3xf32> -> tensor<2x2xf32>
  return
}

// -----

func.func @reduce_drops_dim(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{must keep the reduced dims as size 1}}
  %0 = tgc.reduce_axis add %a [1] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @where_cond(%a: tensor<2xf32>) {
  // expected-error @+1 {{condition must be 'tensor<2xi1>'}}
  %0 = tgc.where %a, %a, %a : tensor<2xf32>, tensor<2xf32>
  return
}

// -----

func.func @cast_shape(%a: tensor<2xf32>) {
  // expected-error @+1 {{changes the shape}}
  %0 = tgc.cast %a : tensor<2xf32> to tensor<3xsi32>
  return
}

// -----

func.func @bitcast_width(%a: f32) {
  // expected-error @+1 {{must keep the bit width}}
  %0 = tgc.bitcast %a : f32 to si64
  return
}

// -----

func.func @elementwise_types(%a: tensor<2xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "tgc.add"(%a, %b) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @range_bound() {
  %k = tgc.kernel "k" () : () -> tensor<1xf32> {
  ^bb0(%out: !tgc.ptr<f32>):
    // expected-error @+1 {{bound must be at least 1}}
    %i = tgc.range 0 global id 0
    tgc.end %i
    tgc.sink
  }
  return
}

// -----

func.func @end_order(%a: tensor<4xf32>) {
  %k = tgc.kernel "k" (%a) : (tensor<4xf32>) -> tensor<1xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %i = tgc.range 2 global id 0
    %j = tgc.range 2 reduce id 1
    // expected-error @+1 {{does not close the innermost open range}}
    tgc.end %i
    tgc.end %j
    tgc.sink
  }
  return
}

// -----

func.func @unclosed(%a: tensor<4xf32>) {
  %k = tgc.kernel "k" (%a) : (tensor<4xf32>) -> tensor<1xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    // expected-error @+1 {{is never closed by a tgc.end}}
    %i = tgc.range 2 global id 0
    tgc.sink
  }
  return
}

// -----

func.func @escaping_value(%a: tensor<4xf32>) {
  %k = tgc.kernel "k" (%a) : (tensor<4xf32>) -> tensor<1xf32> {
  ^bb0(%in: !tgc.ptr<f32>, %out: !tgc.ptr<f32>):
    %i = tgc.range 4 reduce id 0
    %p = tgc.index %in[%i] : !tgc.ptr<f32>
    %x = tgc.load %p : !tgc.ptr<f32> -> f32
    tgc.end %i
    %c0 = tgc.const 0 : index
    %o = tgc.index %out[%c0] : !tgc.ptr<f32>
    // expected-error @+1 {{uses a value outside the loop it was computed in}}
    tgc.store %o, %x : !tgc.ptr<f32>, f32
    tgc.sink
  }
  return
}

// -----

func.func @lowered_args(%a: tensor<4xf32>) {
  // expected-error @+1 {{lowered body argument '!tgc.ptr<si32>' is not a pointer to the elements of 'tensor<4xf32>'}}
  %k = tgc.kernel "k" (%a) : (tensor<4xf32>) -> tensor<1xf32> {
  ^bb0(%in: !tgc.ptr<si32>, %out: !tgc.ptr<f32>):
    tgc.sink
  }
  return
}

// -----

func.func @load_type(%p: !tgc.ptr<f32>) {
  // expected-error @+1 {{accesses 'si32' through '!tgc.ptr<f32>'}}
  %x = tgc.load %p : !tgc.ptr<f32> -> si32
  return
}

// -----

func.func @reg_space() {
  // expected-error @+1 {{must give a pointer in the reg address space}}
  %r = tgc.define_reg 4 : !tgc.ptr<f32>
  return
}

// -----

func.func @gep_lane(%v: vector<4xf32>) {
  // expected-error @+1 {{lane 4 out of range}}
  %x = tgc.gep %v[4] : vector<4xf32> -> f32
  return
}

// -----

func.func @const_type() {
  // expected-error @+1 {{}}
  %c = "tgc.const"() {value = 1.0 : f32} : () -> f64
  return
}
