/// @file run.hpp
/// The signature-independent half of `kernel`: tracing a kernel, interpreting it and launching
/// it on the GPU from its described arguments (arguments.hpp). Compiled once for all kernels in a
/// program built with TK_SEPARATE_COMPILATION, so that a file of kernels compiles little more
/// than its kernels' bodies.
#pragma once

#include <tk/detail/config.hpp>

#include <tk/compiled_kernel.hpp>
#include <tk/detail/kernel/arguments.hpp>
#include <tk/detail/runtime/driver.hpp>
#include <tk/detail/runtime/launch.hpp>
#include <tk/launch_options.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <source_location>
#include <span>
#include <string>
#include <tuple>
#include <utility>

namespace tk::detail {

/// The largest power of two up to 16 that divides an integer argument's value (16 for 0) or a
/// pointer's address in bytes (1 for null); 1 for other arguments. The trace records it as
/// `tk.divisibility`: a row stride of K + 8 f16 elements (divisibility 8) still makes rows of
/// 16-byte vectors, which pipelined loads need.
TK_DECL int divisibility_of(const launch_argument &a);

/// The launch key word of one argument: a constant's value bits; for a pointer or an integer,
/// log2 of divisibility_of, or 8 for an integer equal to 1, as the trace specializes on them;
/// 0 for others.
TK_DECL std::uint64_t specialization_word(const launch_argument &a);

/// Turns specialization off for the arguments whose parameters kernel `k`'s tk::jit_options
/// names; errors (a constant named, a parameter past the last) name `loc`.
TK_DECL void apply_specialization_options(const kernel_ref &k, std::span<launch_argument> args,
                                          std::source_location loc);

/// Checks a launch's grid and options; errors name the grid's line.
TK_DECL void check_launch(const grid &g, const launch_options &o);

/// The options of a launch that decide its code (runtime/launch.hpp): where the launch key and
/// the backend's options come from.
TK_DECL code_options code_options_of(const launch_options &o);

/// The kernel traced for `args`, printed as `tk` dialect MLIR. Constants are folded in; pointer
/// and integer arguments only contribute their type, divisibility (divisibility_of) and, for
/// integers, whether they equal 1 (then the kernel uses the constant 1).
/// The kernel's IR for `args`; with `debug`, device asserts are in it, and their sites go to
/// `asserts`.
TK_DECL std::string trace_kernel(const kernel_ref &k, std::span<const launch_argument> args,
                                 bool debug = env::flag("TK_DEBUG"),
                                 std::vector<assert_site> *asserts = nullptr);

/// Runs the kernel over `g` on the CPU interpreter, one program instance after the other, x
/// fastest.
TK_DECL void interpret_kernel(const kernel_ref &k, const grid &g, const launch_options &o,
                              std::span<const launch_argument> args);

/// Runs the kernel over `g` on the GPU: the compiled kernel for this specialization from
/// `compiled`, compiled on a miss (runtime/launch.hpp), then cuLaunchKernel on the options'
/// stream.
/// Traces the kernel for `code`, compiles and loads it, and registers its device asserts.
TK_DECL loaded_kernel trace_and_load(const kernel_ref &k, std::span<const launch_argument> args,
                                     cu::context ctx, const code_options &code, loc_t loc);

/// What kernel::warmup does: on the GPU, the kernel for these arguments and options compiled
/// (or taken from the disk cache) and loaded into the launch's context, as its first launch would,
/// without launching it; on the interpreter, the kernel traced, so that its errors show.
TK_DECL void prepare_kernel(const kernel_ref &k, compiled_kernels &compiled,
                            const launch_options &o, std::span<const launch_argument> args,
                            std::source_location loc);

/// What kernel::compiled returns: the kernel traced for `args` and compiled by the backend with
/// every stage kept, for the launch's device (or, without a GPU, for the target
/// launch_options::target_arch or TK_TARGET_ARCH names); errors name `loc`.
TK_DECL compiled_kernel compile_artifacts(const kernel_ref &k, const launch_options &o,
                                          std::span<const launch_argument> args,
                                          std::source_location loc);

/// The number of kernels compiled and loaded by this process (each a trace, a backend call and a
/// module load): what shows that a launch found its kernel in the caches.
TK_DECL std::uint64_t kernels_loaded();

TK_DECL void launch_on_gpu(const kernel_ref &k, compiled_kernels &compiled, const grid &g,
                           const launch_options &o, std::span<const launch_argument> args);

/// `loaded` on grid `g` through cuLaunchKernelEx, allowed to overlap the previous kernel on
/// `stream` (launch_options::launch_pdl).
TK_DECL void launch_programmatic(const cu::driver &driver, const loaded_kernel &loaded,
                                 const grid &g, cu::stream stream, void **block);

/// The compiled kernels of kernel type `F` launched with parameters `Params`.
template <class F, class Params> inline compiled_kernels compiled_kernels_of;

/// Runs the kernel on the interpreter or the GPU, as the options and the environment choose.
TK_DECL void run_kernel(const kernel_ref &k, compiled_kernels &compiled, const grid &g,
                        const launch_options &o, std::span<const launch_argument> args);

/// Each launch argument described for its parameter in `Params`, a host tensor descriptor as
/// its parts (param_arity); errors name `loc`.
template <class Params, class... A, std::size_t... I>
std::array<launch_argument, argument_count<Params>>
describe_arguments([[maybe_unused]] std::source_location loc, std::index_sequence<I...>,
                   [[maybe_unused]] A &...args) {
  if constexpr (argument_count<Params> == sizeof...(A)) {
    return {describe_launch_argument<std::tuple_element_t<I, Params>>(args, I, loc)...};
  } else {
    std::array<launch_argument, argument_count<Params>> out;
    (
        [&] {
          using P = std::tuple_element_t<I, Params>;
          if constexpr (descriptor_param<P>::rank != 0)
            args.describe(out.data() + first_argument<Params, I>(), I);
          else
            out[first_argument<Params, I>()] = describe_launch_argument<P>(args, I, loc);
        }(),
        ...);
    return out;
  }
}

/// kernel::launch once the arguments fit the parameters `Params`: a template over the
/// parameters and argument types only, so that the kernels of a file with one signature share
/// it. The span is made from pointer and size: its converting constructor from the array would
/// check the array against std::ranges' concepts in every file that launches.
template <class Params, class... A>
void launch_kernel(const kernel_ref &k, compiled_kernels &compiled, const grid &g,
                   const launch_options &o, A &...args) {
  check_launch(g, o);
  auto described = describe_arguments<Params>(g.loc, std::index_sequence_for<A...>{}, args...);
  if (k.unspecialized | k.unaligned)
    apply_specialization_options(k, {described.data(), described.size()}, g.loc);
  run_kernel(k, compiled, g, o, {described.data(), described.size()});
}

/// kernel::compiled once the arguments fit the parameters `Params`.
template <class Params, class... A>
compiled_kernel compiled_kernel_for(const kernel_ref &k, const launch_options &o,
                                    std::source_location loc, A &...args) {
  check_launch(grid(1, 1, 1, loc), o);
  auto described = describe_arguments<Params>(loc, std::index_sequence_for<A...>{}, args...);
  if (k.unspecialized | k.unaligned)
    apply_specialization_options(k, {described.data(), described.size()}, loc);
  return compile_artifacts(k, o, {described.data(), described.size()}, loc);
}

/// kernel::warmup once the arguments fit the parameters `Params`.
template <class Params, class... A>
void warmup_kernel(const kernel_ref &k, compiled_kernels &compiled, const launch_options &o,
                   std::source_location loc, A &...args) {
  check_launch(grid(1, 1, 1, loc), o);
  auto described = describe_arguments<Params>(loc, std::index_sequence_for<A...>{}, args...);
  if (k.unspecialized | k.unaligned)
    apply_specialization_options(k, {described.data(), described.size()}, loc);
  prepare_kernel(k, compiled, o, {described.data(), described.size()}, loc);
}

/// kernel::ir once the arguments fit the parameters `Params`.
template <class Params, class... A>
std::string trace_kernel_for(const kernel_ref &k, std::source_location loc, A &...args) {
  auto described = describe_arguments<Params>(loc, std::index_sequence_for<A...>{}, args...);
  if (k.unspecialized | k.unaligned)
    apply_specialization_options(k, {described.data(), described.size()}, loc);
  return trace_kernel(k, {described.data(), described.size()});
}

/// Checks that each pointer argument is memory the GPU can reach: not a tk::device_buffer made
/// for the interpreter (host memory), nor host memory as far as `driver` can tell. The error at
/// `loc` names the argument, what it was passed as (a std::vector, a pointer, ...) and what to
/// pass instead.
TK_DECL void check_device_memory(const cu::driver &driver, std::span<const launch_argument> args,
                                 std::source_location loc);

/// The driver and the backend library, or an error at the launch naming kernel `name` and what
/// is missing (no driver, no GPU, no backend library) and how to run it anyway.
TK_DECL const cu::driver &gpu_driver(const std::string &name, std::source_location loc);

/// Checks that a kernel's name is a C identifier: it names the IR function and the GPU symbol.
TK_DECL void check_name(const std::string &name, loc_t loc);

} // namespace tk::detail

#if !defined(TK_SEPARATE_COMPILATION)
#include <tk/detail/kernel/run.ipp>
#endif
