"""Shared helpers of the end-to-end tests (run with /usr/bin/python3).

Every test script takes the same arguments from CMake:
    SCRIPT TEST_NAME --tgc BIN --tgc-opt BIN --source DIR --work DIR
and runs one test in a fresh folder WORK/TEST_NAME. A failed check raises
TestFailure with what was expected and what happened; the script exits 1.
"""

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys

import numpy as np


class TestFailure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise TestFailure(message)


class Env:
    """Paths of one test run and ways to call tgc and the C compilers."""

    def __init__(self, args):
        self.tgc = os.path.abspath(args.tgc)
        self.tgc_opt = os.path.abspath(args.tgc_opt)
        self.source = os.path.abspath(args.source)
        self.work = os.path.abspath(os.path.join(args.work, args.test))
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)
        # tgc's scratch folders go here, so a test can see none is left.
        self.tmp = self.path("tmp")
        os.makedirs(self.tmp)

    def path(self, *parts):
        return os.path.join(self.work, *parts)

    def model(self, name):
        return os.path.join(self.source, "models", name, "model.onnx")

    def run(self, argv, expect_ok=True, cwd=None):
        """Runs a command; returns (exit status, stdout, stderr)."""
        env = dict(os.environ, TMPDIR=self.tmp)
        result = subprocess.run(argv, cwd=cwd or self.work, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                universal_newlines=True)
        if expect_ok and result.returncode != 0:
            raise TestFailure("command failed with status %d: %s\n%s%s" % (
                result.returncode, " ".join(argv), result.stdout,
                result.stderr))
        return result.returncode, result.stdout, result.stderr

    def tgc_cmd(self, *args, expect_ok=True):
        return self.run([self.tgc] + list(args), expect_ok=expect_ok)

    def compile_model(self, model, out, *extra):
        self.tgc_cmd("compile", model, "-o", out, *extra)
        return sorted(os.listdir(out))

    def check_no_scratch_left(self):
        left = os.listdir(self.tmp)
        check(not left, "tgc left temporary files behind: %s" % left)


def c_compilers():
    """The C compilers to check the emitted code with: gcc and clang."""
    found = [cc for cc in ("gcc", "clang") if shutil.which(cc)]
    check(found, "neither gcc nor clang is installed")
    return found


def package_sources(folder):
    """The model's C sources: not the runtime files its manifest lists
    (tgc_pool.c), which every package of a program shares."""
    runtime = set()
    for manifest in glob.glob(os.path.join(folder, "*.json")):
        with open(manifest) as f:
            runtime |= set(json.load(f).get("files", {}).get("runtime", []))
    return sorted(path for path in glob.glob(os.path.join(folder, "*.c"))
                  if os.path.basename(path) not in runtime)


def save_npy(path, array):
    np.save(path, array)
    return path


def main(tests):
    """Runs the test named on the command line from the dict `tests`."""
    parser = argparse.ArgumentParser()
    parser.add_argument("test", choices=sorted(tests))
    parser.add_argument("--tgc", required=True)
    parser.add_argument("--tgc-opt", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    env = Env(args)
    try:
        tests[args.test](env)
    except TestFailure as failure:
        print("FAIL %s: %s" % (args.test, failure), file=sys.stderr)
        sys.exit(1)
    print("PASS %s" % args.test)
