"""e2e.app, two_models, weights_file, c_strict, dump_ir, run_threads,
image_loop: the emitted package.

These build what `tgc compile` writes with the system C compilers, the way a
product would, and compare what the programs print with `tgc run` on the
same inputs (itself checked against PyTorch by e2e.verify.*).
"""

import filecmp
import json
import os
import platform
import re
import struct
import subprocess

import numpy as np

from common import (check, c_compilers, main, package_sources, save_npy)

MODELS = ["mlp", "cnn", "resblock", "transformer"]
# Every stage that leaves IR behind, in pipeline order (render and package
# produce the package itself, not IR).
IR_STAGES = ["import", "decompose", "simplify", "schedule", "plan", "lower",
             "optimize", "expand", "linearize"]


def zeros_input(env, model):
    """An all-zero .npy for the single input of a bundled model."""
    shapes = {"mlp": (1, 784), "cnn": (1, 1, 28, 28),
              "resblock": (1, 64, 56, 56), "transformer": (1, 128, 256)}
    return save_npy(env.path(model + "-zeros.npy"),
                    np.zeros(shapes[model], dtype=np.float32))


def tgc_run_output(env, model_path, input_npy, name):
    """The output of `tgc run` on one input, via an .npy file."""
    out = env.path("run-" + name)
    _, stdout, _ = env.tgc_cmd("run", model_path, "--input",
                               "input=" + input_npy, "--output-dir", out)
    check("output.npy" in stdout, "tgc run did not report output.npy:\n" +
          stdout)
    return np.load(os.path.join(out, "output.npy"))


def run_threads(env):
    """tgc run --threads N runs the package on its pool: the same bits as on
    one thread (each task writes its own slice of every output)."""
    rng = np.random.default_rng(1)
    for model in ("resblock", "transformer"):
        shape = np.load(zeros_input(env, model)).shape
        npy = save_npy(env.path(model + "-random.npy"),
                       rng.standard_normal(shape).astype(np.float32))
        outputs = {}
        for threads in (1, 3):
            out = env.path("%s-%d" % (model, threads))
            _, _, stderr = env.tgc_cmd("run", env.model(model), "--input",
                                       "input=" + npy, "--output-dir", out,
                                       "--threads", str(threads), "-v")
            pooled = "net_run_parallel on a pool of %d threads" % threads
            check((pooled in stderr) == (threads > 1),
                  "%s --threads %d: unexpected harness:\n%s" %
                  (model, threads, stderr))
            outputs[threads] = np.load(os.path.join(out, "output.npy"))
        check(np.array_equal(outputs[1], outputs[3]),
              "%s: --threads 3 differs from one thread by up to %g" %
              (model, np.max(np.abs(outputs[1] - outputs[3]))))
    env.check_no_scratch_left()


