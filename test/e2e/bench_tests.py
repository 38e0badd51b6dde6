"""e2e.bench_*: `tgc bench` on the bundled models.

Its JSON carries the statistics a benchmark script reads, in order
(min <= median <= p90), for the runs asked for; it takes a CASE folder,
--input files, made-up inputs and a thread count, and pairs runs on two
threads with runs on one, and a tuned build's runs with the heuristic's;
it reports a wrong input by name and leaves no scratch files behind.
"""

import json
import os

import numpy as np

from common import check, main, save_npy


def bench_json(env, *args):
    _, stdout, _ = env.tgc_cmd("bench", *args, "--json")
    lines = stdout.strip().splitlines()
    check(len(lines) == 1, "--json printed %d lines:\n%s" % (len(lines), stdout))
    result = json.loads(lines[0])
    for key in ("median_ms", "min_ms", "p90_ms", "iterations", "threads"):
        check(key in result, "no %s in %s" % (key, lines[0]))
    check(0 < result["min_ms"] <= result["median_ms"] <= result["p90_ms"],
          "statistics out of order: %s" % lines[0])
    return result


def json_output(env):
    """A CASE folder, a set number of runs, one thread."""
    case = os.path.join(env.source, "models", "mlp")
    result = bench_json(env, case, "--iterations", "7")
    check(result["iterations"] == 7, "asked for 7 runs: %s" % result)
    check(result["threads"] == 1, "one thread by default: %s" % result)
    env.check_no_scratch_left()


def threads(env):
    """Two threads run NAME_run_parallel on the runtime's pool."""
    result = bench_json(env, env.model("resblock"), "--threads", "2",
                        "--iterations", "5")
    check(result["threads"] == 2, "asked for 2 threads: %s" % result)
    check(result["iterations"] == 5, "asked for 5 runs: %s" % result)


def scaling(env):
    """--scaling pairs each run on the pool with one on a single thread:
    the single-thread statistics in order, and the median of the pairs'
    ratios, which lies between the least and the most any pairing of the
    two sets of runs gives (with 4 runs, p90 is the slowest). On one
    thread it is an error naming the flag."""
    result = bench_json(env, env.model("resblock"), "--threads", "2",
                        "--scaling", "--iterations", "4")
    one = result.get("one_thread")
    check(one is not None and "speedup" in result,
          "no one_thread or speedup: %s" % result)
    check(0 < one["min_ms"] <= one["median_ms"] <= one["p90_ms"],
          "1-thread statistics out of order: %s" % one)
    check(result["iterations"] == 4, "asked for 4 pairs: %s" % result)
    least = one["min_ms"] / result["p90_ms"]
    most = one["p90_ms"] / result["min_ms"]
    check(least <= result["speedup"] <= most,
          "speedup %.3f outside [%.3f, %.3f]" % (result["speedup"], least,
                                                 most))
    _, stdout, _ = env.tgc_cmd("bench", env.model("resblock"), "--threads",
                               "2", "--scaling", "--iterations", "2")
    check("paired with 1 thread" in stdout and "as fast" in stdout,
          "no paired line in the text:\n" + stdout)
    status, _, stderr = env.tgc_cmd("bench", env.model("mlp"), "--scaling",
                                    expect_ok=False)
    check(status == 1 and "--scaling" in stderr and "--threads 2" in stderr,
          "one thread with --scaling: exit %d\n%s" % (status, stderr))
    env.check_no_scratch_left()


