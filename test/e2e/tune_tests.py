"""e2e.tune_*: `tgc tune`, `tgc compile --tuning-db` and `--beam`.

A tiny search (beam 1, short timeouts) on the MLP writes a database with
one entry per kernel; compiling with it twice gives byte-identical
packages without searching, the tuned kernels carry the entry's actions
and still compute the reference outputs (tgc verify and tgc run take
--tuning-db too); the choices between --winograd auto and always and between
--conv-layout auto and the other layout are timed on the whole model and
recorded, and a compile follows them; a database
that is not one, or whose entry was edited, is refused by name. Nothing
here asserts a time.
"""

import filecmp
import json
import os
import re
import shutil
import subprocess

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from common import check, main

TINY = ["--beam", "1", "--timeout-ms", "50"]


def tune_mlp(env):
    db = env.path("mlp.json")
    _, _, stderr = env.tgc_cmd("tune", env.model("mlp"), "-o", db, *TINY)
    check("3 distinct kernels, 0 in the tuning database, 3 to search" in
          stderr, "unexpected progress output:\n" + stderr)
    check(re.search(r"s building candidates, [0-9.]+ s compiling, [0-9.]+ s "
                    r"timing", stderr) and
          "3 kernels timed alone add up to" in stderr,
          "no phase times or model estimate:\n" + stderr)
    with open(db) as f:
        data = json.load(f)
    check(data["format"] == "tgc-tuning-db", "format: %s" % data.get("format"))
    entries = data["entries"]
    check(len(entries) == 3, "expected 3 entries, got %d" % len(entries))
    for entry in entries:
        for key in ("key", "kernel", "kernel_hash", "context", "actions",
                    "heuristic_actions", "heuristic_ms", "best_ms"):
            check(key in entry, "entry without %s: %s" % (key, entry))
        check(entry["best_ms"] > 0 and entry["heuristic_ms"] > 0,
              "times not measured: %s" % entry)
        check(entry["best_ms"] <= entry["heuristic_ms"],
              "tuned slower than the heuristic: %s" % entry)
        for field in ("cpu", "cpu_model", "isa", "compiler", "cflags",
                      "options"):
            check(entry["context"].get(field), "empty context field %s: %s"
                  % (field, entry["context"]))
        # A choice of the search other than the heuristic's was timed
        # inside the model, and applies only where it was faster there.
        search = entry["search_actions"]
        if search == entry["heuristic_actions"]:
            check(entry["actions"] == search, "actions not the search's: %s"
                  % entry)
            continue
        check(entry["model_heuristic_ms"] > 0 and entry["model_tuned_ms"] > 0,
              "not timed inside the model: %s" % entry)
        # Read against the kernels both builds ran unchanged: their median
        # ratio taken out, their spread (2% to 15%) to clear.
        check(0.02 <= entry["model_margin"] <= 0.15 and
              entry["model_shift"] > 0,
              "no noise recorded with the model's times: %s" % entry)
        faster = (entry["model_tuned_ms"] / entry["model_shift"] <
                  (1 - entry["model_margin"]) * entry["model_heuristic_ms"])
        # ... and no slower at the other thread count the package may run
        # at (all CPUs, the search having run on one), where there is one.
        slower = False
        if (os.cpu_count() or 1) > 1:
            check(entry["model_other_threads"] == os.cpu_count(),
                  "not timed at the other thread count: %s" % entry)
            slower = (entry["model_other_tuned_ms"] <= 0 or
                      entry["model_other_tuned_ms"] /
                      entry["model_other_shift"] >
                      (1 + entry["model_other_margin"]) *
                      entry["model_other_heuristic_ms"])
        check(entry["actions"] ==
              (search if faster and not slower
               else entry["heuristic_actions"]),
              "the model's times and the applied actions disagree: %s" % entry)
        check("inside the model, " in stderr and
              "run unchanged took" in stderr,
              "no summary of the check inside the model:\n" + stderr)
    return db, entries