def image_loop(env):
    """--image-loop always computes a batch one image at a time: each image
    gets the bits the batch-1 package gives it, on one thread and on a pool;
    the package keeps the batch in its API and holds one image in its arena."""
    model = env.model("dyncnn")
    batch = np.random.default_rng(2).standard_normal(
        (4, 3, 32, 32)).astype(np.float32)
    npy = save_npy(env.path("batch4.npy"), batch)

    manifests = {}
    for mode in ("always", "never"):
        out = env.path("pkg-" + mode)
        env.compile_model(model, out, "--input-shape", "input=4x3x32x32",
                          "--image-loop", mode)
        with open(os.path.join(out, "net.json")) as f:
            manifests[mode] = json.load(f)
        with open(os.path.join(out, "net.h")) as f:
            header = f.read()
        check("#define NET_INPUT_SHAPE { 4, 3, 32, 32 }" in header and
              "#define NET_OUTPUT_SHAPE { 4, 10 }" in header,
              "--image-loop %s: the header lost the batch:\n%s" %
              (mode, header))
        with open(os.path.join(out, "net.c")) as f:
            looped = "for (image = 0; image < 4; ++image)" in f.read()
        check(looped == (mode == "always"),
              "--image-loop %s: the run function %s over the images" %
              (mode, "does not loop" if not looped else "loops"))
    check(manifests["always"]["images"] == 4 and
          manifests["never"]["images"] == 1,
          "manifest images: %s / %s" % (manifests["always"]["images"],
                                        manifests["never"]["images"]))
    check(manifests["always"]["inputs"][0]["shape"] == [4, 3, 32, 32],
          "manifest input: %s" % manifests["always"]["inputs"])
    # The arena holds one image's buffers (the same plan as batch 1).
    one, four = (manifests[m]["arena_bytes"] for m in ("always", "never"))
    check(one * 4 <= four * 1.01,
          "arena %d bytes for one image, %d for the batch" % (one, four))
    check(manifests["always"]["parallel_images"] == 1,
          "manifest parallel_images: %s" %
          manifests["always"]["parallel_images"])

    # --parallel-images 2: two tasks of two images, each in an arena slice
    # of its own (the one-image arena, aligned).
    out = env.path("pkg-parallel")
    env.compile_model(model, out, "--input-shape", "input=4x3x32x32",
                      "--image-loop", "always", "--parallel-images", "2")
    with open(os.path.join(out, "net.json")) as f:
        manifest = json.load(f)
    align = manifest["arena_align"]
    slice_bytes = -(-one // align) * align
    check(manifest["parallel_images"] == 2 and
          manifest["arena_bytes"] == 2 * slice_bytes,
          "--parallel-images 2: manifest %s / %d bytes (one image: %d)" %
          (manifest["parallel_images"], manifest["arena_bytes"], one))
    with open(os.path.join(out, "net.h")) as f:
        header = f.read()
    check("#define NET_ARENA_BYTES %d\n" % (2 * slice_bytes) in header,
          "--parallel-images 2: header arena:\n" + header)
    with open(os.path.join(out, "net.c")) as f:
        source = f.read()
    check("for (image = task; image < 4; image += 2)" in source and
          "parallel_for(context, 2, net_images, &images);" in source,
          "--parallel-images 2: the run does not hand two tasks of images "
          "to the pool")

    # A dump from after the schedule stage (where the images were decided)
    # takes --parallel-images when it is compiled: the same package.
    dumped = env.path("pkg-dumped")
    env.compile_model(model, dumped, "--input-shape", "input=4x3x32x32",
                      "--image-loop", "always", "--dump-ir", "schedule")
    dump = os.path.join(dumped, "ir", [name for name in os.listdir(
        os.path.join(dumped, "ir")) if name.endswith("-schedule.mlir")][0])
    from_dump = env.path("pkg-from-dump")
    env.compile_model(dump, from_dump, "--parallel-images", "2")
    for name in ("net.c", "net.h", "net.json"):
        with open(os.path.join(out, name)) as f, \
                open(os.path.join(from_dump, name)) as g:
            check(f.read() == g.read(),
                  "--parallel-images 2 on the schedule stage's dump: %s "
                  "differs from the package compiled from the model" % name)

    per_image = []
    for index in range(4):
        single = save_npy(env.path("image%d.npy" % index), batch[index:index + 1])
        out = env.path("single%d" % index)
        env.tgc_cmd("run", model, "--input", "input=" + single,
                    "--output-dir", out)
        per_image.append(np.load(os.path.join(out, "output.npy")))
    want = np.concatenate(per_image)
    # tgc run --threads N computes N images at once (3: images 0 and 3 on
    # one task, 1 and 2 on the others).
    for threads in ("1", "2", "3"):
        out = env.path("looped-" + threads)
        env.tgc_cmd("run", model, "--input", "input=" + npy, "--output-dir",
                    out, "--image-loop", "always", "--threads", threads)
        got = np.load(os.path.join(out, "output.npy"))
        check(np.array_equal(got, want),
              "--image-loop always, %s threads: differs from batch-1 runs "
              "by up to %g" % (threads, np.max(np.abs(got - want))))
    out = env.path("batched")
    env.tgc_cmd("run", model, "--input", "input=" + npy, "--output-dir", out,
                "--image-loop", "never")
    got = np.load(os.path.join(out, "output.npy"))
    check(np.allclose(got, want, rtol=1e-5, atol=1e-6),
          "--image-loop never differs from batch-1 runs by up to %g" %
          np.max(np.abs(got - want)))
    env.check_no_scratch_left()


def build_c(env, sources, include_dirs, exe, extra=()):
    argv = ["cc", "-std=c99", "-O2", "-Wall", "-Wextra", "-Werror"]
    argv += ["-I" + d for d in include_dirs] + list(sources)
    argv += ["-o", exe, "-lm"] + list(extra)
    env.run(argv)
    return exe


def app(env):
    out = env.path("mnist")
    files = env.compile_model(env.model("cnn"), out, "--name", "mnist")
    for name in ("mnist.h", "mnist.c", "mnist.json", "CMakeLists.txt"):
        check(name in files, "%s missing from the package: %s" % (name, files))
    exe = build_c(env, [os.path.join(env.source, "examples", "mnist_app.c")] +
                  package_sources(out), [out], env.path("mnist_app"))
    _, stdout, _ = env.run([exe])
    match = re.fullmatch(r"status 0 argmax (\d)\n", stdout)
    check(match, "unexpected output of mnist_app: %r" % stdout)
    want = tgc_run_output(env, env.model("cnn"), zeros_input(env, "cnn"),
                          "cnn")
    check(int(match.group(1)) == int(np.argmax(want)),
          "mnist_app says argmax %s, tgc run says %d (scores %s)" %
          (match.group(1), np.argmax(want), want))
    env.check_no_scratch_left()


def defined_globals(objects):
    """The external symbols the object files define (nm -g)."""
    listing = subprocess.run(["nm", "-g", "--defined-only"] + objects,
                             stdout=subprocess.PIPE, universal_newlines=True,
                             check=True).stdout
    return [parts[2] for parts in map(str.split, listing.splitlines())
            if len(parts) == 3]


def two_models(env):
    dirs = {}
    for model in ("cnn", "mlp"):
        dirs[model] = env.path(model)
        env.compile_model(env.model(model), dirs[model], "--name", model)
        # Every symbol a package exports carries its prefix.
        objects = []
        for source in package_sources(dirs[model]):
            obj = env.path(os.path.basename(source) + ".o")
            env.run(["cc", "-std=c99", "-O2", "-c", "-I" + dirs[model],
                     source, "-o", obj])
            objects.append(obj)
        for symbol in defined_globals(objects):
            check(symbol.startswith(model + "_"),
                  "package %s exports %s without its prefix" %
                  (model, symbol))
    exe = build_c(env, [os.path.join(env.source, "test", "e2e", "Inputs",
                                     "two_models.c")] +
                  package_sources(dirs["cnn"]) + package_sources(dirs["mlp"]),
                  [dirs["cnn"], dirs["mlp"]], env.path("two_models"))
    _, stdout, _ = env.run([exe])
    lines = stdout.splitlines()
    check(lines[0] == "status 0 0", "unexpected statuses: %r" % lines[0])
    for model in ("cnn", "mlp"):
        got = np.array([float(l.split()[1]) for l in lines
                        if l.startswith(model + " ")], dtype=np.float32)
        want = tgc_run_output(env, env.model(model),
                              zeros_input(env, model), model).reshape(-1)
        check(got.shape == want.shape and
              np.allclose(got, want, rtol=1e-6, atol=1e-6),
              "%s in the two-model program differs from tgc run:\n%s\n%s" %
              (model, got, want))


def read_safetensors_header(path):
    with open(path, "rb") as f:
        data = f.read()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + length].decode("utf-8"))
    return data, 8 + length, header