def against_heuristic(env):
    """--against-heuristic pairs each run of the build a tuning database
    makes with one of the heuristic's build, linked into the same harness
    (one copy of the pool): the heuristic's statistics in order, and the
    median of the pairs' ratios within what any pairing of the two sets of
    runs gives, and how many kernels differ. Its entry for the first layer
    is edited to other actions, so the two builds differ in that one. Without --tuning-db, or with --scaling, it is
    an error naming the flags."""
    db = env.path("mlp_db.json")
    env.tgc_cmd("tune", env.model("mlp"), "-o", db, "--beam", "1",
                "--timeout-ms", "50", "--budget-s", "1")
    with open(db) as f:
        data = json.load(f)
    edited = [e for e in data["entries"] if e["kernel"] == "r_1_512_784"]
    check(len(edited) == 1, "no entry for the first layer: %s" % data)
    edited[0]["actions"] = ["PACK(0,8,1)", "UPCAST(0,8)", "UPCAST(0,2)"]
    check(edited[0]["actions"] != edited[0]["heuristic_actions"],
          "the edit is the heuristic's choice: %s" % edited[0])
    with open(db, "w") as f:
        json.dump(data, f)

    result = bench_json(env, env.model("mlp"), "--tuning-db", db,
                        "--against-heuristic", "--threads", "2",
                        "--iterations", "4")
    heuristic = result.get("heuristic")
    check(heuristic is not None and "tuned_speedup" in result and
          "one_thread" not in result,
          "no heuristic or tuned_speedup: %s" % result)
    check(0 < heuristic["min_ms"] <= heuristic["median_ms"] <=
          heuristic["p90_ms"], "heuristic statistics out of order: %s" %
          heuristic)
    check(result["iterations"] == 4, "asked for 4 pairs: %s" % result)
    check(result.get("tuned_kernels") == 1,
          "one kernel has other actions than the heuristic's: %s" % result)
    least = heuristic["min_ms"] / result["p90_ms"]
    most = heuristic["p90_ms"] / result["min_ms"]
    check(least <= result["tuned_speedup"] <= most,
          "tuned_speedup %.3f outside [%.3f, %.3f]" %
          (result["tuned_speedup"], least, most))

    _, stdout, stderr = env.tgc_cmd("bench", env.model("mlp"), "--tuning-db",
                                    db, "--against-heuristic",
                                    "--iterations", "2", "-v")
    check("paired with the heuristic's build" in stdout and
          "1 of its 3 kernels are not the heuristic's" in stdout,
          "no paired line in the text:\n" + stdout)
    cc = [line for line in stderr.splitlines() if "bench.c" in line]
    check(len(cc) == 1 and "/heuristic/heuristic.c" in cc[0] and
          "/package/net.c" in cc[0] and cc[0].count("tgc_pool.c") == 1,
          "the harness is not built from both packages and one pool:\n" +
          stderr)

    for flags, named in ((["--against-heuristic"], "--tuning-db"),
                         (["--against-heuristic", "--tuning-db", db,
                           "--threads", "2", "--scaling"], "--scaling")):
        status, _, stderr = env.tgc_cmd("bench", env.model("mlp"), *flags,
                                        expect_ok=False)
        check(status == 1 and "--against-heuristic" in stderr and
              named in stderr, "%s: exit %d\n%s" % (flags, status, stderr))
    env.check_no_scratch_left()


def inputs(env):
    """--input files, and the text line without --json."""
    x = save_npy(env.path("x.npy"),
                 np.ones((1, 1, 28, 28), dtype=np.float32))
    _, stdout, _ = env.tgc_cmd("bench", env.model("cnn"), "--input",
                               "input=" + x, "--iterations", "3")
    check("min" in stdout and "median" in stdout and "p90" in stdout and
          "(3 runs, 1 thread)" in stdout, "unexpected output:\n" + stdout)