def db_compile(env):
    """Tune, then compile twice with the database: no search, the same
    bytes, the entry's actions in the kernels, the reference outputs."""
    db, entries = tune_mlp(env)
    before = open(db).read()
    outputs = []
    for i in range(2):
        out = env.path("tuned%d" % i)
        _, _, stderr = env.tgc_cmd("compile", env.model("mlp"), "-o", out,
                                   "--tuning-db", db, "--dump-ir", "optimize",
                                   "-v")
        check("tuning db: 3 of 3 distinct kernels have entries" in stderr,
              "the database was not applied:\n" + stderr)
        check("tune:" not in stderr, "compile searched:\n" + stderr)
        outputs.append(out)
    compare = filecmp.dircmp(outputs[0], outputs[1])
    check(not compare.diff_files and not compare.left_only and
          not compare.right_only,
          "two compiles differ: %s %s %s" % (compare.diff_files,
                                             compare.left_only,
                                             compare.right_only))
    for name in ("net.c", "net_weights.c", "net.h"):
        check(filecmp.cmp(os.path.join(outputs[0], name),
                          os.path.join(outputs[1], name), shallow=False),
              "%s differs between the two compiles" % name)

    # Each kernel records exactly its entry's actions.
    dump = os.path.join(outputs[0], "ir", "07-optimize.mlir")
    with open(dump) as f:
        recorded = sorted(re.findall(r'tgc\.kernel "([^"]+)".*?opts = \[([^]]*)\]',
                                     f.read()))
    wanted = sorted((e["kernel"], ", ".join('"%s"' % a for a in e["actions"]))
                    for e in entries)
    check(recorded == wanted, "kernels record %s, the database says %s" % (
        recorded, wanted))

    # --beam with a complete database searches nothing and changes nothing.
    out = env.path("beam")
    _, _, stderr = env.tgc_cmd("compile", env.model("mlp"), "-o", out,
                               "--tuning-db", db, "--beam", "1")
    check("3 in the tuning database, 0 to search" in stderr,
          "--beam searched again:\n" + stderr)
    check(filecmp.cmp(os.path.join(out, "net.c"),
                      os.path.join(outputs[0], "net.c"), shallow=False),
          "--beam with a complete database changed the code")
    check(open(db).read() == before, "the database was rewritten")

    # The tuned kernels still compute the model: verify the optimize dump.
    data = os.path.join(env.source, "models", "mlp", "test_data_set_0")
    _, stdout, _ = env.tgc_cmd("verify", dump, "--inputs", data,
                               "--expected", data)
    check("PASS" in stdout and "FAIL" not in stdout,
          "verify of the tuned kernels:\n" + stdout)

    # verify and run take the database too: the package checked is the
    # tuned one a user ships.
    case = os.path.join(env.source, "models", "mlp")
    _, stdout, stderr = env.tgc_cmd("verify", case, "--tuning-db", db, "-v")
    check("tuning db: 3 of 3 distinct kernels have entries" in stderr,
          "verify did not apply the database:\n" + stderr)
    check("PASS" in stdout and "FAIL" not in stdout,
          "verify --tuning-db:\n" + stdout)
    run_out = env.path("run_tuned")
    _, _, stderr = env.tgc_cmd("run", env.model("mlp"), "--input",
                               "input=" + os.path.join(data, "input_0.pb"),
                               "--tuning-db", db, "--output-dir", run_out,
                               "-v")
    check("tuning db: 3 of 3 distinct kernels have entries" in stderr,
          "run did not apply the database:\n" + stderr)
    check(os.listdir(run_out) == ["output.npy"],
          "run --tuning-db wrote %s" % os.listdir(run_out))

    _, stdout, _ = env.tgc_cmd("tune", "--report", db)
    check(all(e["kernel"] in stdout for e in entries) and
          "geometric mean speedup over the heuristic" in stdout,
          "report:\n" + stdout)
    # Each choice checked inside the model shows both thread counts' times.
    if (os.cpu_count() or 1) > 1 and any(
            e["search_actions"] != e["heuristic_actions"] for e in entries):
        check("  on %d threads " % os.cpu_count() in stdout,
              "the report lacks the other thread count:\n" + stdout)
    env.check_no_scratch_left()