def weights_file(env):
    out = env.path("cnn")
    files = env.compile_model(env.model("cnn"), out, "--name", "cnn",
                              "--weights", "file")
    check("cnn.safetensors" in files,
          "no cnn.safetensors in the package: %s" % files)
    check("cnn_weights.c" not in files,
          "--weights file still wrote cnn_weights.c: %s" % files)
    weights = os.path.join(out, "cnn.safetensors")

    # The file follows the safetensors layout, so other tools can read it.
    data, data_start, header = read_safetensors_header(weights)
    tensors = {k: v for k, v in header.items() if k != "__metadata__"}
    check(tensors, "the safetensors header lists no tensors")
    for name, info in tensors.items():
        begin, end = info["data_offsets"]
        check(0 <= begin <= end <= len(data) - data_start,
              "tensor %s lies outside the file" % name)
        elements = int(np.prod(info["shape"])) if info["shape"] else 1
        check(end - begin >= elements * 4 or info["dtype"] != "F32",
              "tensor %s is shorter than its shape" % name)

    exe = build_c(env, [os.path.join(env.source, "test", "e2e", "Inputs",
                                     "weights_file_app.c")] +
                  package_sources(out), [out], env.path("weights_app"))
    _, stdout, _ = env.run([exe, weights])
    lines = stdout.splitlines()
    check(lines[:2] == ["check 0", "status 0"],
          "the weights file was not accepted: %r" % lines[:2])
    got = np.array([float(l) for l in lines[2:]], dtype=np.float32)
    want = tgc_run_output(env, env.model("cnn"), zeros_input(env, "cnn"),
                          "cnn").reshape(-1)
    check(np.allclose(got, want, rtol=1e-6, atol=1e-6),
          "outputs with the weights file differ from tgc run:\n%s\n%s" %
          (got, want))

    # One flipped byte in the data, and a truncated copy, are rejected.
    corrupt = env.path("corrupt.safetensors")
    flipped = bytearray(data)
    flipped[data_start + (len(data) - data_start) // 2] ^= 0x40
    with open(corrupt, "wb") as f:
        f.write(bytes(flipped))
    _, stdout, _ = env.run([exe, corrupt])
    check(stdout.startswith("check ") and stdout.split()[1] != "0",
          "a corrupted weights file was accepted: %r" % stdout)
    check("status" not in stdout, "ran on a rejected weights file")
    with open(corrupt, "wb") as f:
        f.write(data[:-16])
    _, stdout, _ = env.run([exe, corrupt])
    check(stdout.split()[1] != "0",
          "a truncated weights file was accepted: %r" % stdout)


def c_strict(env):
    flags = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-c"]
    variants = [(model, (), ()) for model in MODELS]
    variants.append(("cnn", ("--weights", "file"), ()))
    # The masked moves of partial vectors (rows of 14 or 56 pixels padded
    # to whole vectors: cnn loads and stores some, resblock stores them)
    # are intrinsics behind the ISA's macros: compiled for each x86 ISA
    # they are written for, whatever this host runs.
    if platform.machine() in ("x86_64", "AMD64"):
        for cpu in ("haswell", "skylake-avx512"):
            for model in ("cnn", "resblock"):
                variants.append((model, ("--cpu", cpu), ("-march=" + cpu,)))
    for model, extra, cflags in variants:
        out = env.path("-".join([model] + [a.lstrip("-") for a in extra]))
        env.compile_model(env.model(model), out, "--name", model, *extra)
        for cc in c_compilers():
            for source in package_sources(out):
                env.run([cc] + flags + list(cflags) +
                        ["-I" + out, source, "-o", env.path("strict.o")])


def dump_ir(env):
    full = env.path("full")
    env.compile_model(env.model("cnn"), full, "--name", "cnn",
                      "--dump-ir=all")
    want = ["%02d-%s.mlir" % (i + 1, s) for i, s in enumerate(IR_STAGES)]
    got = sorted(os.listdir(os.path.join(full, "ir")))
    check(got == want, "dump files %s, expected %s" % (got, want))
    for name, stage in zip(want, IR_STAGES):
        path = os.path.join(full, "ir", name)
        with open(path) as f:
            text = f.read()
        check('tgc.stage = "%s"' % stage in text,
              "%s does not record its stage" % name)
        env.run([env.tgc_opt, path, "-o", env.path("reparsed.mlir")])

    # Continuing from a middle stage's dump gives the same package, byte for
    # byte, and the same IR at the end.
    for stage in ("schedule", "lower"):
        dump = os.path.join(full, "ir", want[IR_STAGES.index(stage)])
        resumed = env.path("from-" + stage)
        env.compile_model(dump, resumed, "--name", "cnn",
                          "--dump-ir=linearize")
        package = sorted(f for f in os.listdir(full) if f != "ir")
        check(sorted(f for f in os.listdir(resumed) if f != "ir") == package,
              "the package from the %s dump has other files" % stage)
        for name in package:
            check(filecmp.cmp(os.path.join(full, name),
                              os.path.join(resumed, name), shallow=False),
                  "%s differs when compiling from the %s dump" %
                  (name, stage))
        check(filecmp.cmp(os.path.join(full, "ir", "09-linearize.mlir"),
                          os.path.join(resumed, "ir", "09-linearize.mlir"),
                          shallow=False),
              "the linearize dump differs when compiling from the %s dump" %
              stage)

    # Only the stages asked for are written.
    some = env.path("some")
    env.compile_model(env.model("cnn"), some, "--dump-ir", "plan,import")
    got = sorted(os.listdir(os.path.join(some, "ir")))
    check(got == ["01-import.mlir", "05-plan.mlir"],
          "--dump-ir plan,import wrote %s" % got)


def replace(env):
    """A second compile into the same folder replaces the package whole."""
    out = env.path("out")
    env.compile_model(env.model("mlp"), out, "--name", "first",
                      "--dump-ir=import")
    files = env.compile_model(env.model("cnn"), out, "--name", "second")
    check(files == sorted(["CMakeLists.txt", "second.c", "second.h",
                           "second.json", "second_weights.c", "tgc_pool.c",
                           "tgc_pool.h"]),
          "the folder holds %s after the second compile" % files)
    left = [f for f in os.listdir(env.work) if f.startswith("out.")]
    check(not left, "temporary folders left behind: %s" % left)


main({
    "replace": replace,
    "run_threads": run_threads,
    "app": app,
    "two_models": two_models,
    "weights_file": weights_file,
    "c_strict": c_strict,
    "dump_ir": dump_ir,
    "image_loop": image_loop,
})
