#!/usr/bin/python3
"""Runs the ONNX backend test cases through `tgc verify` and keeps score.

Every case of the four groups Debian's libonnx-testdata installs (node,
simple, pytorch-converted, pytorch-operator) goes through the real path:
import, every stage, C, the system compiler, run, compare. A case listed in
xfail.txt must fail (a listed case that passes fails the run, so the list
cannot go stale); any other case must pass.

  run.py --tgc build/bin/tgc                      # check against xfail.txt
  run.py --tgc build/bin/tgc --write-scoreboard   # also regenerate docs/conformance.md
  run.py --tgc build/bin/tgc --write-xfail        # rewrite xfail.txt from this run
  run.py --tgc build/bin/tgc --filter test_add    # only cases whose name matches
  run.py --from-results build/test/conformance/results.json --write-scoreboard
                                                  # the scoreboard of ctest's last run
"""

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time

DATA = "/usr/share/libonnx-testdata/data"
GROUPS = ["node", "simple", "pytorch-converted", "pytorch-operator"]
# How each --target runs; a GPU target runs on the CPU emulation where the
# machine has no GPU (lib/Runtime/gpu_emu).
TARGETS = {"c": "C target",
           "cuda": "CUDA target, on the GPU or else the CPU emulation",
           "metal": "Metal target, on the CPU emulation"}
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def discover(data, pattern):
    cases = []
    for group in GROUPS:
        folder = os.path.join(data, group)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if os.path.isfile(os.path.join(path, "model.onnx")):
                if pattern is None or re.search(pattern, name):
                    cases.append((group, name, path))
    return cases


def read_xfail(path):
    """`group/case  reason` per line; # starts a comment."""
    entries = {}
    if not os.path.exists(path):
        return entries
    with open(path) as f:
        for line in f:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            key, _, reason = line.strip().partition(" ")
            entries[key] = reason.strip()
    return entries


def first_error(text):
    for line in text.splitlines():
        if "error" in line.lower():
            return line.strip()
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].strip() if lines else ""


# One output's line in `tgc verify`'s report.
OUTPUT_LINE = re.compile(r"^\s+(\S+)\s+max abs (\S+)\s+max ulp (\S+)\s+(PASS|FAIL)")


def output_errors(report):
    """The largest absolute and ULP error per output over all data sets."""
    errors = {}
    for line in report.splitlines():
        match = OUTPUT_LINE.match(line)
        if not match:
            continue
        name, abs_err, ulp = match.group(1), float(match.group(2)), match.group(3)
        ulp = int(ulp) if ulp.isdigit() else ulp
        entry = errors.setdefault(name, {"max_abs": 0.0, "max_ulp": 0})
        entry["max_abs"] = max(entry["max_abs"], abs_err)
        if isinstance(ulp, int) and isinstance(entry["max_ulp"], int):
            entry["max_ulp"] = max(entry["max_ulp"], ulp)
        else:  # "-": not a float output
            entry["max_ulp"] = ulp
    return errors


def run_case(tgc, group, name, path, timeout, target="c", image_loop="auto",
             winograd="auto", conv_layout="auto"):
    start = time.time()
    try:
        proc = subprocess.run(
            [tgc, "verify", path, "--rtol", "1e-3", "--atol", "1e-7",
             "--target", target, "--image-loop", image_loop,
             "--winograd", winograd, "--conv-layout", conv_layout],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            timeout=timeout, errors="replace")
        ok = proc.returncode == 0
        output = proc.stdout
        detail = "" if ok else first_error(output)
        if proc.returncode < 0:
            detail = f"crashed with signal {-proc.returncode}: {detail}"
    except subprocess.TimeoutExpired:
        ok, output, detail = False, "", f"timed out after {timeout} s"
    return {"group": group, "case": name, "passed": ok, "detail": detail,
            "outputs": output_errors(output),
            "seconds": round(time.time() - start, 2)}


def git_commit():
    try:
        return subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"],
                              capture_output=True, text=True).stdout.strip() or "unknown"
    except OSError:
        return "unknown"


def write_scoreboard(results, xfail, cases, out_path, command, target="c"):
    from op_coverage import coverage_table
    by_case = {f"{r['group']}/{r['case']}": r for r in results}
    paths = {f"{g}/{n}": p for g, n, p in cases}
    lines = ["# ONNX backend conformance", "",
             "Generated by `test/conformance/run.py --write-scoreboard` from a run of every case",
             f"through `tgc verify` ({TARGETS[target]}, relative 1e-3, absolute 1e-7). Do not edit by hand.",
             f"Command: `{command}`, at commit {git_commit()}.", ""]
    total = sum(1 for r in results if r["passed"])
    lines += [f"**{total} of {len(results)} cases pass.**", "",
              "| group | cases | pass | expected failures |", "|---|---|---|---|"]
    for group in GROUPS:
        rs = [r for r in results if r["group"] == group]
        if not rs:
            continue
        p = sum(1 for r in rs if r["passed"])
        lines.append(f"| {group} | {len(rs)} | {p} | {len(rs) - p} |")
    lines += ["", "## Op coverage", "",
              "Every op the cases use. *opsets passed*: the versions of the op's ONNX schema (since-version)",
              "that passing cases exercise; *dtypes passed*: the element types of its first input (of its",
              "output for ops without inputs) in passing cases; a case counts for every op its model uses;",
              "*limits*: the reasons of the expected failures reported on a node of this op.", ""]
    lines += coverage_table(results, paths, xfail)
    lines += ["", "## Expected failures", "",
              "From `test/conformance/xfail" + ("" if target == "c" else "-" + target) + ".txt`.", "",
              "| case | reason |", "|---|---|"]
    for key in sorted(xfail):
        if key in by_case and not by_case[key]["passed"]:
            lines.append(f"| {key} | {xfail[key]} |")
    with open(out_path, "w") as f:
        f.write("\n".join(lines) + "\n")