def cold_budget(env):
    """--cold times with cold caches; --budget-s (the model's, shared among
    its kernels by their times inside it) stops a kernel's search after its
    starting points (the heuristic's actions and their prefixes, then at
    most the alternating re-timing)."""
    db = env.path("cold.json")
    _, _, stderr = env.tgc_cmd("tune", env.model("mlp"), "-o", db, "--cold",
                               "--budget-s", "0.001", *TINY, "-v")
    check(len(re.findall(r"time budget of [0-9.]+ s spent after 0 rounds",
                         stderr)) == 3,
          "the budget did not stop the rounds:\n" + stderr)
    # Shared by each kernel's time inside the model, the heuristic's build
    # timed before the search.
    check(len(re.findall(r": [0-9.]+ ms in the model, budget [0-9.]+ s",
                         stderr)) == 3,
          "the budget was not shared by the kernels' times:\n" + stderr)
    with open(db) as f:
        entries = json.load(f)["entries"]
    check(len(entries) == 3, "expected 3 entries, got %d" % len(entries))
    for entry in entries:
        starts = len([a for a in entry["heuristic_actions"]
                      if not a.startswith("THREAD")]) + 1
        check(entry["candidates"] <= starts + 2 * 3,
              "searched past the budget: %s" % entry)
    # The database still applies: the tuned MLP computes the reference.
    _, stdout, _ = env.tgc_cmd("verify",
                               os.path.join(env.source, "models", "mlp"),
                               "--tuning-db", db)
    check("PASS" in stdout and "FAIL" not in stdout, stdout)


