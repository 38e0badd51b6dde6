#!/usr/bin/python3
"""Writes a module of one MatMul, x [ROWS, K] by a constant [K, N], to
stdout: make_projection.py ROWS K N. The constant's values repeat a short
pattern (not a splat, which would fold away) so that the test stays small
however large the weights it needs."""

import struct
import sys

rows, k, n = (int(a) for a in sys.argv[1:4])
pattern = [0.5, -0.25, 0.75, -1.0, 0.25, 1.0, -0.5, -0.75, 0.125]
data = b"".join(struct.pack("<f", pattern[i % len(pattern)])
                for i in range(k * n))
print('func.func @main(%%x: tensor<%dx%dxf32> {tgc.name = "x"}) -> '
      '(tensor<%dx%dxf32> {tgc.name = "y"}) {' % (rows, k, rows, n))
print('  %%w = tgc.const dense<"0x%s"> : tensor<%dx%dxf32>'
      % (data.hex().upper(), k, n))
print('  %%y = tgc.onnx_node "MatMul"(%%x, %%w) {opset = 17 : i64} : '
      '(tensor<%dx%dxf32>, tensor<%dx%dxf32>) -> tensor<%dx%dxf32>'
      % (rows, k, k, n, rows, n))
print('  return %%y : tensor<%dx%dxf32>' % (rows, n))
print('}')
