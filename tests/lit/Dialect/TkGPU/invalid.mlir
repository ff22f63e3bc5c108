// One case per error of the tkgpu dialect's verifiers (lib/Dialect/TkGPU/IR/{Attrs,Dialect,Ops}.cpp),
// each with the message the user sees.
// RUN: tk-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{blocked layout's sizePerThread, threadsPerWarp, warpsPerCTA and order must have one entry per dimension, got 2, 2, 1 and 2}}
func.func @ranks(%x: tensor<4x4xf32, #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4], order = [1, 0]}>>)

// -----

// expected-error @+1 {{blocked layout's threadsPerWarp must multiply to 32 (a warp), got 16}}
func.func @lanes(%x: tensor<4x4xf32, #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>>)

// -----

// expected-error @+1 {{blocked layout's warpsPerCTA entries must be positive powers of two, got 3}}
func.func @warps(%x: tensor<4x4xf32, #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [3, 1], order = [1, 0]}>>)

// -----

// expected-error @+1 {{blocked layout's order must be a permutation of 0..1}}
func.func @order(%x: tensor<4x4xf32, #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 1]}>>)

// -----

// expected-error @+1 {{blocked layout of rank 2 on a tensor of rank 1}}
func.func @tensor_rank(%x: tensor<4xf32, #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>>)

// -----

// expected-error @+1 {{slice layout's dim 2 is out of range for a parent of rank 2}}
func.func @slice_dim(%x: tensor<4xf32, #tkgpu.slice<{dim = 2, parent = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>}>>)

// -----

// expected-error @+1 {{slice layout's parent must have rank >= 2, got 1}}
func.func @slice_rank(%x: tensor<f32, #tkgpu.slice<{dim = 0, parent = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>}>>)

// -----

// expected-error @+1 {{slice layout of rank 1 on a tensor of rank 2}}
func.func @slice_tensor_rank(%x: tensor<4x4xf32, #tkgpu.slice<{dim = 0, parent = #tkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>}>>)

// -----

#b = #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @convert_shape(%x: tensor<128xf32, #b>) {
  // expected-error @+1 {{'tkgpu.convert_layout' op result must have the operand's shape and element type: converts 'tensor<128xf32, #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>' to 'tensor<128xf16, #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>'}}
  %0 = tkgpu.convert_layout %x : tensor<128xf32, #b> -> tensor<128xf16, #b>
  func.return
}

// -----

func.func @convert_no_layout(%x: tensor<128xf32>) {
  // expected-error @+1 {{'tkgpu.convert_layout' op operand and result must both have a layout, got 'tensor<128xf32>' and 'tensor<128xf32>'}}
  %0 = tkgpu.convert_layout %x : tensor<128xf32> -> tensor<128xf32>
  func.return
}

// -----

// expected-error @+1 {{'tkgpu.num_warps' must be a power of two from 1 to 32, got 3}}
module attributes {tkgpu.num_warps = 3 : i32} {
}

// -----

// More warps than a block may have threads (1024): nvvm.maxntid would be 33554432.
// expected-error @+1 {{'tkgpu.num_warps' must be a power of two from 1 to 32, got 1048576}}
module attributes {tkgpu.num_warps = 1048576 : i32} {
}

// -----

// expected-error @+1 {{'tkgpu.threads_per_warp' must be 32 (NVIDIA warps), got 64}}
module attributes {tkgpu.threads_per_warp = 64 : i32} {
}

// -----

// expected-error @+1 {{unknown attribute 'tkgpu.warps' (the tkgpu dialect defines 'tkgpu.num_warps', 'tkgpu.threads_per_warp', 'tkgpu.shared', 'tkgpu.ptx_version' and 'tkgpu.shared_offset')}}
module attributes {tkgpu.warps = 4 : i32} {
}

// -----

// expected-error @+1 {{'tkgpu.ptx_version' must be a PTX ISA version times ten (60 to 99), got 8}}
module attributes {tkgpu.ptx_version = 8 : i32} {
}

// -----

// expected-error @+1 {{'tkgpu.shared' must be at least 0, got -16}}
module attributes {tkgpu.shared = -16 : i32} {
}

// -----

func.func @negative_shared_offset(%n: i32) {
  // expected-error @+1 {{'tkgpu.shared_offset' must be an i32 integer of at least 0, got -16 : i32}}
  %0 = arith.addi %n, %n {tkgpu.shared_offset = -16 : i32} : i32
  func.return
}

// -----

module attributes {tkgpu.num_warps = 8 : i32} {
  func.func @warps_mismatch(%n: i32) {
    // expected-error @+1 {{'tk.splat' op result layout #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}> spreads over 4 warps, but the module has tkgpu.num_warps = 8}}
    %0 = tk.splat %n : i32 -> tensor<128xi32, #tkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
    func.return
  }
}

// -----

// expected-error @+1 {{shared layout's vec must be a positive power of two, got 6}}
#s = #tkgpu.shared<{vec = 6, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @shared_vec() {
  func.return
}

// -----

#s = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// expected-error @+1 {{memdesc must have rank 2 (a tile) or 3 (tiles), got 1}}
func.func @memdesc_rank(%m: !tkgpu.memdesc<64xf16, #s>) {
  func.return
}

// -----

#s = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @memdesc_index_shape(%i: i32) {
  %buf = tkgpu.local_alloc : !tkgpu.memdesc<3x32x64xf16, #s>
  // expected-error @+1 {{'tkgpu.memdesc_index' op views one tile of a buffer of tiles: '!tkgpu.memdesc<64x32xf16, #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>' is not a tile of '!tkgpu.memdesc<3x32x64xf16, #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>'}}
  %tile = tkgpu.memdesc_index %buf[%i] : !tkgpu.memdesc<3x32x64xf16, #s> -> !tkgpu.memdesc<64x32xf16, #s>
  func.return
}

// -----

#b = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @async_copy_type(%p: tensor<32x64x!tk.ptr<f32>, #b>, %tile: !tkgpu.memdesc<32x64xf16, #s>) {
  // expected-error @+1 {{'tkgpu.async_copy_global_to_local' op copies 'tensor<32x64x!tk.ptr<f32>, #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>' to a tile of the same shape and element type}}
  tkgpu.async_copy_global_to_local %p, %tile : tensor<32x64x!tk.ptr<f32>, #b> -> !tkgpu.memdesc<32x64xf16, #s>
  func.return
}

// -----

#b = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @local_load_shape(%tile: !tkgpu.memdesc<32x64xf16, #s>) {
  // expected-error @+1 {{'tkgpu.local_load' op reads '!tkgpu.memdesc<32x64xf16, #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>' into a tensor of the same shape and element type}}
  %x = tkgpu.local_load %tile : !tkgpu.memdesc<32x64xf16, #s> -> tensor<64x32xf16, #b>
  func.return
}

// -----

// expected-error @+1 {{mma layout version 4 is not supported (2: mma.sync, 3: wgmma)}}
#m = #tkgpu.mma<{version = 4, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
func.func @mma_v4(%x: tensor<64x64xf32, #m>) { func.return }

// -----

// expected-error @+1 {{mma layout version 3 needs warpsPerCTA[0] to be a multiple of 4 (a warpgroup down the rows), got 2}}
#m = #tkgpu.mma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 64]}>
func.func @mma_v3_warps(%x: tensor<64x64xf32, #m>) { func.return }

// -----

// expected-error @+1 {{mma layout version 3 must have instrShape = [16, n] with n a multiple of 8 from 8 to 256}}
#m = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 12]}>
func.func @mma_v3_n(%x: tensor<64x64xf32, #m>) { func.return }

// -----

// expected-error @+1 {{dot_operand layout of an mma layout of version 3 must be operand a (opIdx 0): wgmma reads b from shared memory}}
#o = #tkgpu.dot_operand<{opIdx = 1, parent = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>, kWidth = 2}>
func.func @v3_operand_b(%x: tensor<64x64xf16, #o>) { func.return }

// -----

// expected-error @+1 {{shared layout's panelWidth must be a power of two holding vec * maxPhase elements, got 32}}
#s = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panelWidth = 32}>
func.func @panel_width(%t: !tkgpu.memdesc<64x128xf16, #s>) { func.return }

// -----

// expected-error @+1 {{shared layout cannot have both padding and panels}}
#s = #tkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 1, order = [1, 0], padding = 8, panelWidth = 64}>
func.func @panel_padding(%t: !tkgpu.memdesc<64x128xf16, #s>) { func.return }

// -----

#b = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @local_alloc_shape(%x: tensor<32x64xf16, #b>) {
  // expected-error @+1 {{'tkgpu.local_alloc' op stores 'tensor<32x64xf16, #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>' into a tile of the same shape and element type}}
  %t = tkgpu.local_alloc %x : tensor<32x64xf16, #b> -> !tkgpu.memdesc<64x64xf16, #s>
  func.return
}

// -----

#m = #tkgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#s = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @warp_group_dot_v2(%a: !tkgpu.memdesc<64x64xf16, #s>, %b: !tkgpu.memdesc<64x64xf16, #s>, %c: tensor<64x64xf32, #m>) {
  // expected-error @+1 {{'tkgpu.warp_group_dot' op result must have an mma layout of version 3}}
  %d = tkgpu.warp_group_dot %a, %b, %c : !tkgpu.memdesc<64x64xf16, #s>, !tkgpu.memdesc<64x64xf16, #s>, tensor<64x64xf32, #m> -> tensor<64x64xf32, #m>
  func.return
}

// -----

#m = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
#s = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @warp_group_dot_shapes(%a: !tkgpu.memdesc<64x32xf16, #s>, %b: !tkgpu.memdesc<64x64xf16, #s>, %c: tensor<64x64xf32, #m>) {
  // expected-error @+1 {{'tkgpu.warp_group_dot' op shapes do not form a matrix product}}
  %d = tkgpu.warp_group_dot %a, %b, %c : !tkgpu.memdesc<64x32xf16, #s>, !tkgpu.memdesc<64x64xf16, #s>, tensor<64x64xf32, #m> -> tensor<64x64xf32, #m>
  func.return
}

// -----

#m = #tkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
#b = #tkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @warp_group_dot_register_a(%a: tensor<64x64xf16, #b>, %b: !tkgpu.memdesc<64x64xf16, #s>, %c: tensor<64x64xf32, #m>) {
  // expected-error @+1 {{'tkgpu.warp_group_dot' op a register operand must have the dot_operand layout (opIdx 0) of the result's mma layout}}
  %d = tkgpu.warp_group_dot %a, %b, %c : tensor<64x64xf16, #b>, !tkgpu.memdesc<64x64xf16, #s>, tensor<64x64xf32, #m> -> tensor<64x64xf32, #m>
  func.return
}

// -----

// expected-error @+1 {{slice layout's parent must be a blocked or mma layout}}
func.func @slice_parent(%x: tensor<4xf32, #tkgpu.slice<{dim = 0, parent = #tkgpu.dot_operand<{opIdx = 0, parent = #tkgpu.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>}>>)

// -----

#s = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @barrier_not_i64(%bar: !tkgpu.memdesc<1x1xi32, #s>) {
  // expected-error @+1 {{'tkgpu.init_barrier' op barrier must be a 1x1 tile of i64, got '!tkgpu.memdesc<1x1xi32, #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>>'}}
  tkgpu.init_barrier %bar, 1 : !tkgpu.memdesc<1x1xi32, #s>
  func.return
}

// -----

#s = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @barrier_count(%bar: !tkgpu.memdesc<1x1xi64, #s>) {
  // expected-error @+1 {{'tkgpu.init_barrier' op count must be at least 1, got 0}}
  tkgpu.init_barrier %bar, 0 : !tkgpu.memdesc<1x1xi64, #s>
  func.return
}

// -----

#s = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @wait_barrier_tile(%bar: !tkgpu.memdesc<2x1xi64, #s>, %phase: i32) {
  // expected-error @+1 {{'tkgpu.wait_barrier' op barrier must be a 1x1 tile of i64}}
  tkgpu.wait_barrier %bar, %phase : !tkgpu.memdesc<2x1xi64, #s>
  func.return
}

// -----

#bar = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#s = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @tma_tile_shape(%map: !tk.tensordesc<tensor<64x64xf16>>, %i: i32, %tile: !tkgpu.memdesc<64x128xf16, #s>, %bar: !tkgpu.memdesc<1x1xi64, #bar>) {
  // expected-error @+1 {{'tkgpu.async_tma_copy_global_to_local' op TMA cannot fill tile '!tkgpu.memdesc<64x128xf16, #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>' with blocks of 'tensor<64x64xf16>': it must be the block (order [1, 0]) or its transpose (order [0, 1]) in a wgmma layout, with rows in multiples of 8}}
  tkgpu.async_tma_copy_global_to_local %map[%i, %i], %tile, %bar : !tk.tensordesc<tensor<64x64xf16>> -> !tkgpu.memdesc<64x128xf16, #s>, !tkgpu.memdesc<1x1xi64, #bar>
  func.return
}

// -----

#bar = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#s = #tkgpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
func.func @tma_tile_swizzle(%map: !tk.tensordesc<tensor<64x64xf16>>, %i: i32, %tile: !tkgpu.memdesc<64x64xf16, #s>, %bar: !tkgpu.memdesc<1x1xi64, #bar>) {
  // expected-error @+1 {{'tkgpu.async_tma_copy_global_to_local' op TMA cannot fill tile}}
  tkgpu.async_tma_copy_global_to_local %map[%i, %i], %tile, %bar : !tk.tensordesc<tensor<64x64xf16>> -> !tkgpu.memdesc<64x64xf16, #s>, !tkgpu.memdesc<1x1xi64, #bar>
  func.return
}

// -----

#bar = #tkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#s = #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
func.func @tma_element_type(%map: !tk.tensordesc<tensor<64x64xbf16>>, %i: i32, %tile: !tkgpu.memdesc<64x64xf16, #s>, %bar: !tkgpu.memdesc<1x1xi64, #bar>) {
  // expected-error @+1 {{'tkgpu.async_tma_copy_global_to_local' op tile '!tkgpu.memdesc<64x64xf16, #tkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>' must have the element type of the block 'tensor<64x64xbf16>'}}
  tkgpu.async_tma_copy_global_to_local %map[%i, %i], %tile, %bar : !tk.tensordesc<tensor<64x64xbf16>> -> !tkgpu.memdesc<64x64xf16, #s>, !tkgpu.memdesc<1x1xi64, #bar>
  func.return
}

// -----
// Tensor-map recipes (TensorMap.cpp): the launch reads arguments by these indices, so each must
// name an argument of the right type, every array must have one entry per dimension, and the
// values must be ones TMA takes.

// expected-error @+1 {{'tkgpu.tensor_map' of argument 1: 'base' must be the index of the pointer argument}}
func.func @map_empty(%p: !tk.ptr<f32>, %d: !tk.tensordesc<tensor<16x16xf32>> {tkgpu.tensor_map = {}}) { func.return }

// -----

// expected-error @+1 {{'tkgpu.tensor_map' of argument 1: 'base' is argument 99, but the kernel has 2 arguments}}
func.func @map_base_range(%p: !tk.ptr<f32>, %d: !tk.tensordesc<tensor<16x16xf32>> {tkgpu.tensor_map = {base = 99 : i32, shape = array<i64: 16, 16>, shape_args = array<i32: -1, -1>, stride_args = array<i32: -1, -1>, strides = array<i64: 16, 1>}}) { func.return }

// -----

// expected-error @+1 {{'tkgpu.tensor_map' of argument 2: 'base' is argument 0 of type 'i32', not a !tk.ptr<'f32'>}}
func.func @map_base_type(%n: i32, %p: !tk.ptr<f32>, %d: !tk.tensordesc<tensor<16x16xf32>> {tkgpu.tensor_map = {base = 0 : i32, shape = array<i64: 16, 16>, shape_args = array<i32: -1, -1>, stride_args = array<i32: -1, -1>, strides = array<i64: 16, 1>}}) { func.return }

// -----

// expected-error @+1 {{'tkgpu.tensor_map' of argument 1: 'shape_args' (array<i32>) and 'shape' (array<i64>) must have one entry per dimension (2)}}
func.func @map_short(%p: !tk.ptr<f32>, %d: !tk.tensordesc<tensor<16x16xf32>> {tkgpu.tensor_map = {base = 0 : i32, shape = array<i64: 0>, shape_args = array<i32: 7>, stride_args = array<i32: -1, -1>, strides = array<i64: 3, 2>}}) { func.return }

// -----

// expected-error @+1 {{'tkgpu.tensor_map' of argument 1: 'shape_args'[0] is 0, which is neither -1 (a constant) nor an i32 argument of the kernel}}
func.func @map_size_arg(%p: !tk.ptr<f32>, %d: !tk.tensordesc<tensor<16x16xf32>> {tkgpu.tensor_map = {base = 0 : i32, shape = array<i64: 0, 16>, shape_args = array<i32: 0, -1>, stride_args = array<i32: -1, -1>, strides = array<i64: 16, 1>}}) { func.return }

// -----

// expected-error @+1 {{'tkgpu.tensor_map' of argument 1: size 0 is -3; TMA takes 1 to 2^32}}
func.func @map_negative_size(%p: !tk.ptr<f32>, %d: !tk.tensordesc<tensor<16x16xf32>> {tkgpu.tensor_map = {base = 0 : i32, shape = array<i64: -3, 16>, shape_args = array<i32: -1, -1>, stride_args = array<i32: -1, -1>, strides = array<i64: 16, 1>}}) { func.return }

// -----

// expected-error @+1 {{'tkgpu.tensor_map' of argument 1: the last stride must be the constant 1 (contiguous rows)}}
func.func @map_last_stride(%p: !tk.ptr<f32>, %d: !tk.tensordesc<tensor<16x16xf32>> {tkgpu.tensor_map = {base = 0 : i32, shape = array<i64: 16, 16>, shape_args = array<i32: -1, -1>, stride_args = array<i32: -1, -1>, strides = array<i64: 32, 2>}}) { func.return }

// -----

// expected-error @+1 {{'tkgpu.tensor_map' of argument 1: stride 0 is 6 elements; TMA takes a positive multiple of 16 bytes below 2^40}}
func.func @map_stride_bytes(%p: !tk.ptr<f32>, %d: !tk.tensordesc<tensor<16x16xf32>> {tkgpu.tensor_map = {base = 0 : i32, shape = array<i64: 16, 16>, shape_args = array<i32: -1, -1>, stride_args = array<i32: -1, -1>, strides = array<i64: 6, 1>}}) { func.return }

// -----

// expected-error @+1 {{'tkgpu.tensor_map' of argument 1: unknown entry 'boxes' (a recipe has base, shape_args, shape, stride_args, strides, and optionally box and swizzle)}}
func.func @map_unknown(%p: !tk.ptr<f32>, %d: !tk.tensordesc<tensor<16x16xf32>> {tkgpu.tensor_map = {base = 0 : i32, boxes = 1 : i32, shape = array<i64: 16, 16>, shape_args = array<i32: -1, -1>, stride_args = array<i32: -1, -1>, strides = array<i64: 16, 1>}}) { func.return }

// -----

// expected-error @+1 {{'tkgpu.tensor_map' of argument 1: box dimension 0 is 512; TMA takes 1 to 256}}
func.func @map_box(%p: !tk.ptr<f32>, %d: !tk.tensordesc<tensor<16x16xf32>> {tkgpu.tensor_map = {base = 0 : i32, box = array<i32: 512, 16>, shape = array<i64: 16, 16>, shape_args = array<i32: -1, -1>, stride_args = array<i32: -1, -1>, strides = array<i64: 16, 1>}}) { func.return }

// -----

// expected-error @+1 {{'tkgpu.tensor_map' of argument 1: 'swizzle' must be 0, 32, 64 or 128 (bytes), not 48 : i32}}
func.func @map_swizzle(%p: !tk.ptr<f32>, %d: !tk.tensordesc<tensor<16x16xf32>> {tkgpu.tensor_map = {base = 0 : i32, shape = array<i64: 16, 16>, shape_args = array<i32: -1, -1>, stride_args = array<i32: -1, -1>, strides = array<i64: 16, 1>, swizzle = 48 : i32}}) { func.return }

// -----

// expected-error @+1 {{'tkgpu.tensor_map' of argument 0: the argument must be a !tk.tensordesc, not '!tk.ptr<f32>'}}
func.func @map_not_descriptor(%p: !tk.ptr<f32> {tkgpu.tensor_map = {base = 0 : i32}}) { func.return }

// -----

// expected-error @+1 {{unknown argument attribute 'tkgpu.tensor_mop' (the tkgpu dialect defines 'tkgpu.tensor_map')}}
func.func @map_misspelt(%p: !tk.ptr<f32>, %d: !tk.tensordesc<tensor<16x16xf32>> {tkgpu.tensor_mop = {}}) { func.return }
