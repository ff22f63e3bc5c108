; A device-function library of one function for examples/from_triton/07-extern-functions.cpp:
; smoothstepf(x) is 0 below 0, 1 above 1 and x * x * (3 - 2 x) in between (the Hermite step).
; LLVM IR text; tk::extern_elementwise takes bitcode as well, such as what
;   clang++ -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -nocudalib -emit-llvm -c lib.cu
; makes from CUDA C++ (a function declared extern "C" __device__ keeps its name).
define float @smoothstepf(float %x) {
  %low = call float @llvm.maxnum.f32(float %x, float 0.000000e+00)
  %t = call float @llvm.minnum.f32(float %low, float 1.000000e+00)
  %square = fmul float %t, %t
  %twice = fmul float %t, 2.000000e+00
  %rest = fsub float 3.000000e+00, %twice
  %y = fmul float %square, %rest
  ret float %y
}

declare float @llvm.maxnum.f32(float, float)
declare float @llvm.minnum.f32(float, float)
