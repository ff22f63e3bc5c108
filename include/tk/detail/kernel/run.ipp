/// @file run.ipp
/// The bodies of the functions run.hpp declares: included at its end (header-only, the
/// default), or compiled once in the program by <tk/implementation.hpp> when
/// TK_SEPARATE_COMPILATION is defined (docs/build-cost.md).
#pragma once

#include <tk/detail/interp/elements.hpp>
#include <tk/detail/ir/printer.hpp>
#include <tk/detail/kernel/run.hpp>
#include <tk/detail/runtime/asserts.hpp>
#include <tk/detail/runtime/backend_loader.hpp>
#include <tk/detail/trace/primitives.hpp>
#include <tk/device_buffer.hpp>
#include <tk/error.hpp>

#include <array>
#include <atomic>
#include <bit>
#include <optional>
#include <vector>

namespace tk::detail {

/// log2 of the largest power of two up to 16 that divides `value` (4 for 0): its trailing zero
/// bits, with no division (this runs for every argument of every launch).
constexpr int divisibility_log2(std::uint64_t value) {
  const int zeros = std::countr_zero(value); // 64 for 0
  return zeros < 4 ? zeros : 4;
}

TK_DECL int divisibility_of(const launch_argument &a) {
  const bool integer = a.type.is_int() && a.type.code != dtype::i1;
  if (a.kind == launch_argument::role::constant || (!a.type.is_pointer() && !integer) ||
      (a.type.is_pointer() && a.i == 0) || !a.specialize_alignment)
    return 1;
  return 1 << divisibility_log2(std::uint64_t(a.i));
}

TK_DECL std::uint64_t specialization_word(const launch_argument &a) {
  if (a.kind == launch_argument::role::constant)
    return a.bits;
  const bool integer = a.type.is_int() && a.type.code != dtype::i1;
  if (a.kind == launch_argument::role::scalar && integer && a.i == 1 && a.specialize_value)
    return 8;
  return std::uint64_t(std::countr_zero(unsigned(divisibility_of(a)))); // 0 to 4
}

TK_DECL void apply_specialization_options(const kernel_ref &k, std::span<launch_argument> args,
                                          std::source_location loc) {
  // Arguments are in parameter order; a host tensor descriptor's parts share its parameter.
  const std::size_t parameters = args.empty() ? 0 : args.back().parameter + 1;
  for (std::size_t index = 0; index < 64; ++index) {
    const bool none = (k.unspecialized >> index) & 1, unaligned = (k.unaligned >> index) & 1;
    if (!none && !unaligned)
      continue;
    const char *option = none ? "do_not_specialize" : "do_not_specialize_on_alignment";
    if (index >= parameters)
      fail(loc, "tk::jit_options::", option, " of kernel '", k.name, "' names parameter ", index,
           ", but the kernel is launched with ", parameters,
           parameters == 1 ? " argument" : " arguments");
    for (launch_argument &a : args) {
      if (a.parameter != index)
        continue;
      if (a.kind == launch_argument::role::constant) {
        if (a.descriptor_part) // the block shape and padding: not a value the launch varies
          continue;
        fail(loc, "tk::jit_options::", option, " of kernel '", k.name, "' names parameter ", index,
             ", a tk::constant: its value is compiled into the kernel; make it a scalar "
             "parameter (tk::i32, say) to compile one kernel for every value");
      }
      a.specialize_value = a.specialize_value && !none;
      a.specialize_alignment = false;
    }
  }
}

TK_DECL void check_launch(const grid &g, const launch_options &o) {
  static constexpr std::int64_t limits[3] = {2147483647, 65535, 65535};
  for (std::size_t d = 0; d < 3; ++d)
    if (g.dims[d] < 1 || g.dims[d] > limits[d])
      fail(g.loc, "grid dimension ", "xyz"[d], " is ", g.dims[d], "; it must be between 1 and ",
           limits[d]);
  if (const std::string why = invalid_code_options(o.num_warps, o.num_stages); !why.empty())
    fail(g.loc, why);
  if (o.device < -1)
    fail(g.loc, "launch_options::device is ", o.device,
         "; it must be a device index (0 for the first GPU) or -1, the thread's current device");
}

TK_DECL code_options code_options_of(const launch_options &o) {
  return {o.num_warps,       o.num_stages, o.fp_fusion, true, requested_target_arch(o.target_arch),
          debug_requested(o)};
}

/// The value argument `index` (`a`) binds its parameter to: a function argument of the traced
/// IR (`traced` is the function), or its concrete value for the interpreter (`traced` is null);
/// none for a constant, which the callable gets as a number.
TK_DECL value_ref bind_argument(context &ctx, function *traced, const launch_argument &a,
                                std::size_t index, loc_t loc) {
  if (a.kind == launch_argument::role::constant)
    return {};
  const bool integer = a.type.is_int() && a.type.code != dtype::i1;
  if (traced) {
    value_ref v = make_value(a.type, {});
    traced->args.push_back(v);
    const int divisibility = divisibility_of(a);
    traced->arg_attrs.push_back(
        divisibility > 1 ? "tk.divisibility = " + std::to_string(divisibility) + " : i32" : "");
    // An integer equal to 1 is specialized on, as in Triton (a unit stride makes addresses
    // contiguous): the kernel computes with the constant 1, and the argument stays unused.
    if (integer && a.i == 1 && a.specialize_value)
      return const_value(a.type, {}, 1.0, 1, loc);
    return v;
  }
  value_ref v = make_concrete(a.type, {});
  if (a.type.is_pointer()) {
    v->i[0] = a.i;
    if (index < ctx.extents.size() && ctx.extents[index].known)
      v->extent = int(index);
  } else if (a.type.is_int()) {
    v->i[0] = wrap_int(a.i, a.type.code);
  } else {
    v->f[0] = round_float(a.f, a.type.code);
  }
  return v;
}

TK_DECL std::string trace_kernel(const kernel_ref &k, std::span<const launch_argument> args,
                                 bool debug, std::vector<assert_site> *asserts) {
  context ctx;
  ctx.debug = debug;
  ctx.generation = new_generations(1);
  ctx.origin = k.origin;
  function fn;
  fn.name = k.name;
  fn.loc = k.loc;
  ctx.frames.push_back({&fn.body, {}});
  context_scope scope(ctx);
  // Arguments are bound left to right so that IR arguments keep the parameters' order.
  std::vector<value_ref> values;
  values.reserve(args.size());
  for (std::size_t index = 0; index < args.size(); ++index)
    values.push_back(bind_argument(ctx, &fn, args[index], index, k.loc));
  k.call(k.fn, values.data(), args.data());
  record("func.return", syntax::terminator, {}, {}, "", k.loc);
  if (asserts)
    *asserts = std::move(ctx.asserts);
  return print(fn);
}

TK_DECL void interpret_kernel(const kernel_ref &k, const grid &g, const launch_options &o,
                              std::span<const launch_argument> described) {
  // A device buffer in GPU memory runs on a host copy, copied back after the launch; one in
  // host memory (device_buffer.hpp) runs as it is.
  std::vector<launch_argument> args(described.begin(), described.end());
  std::vector<std::vector<std::uint64_t>> copies(args.size());
  for (std::size_t index = 0; index < args.size(); ++index)
    if (const device_memory *device = args[index].device) {
      auto begin = std::uint64_t(device->address());
      if (!device->on_host()) {
        std::vector<std::uint64_t> &copy = copies[index];
        copy.resize((device->bytes() + 7) / 8);
        device->download(copy.data(), device->bytes(), g.loc);
        begin = std::uint64_t(reinterpret_cast<std::uintptr_t>(copy.data()));
      }
      args[index].i = std::int64_t(begin);
      args[index].extent = {begin, begin + device->bytes(), true};
    }

  context ctx;
  ctx.kind = mode::interpret;
  ctx.num_programs = g.dims;
  ctx.origin = k.origin;
  ctx.checked = o.checked || interpret_check_requested();
  ctx.debug = debug_requested(o);
  for (const launch_argument &a : args)
    if (a.extent.known) {
      for (const launch_argument &b : args)
        ctx.extents.push_back(b.extent);
      break;
    }
  // One generation per program instance, x fastest (detail::instance_name).
  ctx.first_generation = new_generations(std::uint64_t(g.dims[0] * g.dims[1] * g.dims[2]));
  ctx.generation = ctx.first_generation;
  {
    context_scope scope(ctx);
    std::vector<value_ref> values(args.size());
    for (std::int64_t z = 0; z < g.dims[2]; ++z)
      for (std::int64_t y = 0; y < g.dims[1]; ++y)
        for (std::int64_t x = 0; x < g.dims[0]; ++x, ++ctx.generation) {
          ctx.program_id = {x, y, z};
          for (std::size_t index = 0; index < args.size(); ++index)
            values[index] = bind_argument(ctx, nullptr, args[index], index, g.loc);
          k.call(k.fn, values.data(), args.data());
        }
  }
  for (std::size_t index = 0; index < args.size(); ++index)
    if (device_memory *device = args[index].write_back; device && !device->on_host())
      device->upload(copies[index].data(), device->bytes(), g.loc);
}

/// A pointer argument must not be null and must be aligned to its element type.
TK_DECL void check_pointer(const launch_argument &a, std::source_location loc) {
  const std::uint32_t index = a.parameter;
  const auto address = std::uint64_t(a.i);
  if (address == 0)
    fail(loc, "launch argument ", index, " is a null pointer; a GPU kernel needs ",
         "device memory for every tk::ptr parameter");
  // A power of two: a mask, not a division, on every launch.
  const auto alignment = std::uint64_t(elem_type{a.type.pointee, dtype::i32}.bytes());
  if ((address & (alignment - 1)) != 0)
    fail(loc, "launch argument ", index, " (address ", address,
         ") is not aligned to its element type (", alignment, " bytes)");
}

/// Up to `N` elements on the stack, more on the heap: the launch key's words and the argument
/// block, which the hot path builds without allocating for kernels of up to `N` arguments.
template <class T, std::size_t N> class small_buffer {
public:
  explicit small_buffer(std::size_t size) : size_(size) {
    if (size > N)
      heap_.resize(size);
  }
  T *data() { return size_ > N ? heap_.data() : stack_.data(); }
  std::span<T> span() { return {data(), size_}; }

private:
  std::size_t size_;
  std::array<T, N> stack_; // not zeroed: every launch fills the elements it reads
  std::vector<T> heap_;
};

TK_DECL void run_kernel(const kernel_ref &k, compiled_kernels &compiled, const grid &g,
                        const launch_options &o, std::span<const launch_argument> args) {
  if (interprets(o))
    interpret_kernel(k, g, o, args);
  else
    launch_on_gpu(k, compiled, g, o, args);
}

/// How many kernels this process has compiled and loaded (kernels_loaded).
inline std::atomic<std::uint64_t> &loaded_counter() {
  static std::atomic<std::uint64_t> count{0};
  return count;
}

TK_DECL std::uint64_t kernels_loaded() { return loaded_counter().load(); }

/// Traces the kernel for `code` and compiles and loads it, with its device asserts registered
/// (detail/runtime/asserts.hpp).
TK_DECL loaded_kernel trace_and_load(const kernel_ref &k, std::span<const launch_argument> args,
                                     cu::context ctx, const code_options &code, loc_t loc) {
  loaded_counter().fetch_add(1);
  std::vector<assert_site> asserts;
  const std::string ir = trace_kernel(k, args, code.debug, &asserts);
  loaded_kernel loaded = compile_and_load(k.name, ir, ctx, code, loc);
  if (!asserts.empty())
    register_asserts(cu::get_driver(loc), loaded.module, k.name, std::move(asserts), loc);
  return loaded;
}

TK_DECL void prepare_kernel(const kernel_ref &k, compiled_kernels &compiled,
                            const launch_options &o, std::span<const launch_argument> args,
                            std::source_location loc) {
  if (interprets(o)) {
    (void)trace_kernel(k, args, debug_requested(o));
    return;
  }
  for (std::size_t index = 0; index < args.size(); ++index)
    if (args[index].kind == launch_argument::role::pointer)
      check_pointer(args[index], loc);
  const cu::driver &driver = gpu_driver(k.name, loc);
  const cu::context ctx =
      o.device < 0 ? driver.launch_context(loc) : driver.device_context(o.device, loc);
  const cu::scoped_context on_device(driver, ctx, loc);
  small_buffer<std::uint64_t, 16> words(args.size());
  for (std::size_t index = 0; index < args.size(); ++index)
    words.data()[index] = specialization_word(args[index]);
  const kernel_key key{k.identity, ctx, code_options_of(o), words.span()};
  (void)compiled.get(key, [&] { return trace_and_load(k, args, ctx, key.code, loc); });
}

TK_DECL compiled_kernel compile_artifacts(const kernel_ref &k, const launch_options &o,
                                          std::span<const launch_argument> args,
                                          std::source_location loc) {
  const backend_library &backend = get_backend(loc);
  const requested_arch requested = requested_target_arch(o.target_arch);
  // The launch's device when there is a GPU; else the target asked for, as the device.
  std::string target, lowering;
  bool tensor_maps = true;
  const cu::driver *driver = nullptr;
  try {
    driver = &cu::get_driver(loc);
  } catch (const error &e) {
    if (requested.name.empty())
      fail(loc, "kernel '", k.name, "': no GPU to compile for (", e.message(),
           "); name a target with launch_options::target_arch or TK_TARGET_ARCH (\"sm_90a\", "
           "say; the backend's targets: ",
           backend.targets(), ")");
    target = std::string(requested.name);
    if ((" " + std::string(backend.targets()) + " ").find(" " + target + " ") == std::string::npos)
      fail(loc, requested.source, " is ", target, ", which this backend cannot compile for (its ",
           "targets: ", backend.targets(), ")");
  }
  if (driver) {
    const cu::context ctx =
        o.device < 0 ? driver->launch_context(loc) : driver->device_context(o.device, loc);
    const cu::device_info &device = driver->device_of(ctx, loc);
    target = device.target;
    lowering = resolve_target_arch(requested, device, backend.targets(), loc);
    tensor_maps = driver->tensor_map_encode_tiled != nullptr;
  }
  compiled_kernel out;
  out.ir = trace_kernel(k, args, debug_requested(o));
  out.target = target;
  out.lowering_target = lowering;
  out.num_warps = o.num_warps;
  out.num_stages = o.num_stages;
  tk_compile_options opts;
  backend.compile_options_init(&opts);
  opts.target = target.c_str();
  opts.num_warps = o.num_warps;
  opts.num_stages = o.num_stages;
  opts.fp_fusion = o.fp_fusion ? 1 : 0;
  opts.tensor_maps = tensor_maps ? 1 : 0;
  opts.lowering_target = lowering.empty() ? nullptr : lowering.c_str();
  opts.output = TK_OUTPUT_AUTO;
  opts.keep_stages = 1;
  tk_compile_result *raw = nullptr;
  const tk_status status =
      backend.compile_cached(out.ir.data(), out.ir.size(), nullptr, &opts, TK_CACHE_USE, &raw);
  const compile_result result(backend, raw);
  if (status != TK_OK)
    fail(loc, "cannot compile kernel '", k.name, "' for ", target, ":\n",
         backend.result_error(raw));
  for (int i = 0, n = backend.result_stage_ir_count(raw); i < n; ++i) {
    const char *name = nullptr;
    const char *text = backend.result_stage_ir(raw, i, &name);
    out.stages.emplace_back(name ? name : "", text ? text : "");
  }
  std::size_t size = 0;
  const void *binary = backend.result_binary(raw, &size);
  out.binary_is_cubin = backend.result_kind(raw) == TK_OUTPUT_CUBIN;
  out.binary.assign(static_cast<const char *>(binary), size);
  out.name = backend.result_kernel_name(raw);
  tk_resources used{};
  backend.result_resources(raw, &used);
  out.n_regs = used.registers;
  out.spill_store_bytes = used.spill_store_bytes;
  out.local_bytes = used.stack_bytes;
  out.shared_bytes = used.shared_bytes;
  out.dynamic_shared_bytes = int(backend.result_dynamic_shared_bytes(raw));
  out.num_threads = used.threads;
  out.tensor_maps = backend.result_tensor_map_count(raw);
  out.resources = resource_line(k.name, target, lowering, false, used.registers, used.stack_bytes,
                                used.shared_bytes, used.threads);
  return out;
}

TK_DECL void launch_programmatic(const cu::driver &driver, const loaded_kernel &loaded,
                                 const grid &g, cu::stream stream, void **block) {
  cu::launch_attribute attribute;
  attribute.id = cu::launch_attribute_programmatic_stream_serialization;
  attribute.value.programmatic_stream_serialization_allowed = 1;
  const cu::launch_config config{unsigned(g.dims[0]),
                                 unsigned(g.dims[1]),
                                 unsigned(g.dims[2]),
                                 loaded.threads,
                                 1,
                                 1,
                                 loaded.shared_bytes,
                                 stream,
                                 &attribute,
                                 1};
  cu::check(driver.launch_kernel_ex(&config, loaded.function, block, nullptr), "cuLaunchKernelEx",
            g.loc);
}

TK_DECL void launch_on_gpu(const kernel_ref &k, compiled_kernels &compiled, const grid &g,
                           const launch_options &o, std::span<const launch_argument> args) {
  for (std::size_t index = 0; index < args.size(); ++index)
    if (args[index].kind == launch_argument::role::pointer)
      check_pointer(args[index], g.loc);
  const cu::driver &driver = gpu_driver(k.name, g.loc);
  const cu::context ctx =
      o.device < 0 ? driver.launch_context(g.loc) : driver.device_context(o.device, g.loc);
  // launch_options::device: its context is current for the launch (and a compile, which loads
  // the module into it), then the thread's again.
  std::optional<cu::scoped_context> on_device;
  if (o.device >= 0)
    on_device.emplace(driver, ctx, g.loc);
  small_buffer<std::uint64_t, 16> words(args.size());
  for (std::size_t index = 0; index < args.size(); ++index)
    words.data()[index] = specialization_word(args[index]);
  kernel_key key{k.identity, ctx, code_options_of(o), words.span()};
  check_device_memory(driver, args, g.loc);
  const loaded_kernel &kernel =
      compiled.get(key, [&] { return trace_and_load(k, args, ctx, key.code, g.loc); });
  // The argument block: each non-constant argument as the kernel's parameter holds it.
  small_buffer<void *, 16> params(args.size() + 1);
  std::size_t count = 0;
  for (const launch_argument &a : args)
    if (a.kind != launch_argument::role::constant)
      params.data()[count++] = const_cast<std::uint64_t *>(&a.bits);
  auto launch = [&](const loaded_kernel &loaded, void **block) {
    if (o.launch_pdl && driver.launch_kernel_ex)
      return launch_programmatic(driver, loaded, g, static_cast<cu::stream>(o.stream), block);
    cu::check(driver.launch_kernel(loaded.function, unsigned(g.dims[0]), unsigned(g.dims[1]),
                                   unsigned(g.dims[2]), loaded.threads, 1, 1, loaded.shared_bytes,
                                   static_cast<cu::stream>(o.stream), block, nullptr),
              "cuLaunchKernel", g.loc);
  };
  if (kernel.tensor_maps.empty())
    return launch(kernel, params.data());
  // Tensor maps for TMA, encoded from this launch's arguments and passed after them. Where the
  // values do not fit TMA (sizes and strides must be positive; the driver has limits of its
  // own), the same kernel compiled without tensor maps runs instead (pointer blocks).
  std::vector<tensor_map_bytes> maps(kernel.tensor_maps.size());
  std::vector<void *> block(params.data(), params.data() + count);
  bool encoded = true;
  for (std::size_t m = 0; m < maps.size() && encoded; ++m) {
    encoded =
        encode_tensor_map(driver, kernel.tensor_maps[m], params.data(), maps[m]) == cu::success;
    block.push_back(&maps[m]);
  }
  if (encoded)
    return launch(kernel, block.data());
  key.code.tensor_maps = false;
  const loaded_kernel &plain =
      compiled.get(key, [&] { return trace_and_load(k, args, ctx, key.code, g.loc); });
  launch(plain, params.data());
}

/// The C++ name of element type `d`, as a kernel's tk::ptr<T> spells it.
TK_DECL std::string_view element_spelling(dtype d) {
  switch (d) {
  case dtype::i1:
    return "bool";
  case dtype::i8:
    return "std::int8_t";
  case dtype::i16:
    return "std::int16_t";
  case dtype::i32:
    return "std::int32_t";
  case dtype::i64:
    return "std::int64_t";
  case dtype::u8:
    return "std::uint8_t";
  case dtype::u16:
    return "std::uint16_t";
  case dtype::u32:
    return "std::uint32_t";
  case dtype::u64:
    return "std::uint64_t";
  case dtype::f8e4m3:
    return "tk::f8e4m3";
  case dtype::f8e5m2:
    return "tk::f8e5m2";
  case dtype::f8e4b8:
    return "tk::f8e4b8";
  case dtype::f8e5b16:
    return "tk::f8e5b16";
  case dtype::f16:
    return "tk::half";
  case dtype::bf16:
    return "tk::bfloat16";
  case dtype::f32:
    return "float";
  case dtype::f64:
    return "double";
  default:
    return name(d);
  }
}

TK_DECL void check_device_memory(const cu::driver &driver, std::span<const launch_argument> args,
                                 std::source_location loc) {
  using container = launch_argument::container;
  for (std::size_t index = 0; index < args.size(); ++index) {
    const launch_argument &a = args[index];
    if (a.kind != launch_argument::role::pointer)
      continue;
    const bool host_buffer = a.device && a.device->on_host();
    // Device memory, managed or registered host memory, as far as the driver can tell
    // (reachable_on_device). The rest builds the error only.
    if (!host_buffer && reachable_on_device(driver, std::uintptr_t(a.i), loc))
      continue;
    const std::string_view element = element_spelling(a.type.pointee);
    const char *passed = a.passed_as == container::vector          ? "a std::vector"
                         : a.passed_as == container::span          ? "a std::span"
                         : a.passed_as == container::device_buffer ? "a tk::device_buffer"
                                                                   : "a pointer";
    const std::string parameter = std::to_string(a.parameter);
    const std::string what =
        a.descriptor_part
            ? "launch argument " + parameter + " (a tk::host_tensor_descriptor over " + passed +
                  ", for the kernel's parameter " + parameter + ", a tk::tensor_descriptor of " +
                  std::string(element) + ")"
            : "launch argument " + parameter + " (" + passed + ", for the kernel's parameter " +
                  parameter + ", a tk::ptr of " + std::string(element) + ")";
    if (host_buffer)
      fail(loc, what,
           " is host memory: the buffer was made while TK_INTERPRET selected the interpreter; "
           "make it with TK_INTERPRET unset to launch on the GPU, or launch on the interpreter");
    if (a.passed_as == container::vector || a.passed_as == container::span)
      fail(loc, what, " is host memory the GPU cannot reach; pass a tk::device_buffer<", element,
           "> made from it, which copies it to the GPU, or a device pointer of your own "
           "(cudaMalloc, cuMemAlloc, managed or registered host memory)");
    fail(loc, what,
         " is host memory the GPU cannot reach; pass device memory: a tk::device_buffer<", element,
         ">, or a pointer of your own from cudaMalloc or cuMemAlloc, managed or "
         "registered host memory");
  }
}

TK_DECL const cu::driver &gpu_driver(const std::string &name, std::source_location loc) {
  try {
    const cu::driver &driver = cu::get_driver(loc);
    (void)get_backend(loc);
    return driver;
  } catch (const error &e) {
    fail(loc, "cannot launch kernel '", name, "' on the GPU: ", e.message());
  }
}

TK_DECL void check_name(const std::string &name, loc_t loc) {
  bool ok = !name.empty() && !(name[0] >= '0' && name[0] <= '9');
  for (char c : name)
    ok = ok &&
         ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_');
  if (!ok)
    fail(loc, "tk::jit: kernel name \"", name,
         "\" must be a C identifier (letters, digits and '_', not starting with a digit)");
}

} // namespace tk::detail