def run_cases(args, cases):
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_case, args.tgc, g, n, p, args.timeout, args.target,
                               args.image_loop, args.winograd,
                               args.conv_layout)
                   for g, n, p in cases]
        for i, future in enumerate(concurrent.futures.as_completed(futures), 1):
            r = future.result()
            results.append(r)
            if sys.stdout.isatty():
                print(f"\r[{i}/{len(cases)}] {r['group']}/{r['case']}".ljust(70), end="", flush=True)
    results.sort(key=lambda r: (GROUPS.index(r["group"]), r["case"]))
    if sys.stdout.isatty():
        print()
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tgc", help="the tgc binary that runs the cases")
    parser.add_argument("--from-results", metavar="JSON",
                        help="take the results of an earlier run (its "
                        "--results file, e.g. the one ctest writes) instead "
                        "of running the cases")
    parser.add_argument("--data", default=DATA)
    parser.add_argument("--target", choices=sorted(TARGETS), default="c")
    parser.add_argument("--xfail", help="the expected failures (default: "
                        "xfail.txt, xfail-TARGET.txt for a GPU target)")
    parser.add_argument("--image-loop", choices=["auto", "always", "never"],
                        default="auto", help="tgc verify's --image-loop: "
                        "always runs every batch the graph keeps apart one "
                        "image at a time (C target)")
    parser.add_argument("--winograd",
                        choices=["auto", "always", "never", "2x2", "4x4"],
                        default="auto", help="tgc verify's --winograd: "
                        "always, 2x2 and 4x4 compute every 3x3 stride-1 "
                        "convolution through Winograd F(m x m, 3x3)")
    parser.add_argument("--conv-layout", choices=["auto", "nchw", "nhwc"],
                        default="auto", help="tgc verify's --conv-layout: "
                        "nhwc computes every convolution channels last")
    parser.add_argument("--filter")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--timeout", type=int, default=180)
    parser.add_argument("--results", help="write every result as JSON here")
    parser.add_argument("--write-scoreboard", action="store_true")
    parser.add_argument("--write-xfail", action="store_true")
    args = parser.parse_args()

    if args.xfail is None:
        suffix = "" if args.target == "c" else "-" + args.target
        args.xfail = os.path.join(HERE, f"xfail{suffix}.txt")
    cases = discover(args.data, args.filter)
    if not cases:
        print(f"no cases found under {args.data}", file=sys.stderr)
        return 1
    xfail = read_xfail(args.xfail)
    if args.from_results:
        with open(args.from_results) as f:
            results = json.load(f)
        wanted = {(g, n) for g, n, _ in cases}
        results = [r for r in results if (r["group"], r["case"]) in wanted]
    elif args.tgc:
        results = run_cases(args, cases)
    else:
        parser.error("give --tgc to run the cases, or --from-results")

    unexpected, stale = [], []
    for r in results:
        key = f"{r['group']}/{r['case']}"
        if r["passed"] and key in xfail:
            stale.append(key)
        if not r["passed"] and key not in xfail:
            unexpected.append((key, r["detail"]))
    passed = sum(1 for r in results if r["passed"])
    failed = len(results) - passed
    for key, detail in unexpected:
        print(f"UNEXPECTED FAILURE {key}: {detail}")
    for key in stale:
        print(f"NOW PASSES (remove from xfail.txt) {key}")

    if args.results:
        with open(args.results, "w") as f:
            json.dump(results, f, indent=1)
    if args.write_xfail:
        with open(args.xfail, "w") as f:
            f.write("# Expected failures of the ONNX backend cases: group/case, then why.\n")
            for r in results:
                key = f"{r['group']}/{r['case']}"
                if not r["passed"]:
                    reason = xfail.get(key) or r["detail"]
                    f.write(f"{key} {reason}\n")
        xfail = read_xfail(args.xfail)
        unexpected, stale = [], []
    if args.write_scoreboard and not args.filter:
        suffix = "" if args.target == "c" else "-" + args.target
        option = "" if args.target == "c" else " --target " + args.target
        source = (f"--from-results {os.path.relpath(args.from_results, ROOT)}"
                  if args.from_results else "--tgc build/bin/tgc")
        write_scoreboard(results, xfail, cases,
                         os.path.join(ROOT, "docs", f"conformance{suffix}.md"),
                         f"test/conformance/run.py {source}{option} --write-scoreboard",
                         args.target)

    print(f"conformance: {passed} of {len(results)} cases pass; "
          f"{len(unexpected)} unexpected failures, {len(stale)} listed failures now pass")
    # The plain closing line: an unexpected result counts as a failure.
    print(f"{len(results) - len(unexpected) - len(stale)} passed, {len(unexpected) + len(stale)} failed")
    return 0 if not unexpected and not stale else 1


if __name__ == "__main__":
    sys.exit(main())
