// tk-opt rejects text nested deeper than 256 levels before parsing it, as tk_compile does (the
// parser recurses once per level: 5000 nested regions, 10000 brackets or a !tk.ptr type nested
// 100000 deep overflowed its stack). 256 levels still parse.
// RUN: %python -c "print('module {' + '\n'.join(['%%c = \"tk.x\"() ({'] * 5000) + '})' * 5000 + '}')" > %t.regions.mlir
// RUN: not tk-opt %t.regions.mlir 2>&1 | FileCheck %s --check-prefix=REGIONS
// RUN: %python -c "print('!t = ' + '!tk.ptr<' * 100000 + 'f32' + '>' * 100000)" | not tk-opt - 2>&1 | FileCheck %s --check-prefix=PTR
// RUN: %python -c "print('module attributes {a = ' + '[' * 10000 + ']' * 10000 + '} {}')" | not tk-opt - 2>&1 | FileCheck %s --check-prefix=BRACKETS
// RUN: %python -c "print('module attributes {x.a = ' + '[' * 254 + ']' * 254 + '} {}')" | tk-opt - | FileCheck %s --check-prefix=DEEPEST

// REGIONS: regions.mlir:128:16: error: nesting deeper than 256 levels of (), [], {} and <>, the most the compiler accepts
// PTR: <stdin>:1:2061: error: nesting deeper than 256 levels
// BRACKETS: <stdin>:1:279: error: nesting deeper than 256 levels
// DEEPEST: module attributes {x.a = {{\[+\]+}}}
