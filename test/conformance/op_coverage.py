"""What each conformance case's model exercises: op, opset and dtypes.

The scoreboard's op coverage table is built from these facts about the
cases that pass, so it states what has been run, not what is hoped for.
"""

import os
import re

# ONNX element type numbers to the names the table uses.
DTYPE_NAMES = {1: "f32", 2: "u8", 3: "i8", 4: "u16", 5: "i16", 6: "i32",
               7: "i64", 8: "string", 9: "bool", 10: "f16", 11: "f64",
               12: "u32", 13: "u64", 14: "c64", 15: "c128", 16: "bf16"}
DTYPE_ORDER = list(DTYPE_NAMES.values())

# The node a failure is reported on: "node 'name' (OpType)".
FAILED_NODE = re.compile(r"node '[^']*' \(([\w.]+)\)")


def op_key(domain, op_type):
    """`Op`, or `domain:Op` outside the default domain."""
    if domain in ("", "ai.onnx"):
        return op_type
    return f"{domain}:{op_type}"


def _value_types(graph):
    types = {}
    for info in list(graph.input) + list(graph.output) + list(graph.value_info):
        if info.type.HasField("tensor_type"):
            types[info.name] = info.type.tensor_type.elem_type
    for init in graph.initializer:
        types[init.name] = init.data_type
    return types


def _since_version(onnx, op_type, domain, opset):
    try:
        return onnx.defs.get_schema(op_type, opset, domain).since_version
    except Exception:  # an op the installed onnx does not know
        return None


def case_ops(case_path):
    """{op key: (since_version, {dtype names})} for a case's main graph.

    A node's dtype is that of its first input, or of its first output for
    nodes without inputs (Constant, the window functions, ...).
    """
    import onnx
    import onnx.shape_inference
    model = onnx.load(os.path.join(case_path, "model.onnx"),
                      load_external_data=False)
    try:
        model = onnx.shape_inference.infer_shapes(model)
    except Exception:  # keep the declared types only
        pass
    opsets = {entry.domain: entry.version for entry in model.opset_import}
    types = _value_types(model.graph)
    facts = {}
    for node in model.graph.node:
        domain = "" if node.domain == "ai.onnx" else node.domain
        since = _since_version(onnx, node.op_type, domain,
                               opsets.get(domain, opsets.get("", 1)))
        names = [n for n in node.input if n] or [n for n in node.output if n]
        dtype = DTYPE_NAMES.get(types.get(names[0])) if names else None
        key = op_key(domain, node.op_type)
        since_seen, dtypes = facts.get(key, (since, set()))
        if dtype:
            dtypes.add(dtype)
        facts[key] = (since_seen or since, dtypes)
    return facts


def failed_op(detail):
    """The op a failure message names, if it names a node."""
    match = FAILED_NODE.search(detail)
    return match.group(1) if match else None


def coverage_table(results, paths, xfail):
    """Markdown rows: op, opsets passed, dtypes passed, cases, pass, limits."""
    ops = {}
    for r in results:
        key = f"{r['group']}/{r['case']}"
        try:
            facts = case_ops(paths[key])
        except Exception:  # a model the python package cannot read
            facts = {}
        for op, (since, dtypes) in facts.items():
            entry = ops.setdefault(op, {"cases": 0, "pass": 0, "opsets": set(),
                                        "dtypes": set(), "limits": set()})
            entry["cases"] += 1
            if r["passed"]:
                entry["pass"] += 1
                if since:
                    entry["opsets"].add(since)
                entry["dtypes"] |= dtypes
        if not r["passed"]:
            op = failed_op(r["detail"])
            if op in ops and key in xfail:
                ops[op]["limits"].add(xfail[key])
    rows = ["| op | opsets passed | dtypes passed | cases | pass | limits (expected failures) |",
            "|---|---|---|---|---|---|"]
    for op in sorted(ops, key=str.lower):
        e = ops[op]
        opsets = ", ".join(str(v) for v in sorted(e["opsets"])) or "-"
        dtypes = ", ".join(d for d in DTYPE_ORDER if d in e["dtypes"]) or "-"
        limits = "; ".join(sorted(e["limits"])) or ""
        rows.append(f"| {op} | {opsets} | {dtypes} | {e['cases']} | {e['pass']} | {limits} |")
    return rows