def compile_timeout(env):
    """--compile-timeout-s: a candidate whose compile runs over it is
    dropped, the compiler's own processes stopped with it, and the search
    goes on; so are the harness's compile, shared by the candidates (they
    then compile it themselves), and the compile of the heuristic's choice
    and the best together for their timing in turns. The model is one 1x32
    by 32x32 product (one kernel, whose heuristic packs the weights for
    every ISA: 16 columns, one AVX-512 vector, it does not pack); the C
    compiler (CC) is a script that waits a minute before compiling a
    candidate with actions but no PACK, so both starting points (the
    heuristic's and no actions) compile, and before compiling the harness
    alone (-c) or beside the best's source (b.c)."""
    rng = np.random.default_rng(5)
    w = rng.standard_normal((32, 32)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"], name="product")],
        "product",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 32])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 32])],
        [numpy_helper.from_array(w, "w")])
    model = env.path("product.onnx")
    onnx.save(helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", 17)]), model)
    slow = env.path("slowcc")
    marker = "61.%d" % os.getpid()
    with open(slow, "w") as f:
        f.write("#!/bin/sh\n"
                "case \" $* \" in *' -c '*harness.c*|*/b.c' '*)\n"
                "  sleep %s & wait;;\n"
                "esac\n"
                "for arg; do\n"
                "  case $arg in *.c)\n"
                "    if grep -q 'opts:' \"$arg\" &&\n"
                "       ! grep -q 'opts:.*PACK' \"$arg\"; then\n"
                "      sleep %s & wait; fi;;\n"
                "  esac\n"
                "done\n"
                "exec cc \"$@\"\n" % (marker, marker))
    os.chmod(slow, 0o755)
    db = env.path("timeout.json")
    saved = os.environ.get("CC")
    os.environ["CC"] = slow
    try:
        _, _, stderr = env.tgc_cmd("tune", model, "-o", db,
                                   "--compile-timeout-s", "5", *TINY, "-v")
    finally:
        if saved is None:
            del os.environ["CC"]
        else:
            os.environ["CC"] = saved
    dropped = re.findall(r"\[([^]]*)\] took over 5 s to compile; dropped",
                         stderr)
    check(any(actions and "PACK" not in actions for actions in dropped),
          "no slow candidate was stopped:\n" + stderr)
    check("harness.c took over 5 s to compile; each candidate compiles its "
          "own" in stderr, "the shared harness's compile was not stopped:\n"
          + stderr)
    # The search keeps a best other than the heuristic's choice only when a
    # candidate was timed faster: then the pair's compile was stopped too.
    if "re-timed in turns" in stderr or "compile together" in stderr:
        check("the heuristic's choice and the best took over 5 s to compile "
              "together" in stderr, "the pair's compile was not stopped:\n"
              + stderr)
    check("does not compile" not in stderr, "a stopped compile was reported "
          "as an error:\n" + stderr)
    left = subprocess.run(["pgrep", "-f", "sleep " + marker],
                          stdout=subprocess.PIPE, universal_newlines=True)
    check(not left.stdout.strip(), "a stopped compiler's child still runs: "
          "%s" % left.stdout)
    with open(db) as f:
        entries = json.load(f)["entries"]
    check(len(entries) == 1, "expected 1 entry, got %d" % len(entries))
    actions = entries[0]["actions"]
    check(not actions or any(a.startswith("PACK") for a in actions),
          "a stopped candidate was chosen: %s" % entries[0])


def kernels_with_entries(stderr):
    """(found, distinct) from compile -v's "tuning db: N of M distinct
    kernels have entries"."""
    match = re.search(r"tuning db: (\d+) of (\d+) distinct kernels have "
                      r"entries", stderr)
    check(match, "no tuning db line:\n" + stderr)
    return int(match.group(1)), int(match.group(2))


def conv_model(env, name, channels, size, seed):
    """NAME.onnx: a 3x3 convolution of CHANNELS into as many, padded to keep
    its SIZE x SIZE image, with a constant random weight."""
    rng = np.random.default_rng(seed)
    w = (rng.standard_normal((channels, channels, 3, 3)) / 10).astype(
        np.float32)
    shape = [1, channels, size, size]
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w"], ["y"], name="conv",
                          pads=[1, 1, 1, 1])],
        name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)],
        [numpy_helper.from_array(w, "w")])
    model = env.path(name + ".onnx")
    onnx.save(helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", 17)]), model)
    return model


def options(env):
    """--winograd (and --image-loop) reach the search: a database tuned
    with --winograd never is complete for a compile with --winograd never,
    while the default compile's Winograd kernels find no entries (only the
    padded input's copy, which both have, does)."""
    model = conv_model(env, "conv64", 64, 12, seed=3)
    db = env.path("direct.json")
    env.tgc_cmd("tune", model, "-o", db, "--winograd", "never",
                "--image-loop", "never", *TINY)
    _, _, stderr = env.tgc_cmd("compile", model, "-o", env.path("direct"),
                               "--winograd", "never", "--image-loop",
                               "never", "--tuning-db", db, "-v")
    found, distinct = kernels_with_entries(stderr)
    check(found == distinct, "a compile with the tuned options misses "
          "entries:\n" + stderr)
    _, _, stderr = env.tgc_cmd("compile", model, "-o", env.path("winograd"),
                               "--tuning-db", db, "-v")
    found, distinct = kernels_with_entries(stderr)
    check(found < distinct, "Winograd's kernels found direct entries:\n" +
          stderr)
    env.check_no_scratch_left()


def graph_choice(env):
    """--winograd auto's rule declines a convolution of 8 channels, and
    --conv-layout auto's keeps it NCHW; tune builds the model both ways for
    each, times them and records the faster as a graph choice, which a
    compile with the database then follows (unless the option says
    otherwise) and a second tune reads instead of timing.
    Which one wins is the machine's business: only the agreement between
    the recorded times, the value and the kernels compiled is checked."""
    model = conv_model(env, "conv8", 8, 16, seed=5)
    db = env.path("conv8.json")
    _, _, stderr = env.tgc_cmd("tune", model, "-o", db, *TINY)
    check(re.search(r"the model takes [0-9.]+ ms with --winograd auto, "
                    r"[0-9.]+ ms with always: (auto|always)", stderr),
          "the graph choice was not timed:\n" + stderr)
    # auto keeps 8 channels NCHW: nhwc makes another graph, nchw auto's.
    check(re.search(r"the model takes [0-9.]+ ms with --conv-layout auto, "
                    r"[0-9.]+ ms with nhwc: (auto|nhwc)", stderr),
          "the layout was not timed:\n" + stderr)
    with open(db) as f:
        choices = {c["option"]: c for c in json.load(f)["graph_choices"]}
    check(sorted(choices) == ["conv-layout", "winograd"],
          "expected a choice of each: %s" % choices)
    for option, other in (("winograd", "always"), ("conv-layout", "nhwc")):
        choice = choices[option]
        check(choice["model"] == "conv8.onnx", "graph choice: %s" % choice)
        times = choice["model_ms"]
        check(sorted(times) == sorted(["auto", other]) and
              times["auto"] > 0 and times[other] > 0,
              "graph choice not timed: %s" % choice)
        faster = times[other] < 0.98 * times["auto"]
        check(choice["value"] == (other if faster else "auto"),
              "the times and the value disagree: %s" % choice)
    layout = choices["conv-layout"]
    choice = choices["winograd"]
    # Winograd's choice is made first, the layout as given; the layout's
    # with Winograd's choice.
    check(choice["given"] == {"conv-layout": "auto"} and
          layout["given"] == {"winograd": choice["value"]},
          "the choices' other options: %s" % choices)

    # The compile follows the choice, and finds entries for every kernel of
    # the graph chosen (the search tuned those).
    _, _, stderr = env.tgc_cmd("compile", model, "-o", env.path("chosen"),
                               "--tuning-db", db, "-v")
    check("tuning db: --winograd %s" % choice["value"] in stderr and
          "tuning db: --conv-layout %s" % layout["value"] in stderr,
          "the compile did not apply the choices:\n" + stderr)
    found, distinct = kernels_with_entries(stderr)
    check(found == distinct, "the chosen graph's kernels miss entries:\n" +
          stderr)
    with open(os.path.join(env.path("chosen"), "net.json")) as f:
        names = [k["name"] for k in json.load(f)["kernels"]]
    winograd = any(name.startswith("r_16_") for name in names)
    check(winograd == (choice["value"] == "always"),
          "kernels %s for --winograd %s" % (names, choice["value"]))
    # Channels last, the padded copy is [N, H, W, C]: E_1_18_18_8.
    check(("E_1_18_18_8" in names) == (layout["value"] == "nhwc"),
          "kernels %s for --conv-layout %s" % (names, layout["value"]))
    # The choice is the model's, wherever its file is.
    os.makedirs(env.path("moved"))
    moved = os.path.join(env.path("moved"), "renamed.onnx")
    shutil.copy(model, moved)
    _, _, stderr = env.tgc_cmd("compile", moved, "-o", env.path("moved_out"),
                               "--tuning-db", db, "-v")
    check("tuning db: --winograd %s" % choice["value"] in stderr,
          "the moved model lost its choice:\n" + stderr)
    # An explicit --winograd wins over the database.
    # So does an explicit --winograd over the layout chosen with
    # Winograd's choice: the layout was timed with other kernels.
    _, _, stderr = env.tgc_cmd("compile", model, "-o", env.path("direct"),
                               "--tuning-db", db, "--winograd", "never", "-v")
    check("tuning db: --winograd" not in stderr and
          "tuning db: --conv-layout" not in stderr,
          "--winograd never took the database's choices:\n" + stderr)
    _, _, stderr = env.tgc_cmd("compile", model, "-o", env.path("nchw"),
                               "--tuning-db", db, "--conv-layout", "nchw",
                               "-v")
    check("tuning db: --conv-layout" not in stderr,
          "--conv-layout nchw took the database's choice:\n" + stderr)

    _, stdout, _ = env.tgc_cmd("tune", "--report", db)
    for option, value, given in (
            ("winograd", choice["value"], "--conv-layout auto"),
            ("conv-layout", layout["value"], "--winograd " + choice["value"])):
        check("graph: --%s %s for conv8.onnx with %s (the model" %
              (option, value, given) in stdout,
              "the report lacks the %s choice:\n%s" % (option, stdout))

    # A second tune reads the choices and searches nothing.
    before = open(db).read()
    _, _, stderr = env.tgc_cmd("tune", model, "-o", db, *TINY)
    check("--winograd %s from the tuning database" % choice["value"] in
          stderr and "--conv-layout %s from the tuning database" %
          layout["value"] in stderr and "0 to search" in stderr,
          "the second tune did not reuse the database:\n" + stderr)
    check(open(db).read() == before, "the second tune changed the database")

    # A model with no convolution: both recorded untimed, nothing built.
    mlp_db = env.path("mlp.json")
    _, _, stderr = env.tgc_cmd("tune", env.model("mlp"), "-o", mlp_db, *TINY)
    check("the model takes" not in stderr, "the MLP was timed:\n" + stderr)
    with open(mlp_db) as f:
        choices = json.load(f)["graph_choices"]
    check(len(choices) == 2 and
          all(c["value"] == "auto" and not c["model_ms"] and
              c["model"] == "mlp/model.onnx" for c in choices),
          "the MLP's graph choices: %s" % choices)
    check("--winograd always makes the graph auto makes" in stderr and
          "--conv-layout nchw and nhwc make the graph auto makes" in stderr,
          "the MLP's tune did not say why nothing was timed:\n" + stderr)

    # A convolution auto's rule takes already: always makes the same graph,
    # though its transformed weight gets a name of its own (the context
    # has auto's already), so Winograd is not built or timed. Its 64
    # channels run channels last by auto's rule: NCHW is timed against it.
    conv64 = conv_model(env, "conv64", 64, 12, seed=3)
    conv64_db = env.path("conv64.json")
    _, _, stderr = env.tgc_cmd("tune", conv64, "-o", conv64_db, *TINY)
    check("with --winograd auto" not in stderr and
          "--winograd always makes the graph auto makes" in stderr and
          re.search(r"with --conv-layout auto, [0-9.]+ ms with nchw", stderr),
          "conv64's choices were not timed as expected:\n" + stderr)
    with open(conv64_db) as f:
        choices = {c["option"]: c for c in json.load(f)["graph_choices"]}
    check(choices["winograd"]["value"] == "auto" and
          not choices["winograd"]["model_ms"] and
          sorted(choices["conv-layout"]["model_ms"]) == ["auto", "nchw"],
          "conv64's graph choices: %s" % choices)
    env.check_no_scratch_left()


def bad_db(env):
    """A file that is not a database, and an entry edited by hand."""
    not_db = env.path("not_db.json")
    with open(not_db, "w") as f:
        f.write('{"entries": []}')
    status, _, stderr = env.tgc_cmd("compile", env.model("mlp"), "-o",
                                    env.path("out"), "--tuning-db", not_db,
                                    expect_ok=False)
    check(status == 1 and "not_db.json" in stderr and
          "is not a tuning database" in stderr,
          "status %d:\n%s" % (status, stderr))
    check(not os.path.exists(env.path("out")), "a package was written")

    status, _, stderr = env.tgc_cmd("tune", "--report", not_db,
                                    expect_ok=False)
    check(status == 1 and "is not a tuning database" in stderr, stderr)

    edited = env.path("edited.json")
    with open(edited, "w") as f:
        json.dump({"format": "tgc-tuning-db", "version": 1, "entries": [{
            "key": "0" * 64, "kernel": "r_1_512_784", "kernel_hash": "1" * 64,
            "context": {"target": "c", "cpu": "x", "cpu_model": "x",
                        "isa": "x", "compiler": "x", "cflags": "x",
                        "options": "x"},
            "actions": ["UPCAST(0,4)"], "heuristic_actions": []}]}, f)
    status, _, stderr = env.tgc_cmd("compile", env.model("mlp"), "-o",
                                    env.path("out"), "--tuning-db", edited,
                                    expect_ok=False)
    check(status == 1 and "edited.json" in stderr and
          "the key is not the hash of its kernel_hash and context" in stderr,
          "status %d:\n%s" % (status, stderr))

    status, _, stderr = env.tgc_cmd("tune", env.model("mlp"), expect_ok=False)
    check(status == 1 and "-o DB.json" in stderr, stderr)

    # verify refuses a bad database like compile does.
    status, _, stderr = env.tgc_cmd("verify",
                                    os.path.join(env.source, "models", "mlp"),
                                    "--tuning-db", edited, expect_ok=False)
    check(status == 1 and "edited.json" in stderr, "status %d:\n%s" %
          (status, stderr))


if __name__ == "__main__":
    main({"db_compile": db_compile, "cold_budget": cold_budget,
          "compile_timeout": compile_timeout,
          "options": options, "graph_choice": graph_choice,
          "bad_db": bad_db})
