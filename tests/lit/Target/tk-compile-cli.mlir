// tk-compile's command line: each misuse gives a message and exit status 2 (usage) or 1 (input,
// compile or output failed), never a crash or a silent success. The status is printed by
// `sh -c '...; echo exit $?'`.
// REQUIRES: tk-compile
// RUN: sh -c 'tk-compile --help; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=HELP
// RUN: sh -c 'tk-compile -h; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=HELP
// RUN: tk-compile --help 2>&1 >/dev/null | count 0
// RUN: sh -c 'tk-compile --target=sm_90a %S; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=DIR
// RUN: sh -c 'tk-compile --target=sm_90a %S/no-such-file.mlir; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: sh -c 'tk-compile --target=sm_90a -o /dev/full %s; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: sh -c 'tk-compile --target=sm_90a %s > /dev/full; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=FULLSTDOUT
// RUN: sh -c 'tk-compile --target=sm_90a %s %s; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: sh -c 'tk-compile --target=sm_90a --num-warps=4x %s; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=WARPS
// RUN: sh -c 'tk-compile --target=sm_90a --num-warps= %s; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: sh -c 'tk-compile --target=sm_90a --num-warps=99999999999 %s; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: sh -c 'tk-compile --target=sm_90a --num-stages=3.5 %s; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: sh -c 'tk-compile --target=sm_90a --num-warps=64 %s; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=W64
// RUN: sh -c 'tk-compile --target=sm_90a --emit=elf %s; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: sh -c 'tk-compile --target=sm_90a %s -o; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=NOOUT
// RUN: sh -c 'tk-compile --target=sm_90a -o %t.ptx %s; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=OK
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: sh -c 'tk-compile --target=sm_90a --lowering-target=sm_100a %s; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=NEWER
// RUN: sh -c 'tk-compile --target=sm_100a --lowering-target=sm_90a %s; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=ARCHSPECIFIC
// RUN: sh -c 'tk-compile --target=sm_90a --lowering-target=sm_42 %s; echo "exit $?"' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: tk-compile --target=sm_90a --lowering-target=sm_80 %s | FileCheck %s --check-prefix=OLDER

// HELP:      usage: tk-compile --target=SM
// HELP:      Exit status: 0 done, 1 input, compile or output failed, 2 usage error.
// HELP-NEXT: targets: {{.*}}sm_90a
// HELP-NEXT: exit 0

// DIR:      tk-compile: cannot read {{.*}}Target: Is a directory
// DIR-NEXT: exit 1

// MISSING:      tk-compile: cannot open {{.*}}no-such-file.mlir: No such file or directory
// MISSING-NEXT: exit 1

// FULL:      tk-compile: cannot write /dev/full: No space left on device
// FULL-NEXT: exit 1

// FULLSTDOUT:      tk-compile: cannot write stdout: No space left on device
// FULLSTDOUT-NEXT: exit 1

// TWO:      tk-compile: one input file only, got {{.*}}tk-compile-cli.mlir and {{.*}}tk-compile-cli.mlir
// TWO-NEXT: usage: tk-compile
// TWO:      exit 2

// WARPS:      tk-compile: --num-warps takes an integer, got '4x'
// WARPS:      exit 2

// EMPTY:      tk-compile: --num-warps takes an integer, got ''
// EMPTY:      exit 2

// RANGE:      tk-compile: --num-warps takes an integer, got '99999999999'
// RANGE:      exit 2

// STAGES:     tk-compile: --num-stages takes an integer, got '3.5'
// STAGES:     exit 2

// W64:      num_warps must be a power of two from 1 to 32
// W64-NEXT: exit 1

// EMIT:      tk-compile: --emit takes ptx, cubin or auto, got 'elf'
// EMIT:      exit 2

// NOOUT:      tk-compile: -o needs a file name
// NOOUT:      exit 2

// OK:     exit 0
// PTX:    .visible .entry cli(

// NEWER:      lowering_target sm_100a is newer than target sm_90a: its code may use instructions that sm_90a lacks; use a target no newer than sm_90a
// NEWER-NEXT: exit 1

// ARCHSPECIFIC:      lowering_target sm_90a is architecture-specific: its instructions exist on sm_90 alone, not on sm_100a; use sm_90 or older
// ARCHSPECIFIC-NEXT: exit 1

// UNKNOWN:      unknown lowering_target 'sm_42'; supported: sm_75
// UNKNOWN-NEXT: exit 1

// Lowered as for sm_80, the binary is still for the GPU asked for.
// OLDER:      .target sm_90a
// OLDER:      .visible .entry cli(

module {
  func.func @cli(%arg0: !tk.ptr<f32>) {
    %0 = arith.constant 1.0 : f32
    "tk.store"(%arg0, %0) : (!tk.ptr<f32>, f32) -> ()
    return
  }
}
