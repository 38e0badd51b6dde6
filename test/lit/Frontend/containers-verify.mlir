// Sequence and optional graph inputs and outputs cross the package boundary
// as the tensors they hold, named x[0], x[1], ... (an optional holds at most
// one); their sizes come from the test data, like dynamic dimensions.
// Needs Debian's python3 with numpy and onnx.

// RUN: rm -rf %t && /usr/bin/python3 %S/Inputs/make_container_case.py %t

// RUN: tgc verify %t/map | FileCheck %s --check-prefix=MAP
// MAP: test_data_set_0:
// MAP-NEXT: y[0] {{.*}} PASS
// MAP-NEXT: y[1] {{.*}} PASS
// MAP-NEXT: y[2] {{.*}} PASS
// MAP-NEXT: PASS: 3 of 3 outputs passed

// RUN: tgc verify %t/optional | FileCheck %s --check-prefix=OPT
// OPT: has {{.*}} PASS
// OPT-NEXT: v {{.*}} PASS

// Without data there is no length to compile for.
// RUN: not tgc compile %t/map/model.onnx -o %t/out 2>&1 | FileCheck %s --check-prefix=COMPILE
// COMPILE: input 'x' is a sequence: its length must be known at compile time
// RUN: not test -e %t/out

// tgc run reads tensors from .npy/.pb files only.
// RUN: not tgc run %t/map/model.onnx --input b=%t/map/test_data_set_0/input_1.pb --output-dir %t/run 2>&1 | FileCheck %s --check-prefix=RUNERR
// RUNERR: input 'x' is a sequence, not a tensor; only tgc verify takes sequences and optionals
