"""e2e.errors.*: bad input to tgc gives one clear error and leaves nothing.

Each test feeds tgc one kind of bad input and checks that the exit status is
1, that stderr is `tgc: error: ...` naming the file (and the node or input
where there is one), and that no output or temporary folder is left behind.
"""

import glob
import os
import shutil
import signal
import subprocess
import time

import numpy as np

from common import check, main, save_npy


def expect_error(env, argv, mentions, out_dir=None):
    """Runs tgc with `argv`; checks the failure and returns stderr."""
    status, stdout, stderr = env.tgc_cmd(*argv, expect_ok=False)
    check(status == 1, "expected exit status 1, got %d; stderr:\n%s" %
          (status, stderr))
    check(stderr.startswith("tgc: error: "),
          "stderr does not start with 'tgc: error: ':\n" + stderr)
    for text in mentions:
        check(text in stderr, "the error does not mention %r:\n%s" %
              (text, stderr))
    if out_dir:
        check(not os.path.exists(out_dir),
              "%s was created although tgc failed" % out_dir)
        left = glob.glob(out_dir + ".tmp-*") + glob.glob(out_dir + ".old-*")
        check(not left, "temporary folders left behind: %s" % left)
    env.check_no_scratch_left()
    return stderr


def cnn_input(env, name, shape=(1, 1, 28, 28), dtype=np.float32):
    return save_npy(env.path(name), np.zeros(shape, dtype=dtype))


def truncated_onnx(env):
    model = env.path("truncated.onnx")
    env.run(["sh", "-c", "head -c 20000 '%s' > '%s'" %
             (env.model("cnn"), model)])
    expect_error(env, ["compile", model, "-o", env.path("out")],
                 [model], out_dir=env.path("out"))


def not_onnx(env):
    model = env.path("notes.onnx")
    with open(model, "w") as f:
        f.write("this is a text file, not an ONNX model\n")
    expect_error(env, ["compile", model, "-o", env.path("out")],
                 [model], out_dir=env.path("out"))


def missing_model(env):
    model = env.path("no-such-model.onnx")
    stderr = expect_error(env, ["compile", model, "-o", env.path("out")],
                          [model], out_dir=env.path("out"))
    check("No such file" in stderr or "no such file" in stderr,
          "the error does not say the file is missing:\n" + stderr)


def bad_mlir(env):
    """A broken IR file: the error gives the line and column."""
    model = env.path("broken.mlir")
    with open(model, "w") as f:
        f.write("module {\n  func.func @main( {\n")
    expect_error(env, ["compile", model, "-o", env.path("out")],
                 [model + ":2:"], out_dir=env.path("out"))


def bad_extension(env):
    model = env.path("model.txt")
    shutil.copy(env.model("cnn"), model)
    expect_error(env, ["compile", model, "-o", env.path("out")],
                 [model, ".onnx", ".mlir"], out_dir=env.path("out"))


def unsupported_op(env):
    """Two nodes tgc cannot compile (Unique: its output size depends on the
    data, which an ahead-of-time package cannot size): both are reported."""
    import onnx
    from onnx import TensorProto, helper
    nodes = [helper.make_node("Unique", ["x"], ["y1"], name="unique_a"),
             helper.make_node("Relu", ["x"], ["r"], name="relu_ok"),
             helper.make_node("Unique", ["r"], ["y2"], name="unique_b")]
    graph = helper.make_graph(
        nodes, "unsupported",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 3])],
        [helper.make_tensor_value_info("y1", TensorProto.FLOAT, [None]),
         helper.make_tensor_value_info("y2", TensorProto.FLOAT, [None])])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    path = env.path("unique.onnx")
    onnx.save(model, path)
    stderr = expect_error(env, ["compile", path, "-o", env.path("out")],
                          [path, "node 'unique_a' (Unique)",
                           "node 'unique_b' (Unique)"],
                          out_dir=env.path("out"))
    check("relu_ok" not in stderr,
          "a supported node is reported as an error:\n" + stderr)


def snapshot(folder):
    """Every file under `folder` with its contents."""
    files = {}
    for root, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                files[os.path.relpath(path, folder)] = f.read()
    return files