def profile(env):
    """--profile: each kernel's time inside the model, one entry per
    kernel of the package in its order, with the manifest's costs and opt
    actions; in the text, a table of them."""
    model = env.model("resblock")
    package = env.path("resblock_package")
    env.tgc_cmd("compile", model, "-o", package)
    with open(os.path.join(package, "net.json")) as f:
        manifest = json.load(f)["kernels"]
    result = bench_json(env, model, "--profile", "--threads", "2",
                        "--iterations", "5")
    kernels = result.get("kernels", [])
    check([k["function"] for k in kernels] ==
          [k["function"] for k in manifest],
          "profiled kernels differ from the manifest's: %s" % kernels)
    for timed, listed in zip(kernels, manifest):
        check(0 < timed["min_ms"] <= timed["median_ms"],
              "kernel times out of order: %s" % timed)
        check(timed["flops"] == listed["flops"] and
              timed["bytes"] == listed["bytes"] and
              timed["opts"] == " ".join(listed.get("opts", [])),
              "costs or opts differ from the manifest's: %s" % timed)
    check(abs(result["kernels_median_ms"] -
              sum(k["median_ms"] for k in kernels)) < 1e-6,
          "kernels_median_ms is not the kernels' sum: %s" % result)
    _, stdout, _ = env.tgc_cmd("bench", model, "--profile", "--iterations",
                               "3")
    table = stdout.splitlines()
    check(table[1].startswith("per kernel (median of 3 runs") and
          table[-1].split()[:2] == ["all", "kernels"] and
          len(table) == 3 + len(manifest) + 1,
          "unexpected table:\n" + stdout)
    env.check_no_scratch_left()


def profile_image_loop(env):
    """--profile of a batch computed one image at a time: each kernel runs
    once per image, and its time, FLOPs and bytes are those of all four
    calls (the manifest lists one call's), so its rates are not a
    quarter of what it achieved."""
    model = env.model("dyncnn")
    batch = save_npy(env.path("batch4.npy"), np.ones((4, 3, 32, 32),
                                                     dtype=np.float32))
    package = env.path("looped_package")
    env.compile_model(model, package, "--input-shape", "input=4x3x32x32",
                      "--image-loop", "always")
    with open(os.path.join(package, "net.json")) as f:
        manifest = json.load(f)
    check(manifest["images"] == 4, "not looped: images %s" % manifest["images"])
    result = bench_json(env, model, "--input", "input=" + batch,
                        "--image-loop", "always", "--profile",
                        "--iterations", "3")
    kernels = result.get("kernels", [])
    check(len(kernels) == len(manifest["kernels"]),
          "profiled %d kernels of %d" % (len(kernels),
                                         len(manifest["kernels"])))
    for timed, listed in zip(kernels, manifest["kernels"]):
        check(timed["calls"] == 4 and timed["flops"] == 4 * listed["flops"]
              and timed["bytes"] == 4 * listed["bytes"],
              "not the costs of 4 calls of %s: %s" % (listed, timed))
        check(abs(timed["gflop_per_s"] - timed["flops"] /
                  (timed["median_ms"] * 1e6)) < 1e-6 * timed["gflop_per_s"]
              + 1e-9, "GFLOP/s is not the run's FLOPs over its time: %s" %
              timed)
    _, stdout, _ = env.tgc_cmd("bench", model, "--input", "input=" + batch,
                               "--image-loop", "always", "--profile",
                               "--iterations", "3")
    check("each kernel called once per image, 4 times a run" in stdout,
          "the table does not say its kernels run per image:\n" + stdout)
    env.check_no_scratch_left()


def unknown_input(env):
    """An --input the model does not have is an error naming it."""
    x = save_npy(env.path("x.npy"), np.ones((1, 784), dtype=np.float32))
    status, _, stderr = env.tgc_cmd("bench", env.model("mlp"), "--input",
                                    "nope=" + x, expect_ok=False)
    check(status == 1, "exit status %d" % status)
    check("the model has no input 'nope'" in stderr,
          "the error does not name the input:\n" + stderr)


if __name__ == "__main__":
    main({"json_output": json_output, "threads": threads, "scaling": scaling,
          "against_heuristic": against_heuristic, "inputs": inputs,
          "profile": profile, "profile_image_loop": profile_image_loop,
          "unknown_input": unknown_input})
