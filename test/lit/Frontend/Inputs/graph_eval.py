"""A numpy interpreter for graph-level tgc IR (the output of tgc-decompose).

It exists to check decompositions numerically before (and independently of)
the C code generator: `check_decompose.py` runs it on ONNX test cases and
compares with their reference outputs. It reads the textual IR as tgc-opt
prints it and knows only the ops decompose emits.
"""
import re

import numpy as np

DTYPES = {
    "f16": np.float16, "f32": np.float32, "f64": np.float64, "i1": np.bool_,
    "si8": np.int8, "si16": np.int16, "si32": np.int32, "si64": np.int64,
    "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64,
}


class Unsupported(Exception):
    pass


def parse_type(text):
    body = re.match(r"tensor<(.*)>", text.strip()).group(1)
    *dims, elem = body.split("x")
    if elem not in DTYPES:
        raise Unsupported(f"element type {elem}")
    return tuple(int(d) for d in dims), DTYPES[elem]


def parse_resources(text):
    blobs = {}
    m = re.search(r"dialect_resources:\s*{\s*builtin:\s*{(.*?)}\s*}", text, re.S)
    if m:
        for name, hexdata in re.findall(r"([^\s:]+):\s*\"0x([0-9A-Fa-f]*)\"",
                                        m.group(1)):
            blobs[name] = bytes.fromhex(hexdata)[4:]  # drop the alignment
    return blobs


def hex_scalar(text, dtype):
    bits = int(text, 16)
    width = {np.float16: np.uint16, np.float32: np.uint32,
             np.float64: np.uint64}.get(dtype)
    if width is None:
        return bits
    return float(np.array([bits], dtype=width).view(dtype)[0])


def parse_dense(literal, shape, dtype):
    literal = literal.strip()
    if literal == "":
        return np.zeros(shape, dtype=dtype)
    if literal.startswith('"0x'):
        raw = bytes.fromhex(literal[3:-1])
        flat = np.frombuffer(raw, dtype=np.uint8 if dtype == np.bool_ else dtype)
        flat = flat.astype(dtype)
        return np.broadcast_to(flat, shape).copy() if flat.size == 1 \
            else flat.reshape(shape).copy()
    literal = literal.replace("true", "True").replace("false", "False")
    literal = re.sub(r"0x[0-9A-Fa-f]+",
                     lambda m: repr(hex_scalar(m.group(0), dtype)), literal)
    value = np.array(eval(literal, {"inf": np.inf, "nan": np.nan}), dtype=dtype)
    return np.broadcast_to(value, shape).copy()


def elementwise(op, v, result_type):
    a = v[0]
    table = {
        "add": lambda: a + v[1], "sub": lambda: a - v[1],
        "mul": lambda: a * v[1], "fdiv": lambda: a / v[1],
        "max": lambda: np.maximum(a, v[1]), "pow": lambda: np.power(a, v[1]),
        "exp2": lambda: np.exp2(a), "log2": lambda: np.log2(a),
        "sin": lambda: np.sin(a), "sqrt": lambda: np.sqrt(a),
        "recip": lambda: 1 / a, "neg": lambda: -a, "trunc": lambda: np.trunc(a),
        "cmplt": lambda: a < v[1], "cmpne": lambda: a != v[1],
        "cmpeq": lambda: a == v[1], "where": lambda: np.where(v[0], v[1], v[2]),
        "and": lambda: a & v[1], "or": lambda: a | v[1],
        "xor": lambda: a ^ v[1], "shl": lambda: a << v[1],
        "shr": lambda: a >> v[1], "mod": lambda: np.fmod(a, v[1]),
        "contiguous": lambda: a,
    }
    if op in table:
        return table[op]()
    if op == "idiv":  # C division: toward zero
        if a.dtype.kind == "i":
            q = np.abs(a.astype(np.int64)) // np.abs(v[1].astype(np.int64))
            return (np.sign(a) * np.sign(v[1]) * q).astype(a.dtype)
        return a // v[1]
    _, dtype = parse_type(result_type)
    if op == "cast":
        if a.dtype.kind == "f" and np.dtype(dtype).kind in "iu":
            return np.trunc(a).astype(dtype)
        return a.astype(dtype)
    if op == "bitcast":
        return a.view(dtype)
    raise Unsupported(f"op tgc.{op}")


def run(text, inputs):
    """Evaluates @main of `text` on the numpy arrays `inputs`."""
    blobs = parse_resources(text)
    env = {}
    header = re.search(r"func.func @main\((.*?)\) ->", text)
    args = re.findall(r"(%arg\d+): (tensor<[^>]*>)", header.group(1))
    for (name, type_text), value in zip(args, inputs):
        shape, dtype = parse_type(type_text)
        env[name] = np.asarray(value).astype(dtype).reshape(shape)
    for line in text[header.end():].splitlines():
        line = line.strip()
        if line.startswith("return"):
            return [env[n] for n in re.findall(r"%\w+", line.split(":")[0])]
        m = re.match(r"(%\w+) = tgc\.(\w+)\s+(.*)$", line)
        if not m:
            continue
        name, op, rest = m.groups()
        types = re.findall(r"tensor<[^>]*>", rest)
        result_type = types[-1] if types else None
        operands = [env[o] for o in re.findall(r"%\w+", rest.split(":")[0])]

        def ints(key=""):
            found = re.search(key + r"\s*\[([^\]]*)\]", rest)
            return [int(t) for t in found.group(1).split(",") if t.strip()]

        with np.errstate(all="ignore"):
            if op == "const":
                shape, dtype = parse_type(result_type)
                blob = re.match(r"dense_resource<([^>]*)>", rest)
                if blob:
                    value = np.frombuffer(blobs[blob.group(1)], dtype=dtype)
                    value = value.reshape(shape).copy()
                else:
                    literal = re.match(r"dense<(.*)>\s*:\s*tensor", rest).group(1)
                    value = parse_dense(literal, shape, dtype)
            elif op == "reshape":
                value = operands[0].reshape(parse_type(result_type)[0])
            elif op == "permute":
                value = np.transpose(operands[0], ints())
            elif op == "expand":
                value = np.broadcast_to(operands[0],
                                        parse_type(result_type)[0]).copy()
            elif op == "pad":
                value = np.pad(operands[0], list(zip(ints("low"), ints("high"))))
            elif op == "shrink":
                value = operands[0][tuple(
                    slice(b, e) for b, e in zip(ints("begin"), ints("end")))]
            elif op == "flip":
                value = np.flip(operands[0], ints())
            elif op == "reduce_axis":
                kind, x, axes = rest.split()[0], operands[0], tuple(ints())
                if kind == "add":
                    value = np.sum(x, axis=axes, keepdims=True, dtype=x.dtype)
                elif kind == "mul":
                    value = np.prod(x, axis=axes, keepdims=True, dtype=x.dtype)
                else:
                    value = np.max(x, axis=axes, keepdims=True)
            else:
                value = elementwise(op, operands, result_type)
        if op not in ("cmplt", "cmpne", "cmpeq"):
            shape, dtype = parse_type(result_type)
            if value.shape != shape:
                raise RuntimeError(f"{line}: got shape {value.shape}")
            value = value.astype(dtype, copy=False)
        env[name] = np.asarray(value)
    raise RuntimeError("@main has no return")