def keeps_existing_output(env):
    """A failed compile leaves the package of an earlier compile as it was."""
    out = env.path("out")
    env.tgc_cmd("compile", env.model("cnn"), "-o", out, "--name", "old",
                "--dump-ir=import")
    before = snapshot(out)
    model = env.path("truncated.onnx")
    with open(env.model("cnn"), "rb") as f:
        data = f.read()
    with open(model, "wb") as f:
        f.write(data[:len(data) // 2])
    expect_error(env, ["compile", model, "-o", out, "--name", "new"], [model])
    check(snapshot(out) == before, "the earlier package changed")
    left = glob.glob(out + ".tmp-*") + glob.glob(out + ".old-*")
    check(not left, "temporary folders left behind: %s" % left)


def refuses_foreign_output(env):
    """-o naming a folder that is not a package never deletes it."""
    out = env.path("src")
    os.makedirs(out)
    with open(os.path.join(out, "main.c"), "w") as f:
        f.write("int main(void) { return 0; }\n")
    with open(os.path.join(out, "config.json"), "w") as f:
        f.write('{"format": "something else"}\n')
    before = snapshot(out)
    expect_error(env, ["compile", env.model("cnn"), "-o", out],
                 [out, "not a tgc package"])
    check(snapshot(out) == before, "the folder changed")
    left = glob.glob(out + ".tmp-*") + glob.glob(out + ".old-*")
    check(not left, "temporary folders left behind: %s" % left)


def unknown_dump_stage(env):
    expect_error(env, ["compile", env.model("cnn"), "-o", env.path("out"),
                       "--dump-ir=import,lowr"],
                 ["unknown stage 'lowr'", "import, decompose", "or all"],
                 out_dir=env.path("out"))


def unknown_cpu(env):
    """An unknown --cpu is refused by name, not taken for a plain CPU."""
    expect_error(env, ["compile", env.model("cnn"), "-o", env.path("out"),
                       "--cpu", "znver99"],
                 ["--cpu znver99: unknown CPU", "haswell"],
                 out_dir=env.path("out"))
    expect_error(env, ["tune", env.model("cnn"), "-o", env.path("db.json"),
                       "--cpu", "znver99"],
                 ["--cpu znver99: unknown CPU"])


def bad_number(env):
    """A count below 1 or a tolerance below 0 is refused by name, with what
    the option takes (not a range of doubles), before anything is done."""
    expect_error(env, ["compile", env.model("cnn"), "-o", env.path("out"),
                       "--parallel-images", "0"],
                 ["--parallel-images: 0 is not a number above 0"],
                 out_dir=env.path("out"))
    expect_error(env, ["verify", env.model("cnn"), "--rtol", "-1"],
                 ["--rtol: -1 is not a number of 0 or more"])


def missing_input_file(env):
    missing = env.path("missing.npy")
    expect_error(env, ["run", env.model("cnn"), "--input",
                       "input=" + missing, "--output-dir", env.path("out")],
                 [missing, "input 'input'"], out_dir=env.path("out"))


def wrong_shape(env):
    bad = cnn_input(env, "small.npy", shape=(1, 1, 27, 28))
    expect_error(env, ["run", env.model("cnn"), "--input", "input=" + bad,
                       "--output-dir", env.path("out")],
                 [bad, "input 'input'", "[1,1,27,28]", "[1,1,28,28]"],
                 out_dir=env.path("out"))


def wrong_dtype(env):
    bad = cnn_input(env, "double.npy", dtype=np.float64)
    expect_error(env, ["run", env.model("cnn"), "--input", "input=" + bad,
                       "--output-dir", env.path("out")],
                 [bad, "input 'input'", "float64", "float32"],
                 out_dir=env.path("out"))


def unknown_input_name(env):
    good = cnn_input(env, "x.npy")
    expect_error(env, ["run", env.model("cnn"), "--input", "input=" + good,
                       "--input", "image=" + good,
                       "--output-dir", env.path("out")],
                 [good, "no input 'image'", "'input'"],
                 out_dir=env.path("out"))


def missing_input_name(env):
    model = env.model("cnn")
    expect_error(env, ["run", model, "--output-dir", env.path("out")],
                 [model, "input 'input' is not given"],
                 out_dir=env.path("out"))


def bad_tensor_file(env):
    bad = env.path("garbage.npy")
    with open(bad, "wb") as f:
        f.write(b"\x93NUMPY garbage")
    expect_error(env, ["run", env.model("cnn"), "--input", "input=" + bad,
                       "--output-dir", env.path("out")],
                 [bad, "input 'input'"], out_dir=env.path("out"))


def interrupted(env):
    """Ctrl-C while `tgc run` waits for the C compiler removes its scratch
    folder. A stand-in compiler that sleeps makes the timing certain."""
    marker = env.path("cc-started")
    slow_cc = env.path("slow-cc")
    with open(slow_cc, "w") as f:
        f.write("#!/bin/sh\ntouch '%s'\nexec sleep 60\n" % marker)
    os.chmod(slow_cc, 0o755)
    good = cnn_input(env, "x.npy")
    out = env.path("out")
    process = subprocess.Popen(
        [env.tgc, "run", env.model("cnn"), "--input", "input=" + good,
         "--output-dir", out],
        env=dict(os.environ, TMPDIR=env.tmp, CC=slow_cc),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True)
    deadline = time.time() + 120
    while not os.path.exists(marker) and process.poll() is None:
        check(time.time() < deadline, "the stand-in compiler never started")
        time.sleep(0.05)
    if process.poll() is not None:
        check(False, "tgc ended before the interrupt: %s" %
              process.communicate()[1])
    check(os.listdir(env.tmp), "no scratch folder while tgc runs")
    os.killpg(process.pid, signal.SIGINT)
    process.communicate(timeout=60)
    check(process.returncode != 0, "tgc exited with 0 after an interrupt")
    check(not os.path.exists(out), "%s was created" % out)
    env.check_no_scratch_left()


main({
    "truncated_onnx": truncated_onnx,
    "not_onnx": not_onnx,
    "missing_model": missing_model,
    "bad_extension": bad_extension,
    "bad_mlir": bad_mlir,
    "unsupported_op": unsupported_op,
    "keeps_existing_output": keeps_existing_output,
    "refuses_foreign_output": refuses_foreign_output,
    "unknown_dump_stage": unknown_dump_stage,
    "unknown_cpu": unknown_cpu,
    "bad_number": bad_number,
    "missing_input_file": missing_input_file,
    "wrong_shape": wrong_shape,
    "wrong_dtype": wrong_dtype,
    "unknown_input_name": unknown_input_name,
    "missing_input_name": missing_input_name,
    "bad_tensor_file": bad_tensor_file,
    "interrupted": interrupted,
})
