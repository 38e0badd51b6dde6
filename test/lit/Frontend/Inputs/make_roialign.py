"""Writes RoiAlign test cases (model.onnx and test_data_set_0) into OUT_DIR,
with reference outputs from a direct loop implementation of the operator as
the ONNX reference and onnxruntime compute it: sampling_ratio^2 bilinear
samples per bin, dropped outside [-1, size]; avg averages them, max takes
the largest weighted corner value.

    make_roialign.py OUT_DIR
writes OUT_DIR/roialign_max (two batch items, rois partly outside the map,
half_pixel) and OUT_DIR/roialign_avg_scaled (output_half_pixel, spatial
scale 0.5, non-square bins). Needs onnx: run it with Debian's
/usr/bin/python3.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def sample(image, y, x):
    """The four (weight, value) taps of one sample, or None if dropped."""
    h, w = image.shape
    if y < -1.0 or y > h or x < -1.0 or x > w:
        return None
    y, x = max(y, 0.0), max(x, 0.0)
    y_low, x_low = int(y), int(x)
    if y_low >= h - 1:
        y_low = y_high = h - 1
        y = float(y_low)
    else:
        y_high = y_low + 1
    if x_low >= w - 1:
        x_low = x_high = w - 1
        x = float(x_low)
    else:
        x_high = x_low + 1
    ly, lx = y - y_low, x - x_low
    hy, hx = 1 - ly, 1 - lx
    return [(hy * hx, image[y_low, x_low]), (hy * lx, image[y_low, x_high]),
            (ly * hx, image[y_high, x_low]), (ly * lx, image[y_high, x_high])]


def roi_align(x, rois, batch, mode, out_h, out_w, ratio, scale, transform):
    offset = 0.5 if transform == "half_pixel" else 0.0
    result = np.zeros((len(rois), x.shape[1], out_h, out_w), np.float64)
    for r, (roi, b) in enumerate(zip(rois.astype(np.float64), batch)):
        x1, y1, x2, y2 = roi * scale - offset
        roi_w, roi_h = x2 - x1, y2 - y1
        if transform != "half_pixel":
            roi_w, roi_h = max(roi_w, 1.0), max(roi_h, 1.0)
        bin_h, bin_w = roi_h / out_h, roi_w / out_w
        for c in range(x.shape[1]):
            image = x[b, c].astype(np.float64)
            for ph in range(out_h):
                for pw in range(out_w):
                    total, best = 0.0, None
                    for iy in range(ratio):
                        y = y1 + ph * bin_h + (iy + 0.5) * bin_h / ratio
                        for ix in range(ratio):
                            xx = x1 + pw * bin_w + (ix + 0.5) * bin_w / ratio
                            taps = sample(image, y, xx) or [(0.0, image[0, 0])] * 4
                            total += sum(w * v for w, v in taps)
                            top = max(w * v for w, v in taps)
                            best = top if best is None else max(best, top)
                    result[r, c, ph, pw] = (total / (ratio * ratio)
                                            if mode == "avg" else best)
    return result.astype(np.float32)


def write_case(path, x, rois, batch, **attrs):
    os.makedirs(os.path.join(path, "test_data_set_0"), exist_ok=True)
    out_shape = [len(rois), x.shape[1], attrs["output_height"],
                 attrs["output_width"]]
    node = helper.make_node("RoiAlign", ["X", "rois", "batch_indices"], ["Y"],
                            **attrs)
    graph = helper.make_graph(
        [node], os.path.basename(path),
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, x.shape),
         helper.make_tensor_value_info("rois", TensorProto.FLOAT, rois.shape),
         helper.make_tensor_value_info("batch_indices", TensorProto.INT64,
                                       batch.shape)],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, out_shape)])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 16)])
    onnx.save(model, os.path.join(path, "model.onnx"))
    want = roi_align(x, rois, batch, attrs.get("mode", "avg"),
                     attrs["output_height"], attrs["output_width"],
                     attrs["sampling_ratio"], attrs.get("spatial_scale", 1.0),
                     attrs.get("coordinate_transformation_mode", "half_pixel"))
    for i, (value, name) in enumerate([(x, "X"), (rois, "rois"),
                                       (batch, "batch_indices")]):
        with open(os.path.join(path, "test_data_set_0", f"input_{i}.pb"),
                  "wb") as f:
            f.write(numpy_helper.from_array(value, name).SerializeToString())
    with open(os.path.join(path, "test_data_set_0", "output_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(want, "Y").SerializeToString())


rng = np.random.default_rng(7)
out = sys.argv[1]
x = rng.standard_normal((2, 3, 6, 7)).astype(np.float32)
rois = np.array([[0.5, 1.0, 4.0, 5.5], [-2.0, -1.5, 3.0, 2.0],
                 [3.0, 2.0, 9.0, 8.0]], np.float32)
write_case(os.path.join(out, "roialign_max"), x, rois,
           np.array([1, 0, 1], np.int64), mode="max", output_height=3,
           output_width=2, sampling_ratio=2)
write_case(os.path.join(out, "roialign_avg_scaled"), x, rois * 2,
           np.array([0, 1, 1], np.int64), output_height=2, output_width=3,
           sampling_ratio=3, spatial_scale=0.5,
           coordinate_transformation_mode="output_half_pixel")
