/// @file launch_cache.cpp
/// Compiling and loading a kernel (tk/detail/runtime/launch.hpp) without a GPU: the stand-in
/// driver (tests/support/fake_cuda.cpp), which rejects anything but an ELF image or PTX text as the
/// real one does, and a stand-in backend whose output, producer and disk cache each test sets.
/// The real backend's cache (keys, entries on disk) is tested in tests/backend/cache_test.cpp;
/// here, what the launch does with it: store only what loaded, retry once with TK_CACHE_REPLACE
/// when the driver rejects a cached binary, and say why it fails.
#include "expect_error.hpp"

#include <catch2/catch.hpp>
#include <tk/detail/runtime/launch.hpp>

#include "scoped_env.hpp"
#include "temp_files.hpp"

#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#ifdef TK_TEST_FAKE_CUDA

namespace cu = tk::detail::cu;
using tk_test::expect_error;
using tk_test::scoped_env;

// The stand-in backend's result (the real one's is opaque; this binary does not link it).
struct tk_compile_result {
  tk_status status = TK_OK;
  std::string error;
  std::string binary;
  tk_output_kind kind = TK_OUTPUT_CUBIN;
  bool from_cache = false;
  std::string entry; ///< its entry in the stand-in disk cache
};

namespace {

/// The ELF header of a cubin for sm_90 as CUDA 13's ptxas writes it: enough for the stand-in
/// driver.
std::string fake_cubin() {
  std::string elf(64, '\0');
  elf.replace(0, 4, "\177ELF");
  elf[4] = 2;          // ELFCLASS64
  elf[5] = 1;          // little-endian
  elf[8] = 8;          // CUDA ELF ABI version 8: the SM in bits 8-15 of e_flags
  elf[18] = char(190); // EM_CUDA
  elf[48] = 0x04;
  elf[49] = 0x5a; // sm_90
  return elf;
}

struct backend_state {
  std::string output = fake_cubin();
  tk_output_kind kind = TK_OUTPUT_CUBIN;
  std::string error; ///< when set, compiles fail with it
  std::size_t dynamic_shared_bytes = 0;
  std::string producer = "ptxas /opt/cuda/bin/ptxas (release 13.0, V13.0.88)";
  int compiles = 0;
  std::vector<tk_cache_mode> modes;    ///< of every tk_compile_cached call, in order
  std::string target, lowering_target; ///< what the last compile was asked for
  int num_warps = 0, num_stages = 0, fp_fusion = -1;
  int tensor_maps = -1;            ///< the last compile's option
  std::vector<tk_tensor_map> maps; ///< what the result reports (with tensor_maps)
  /// The stand-in disk cache: an entry per target, lowering target and tensor_maps option.
  std::map<std::string, std::string> entries;
  int stores = 0;
  std::string ir; ///< what the last compile was given
};
backend_state state;

tk::detail::backend_library fake_backend() {
  state = backend_state{};
  tk::detail::backend_library b;
  b.compile_options_init = [](tk_compile_options *opts) { *opts = tk_compile_options{}; };
  b.compile_cached = [](const char *ir, size_t ir_size, const char *,
                        const tk_compile_options *opts, tk_cache_mode mode,
                        tk_compile_result **out) -> tk_status {
    state.modes.push_back(mode);
    state.ir.assign(ir, ir_size);
    state.target = opts->target ? opts->target : "";
    state.lowering_target = opts->lowering_target ? opts->lowering_target : "(null)";
    state.num_warps = opts->num_warps;
    state.num_stages = opts->num_stages;
    state.fp_fusion = opts->fp_fusion;
    state.tensor_maps = opts->tensor_maps;
    auto *result = new tk_compile_result;
    result->entry = "/cache/" + state.target + "-" + state.lowering_target + "-" +
                    std::to_string(opts->tensor_maps);
    *out = result;
    if (mode == TK_CACHE_REPLACE)
      state.entries.erase(result->entry);
    else if (auto hit = state.entries.find(result->entry); hit != state.entries.end()) {
      result->binary = hit->second;
      result->from_cache = true;
      return TK_OK;
    }
    ++state.compiles;
    if (!state.error.empty()) {
      result->status = TK_ERROR_CODEGEN;
      result->error = state.error;
      return result->status;
    }
    result->binary = state.output;
    result->kind = state.kind;
    return TK_OK;
  };
  b.result_from_cache = [](const tk_compile_result *r) { return r->from_cache ? 1 : 0; };
  b.result_cache_entry = [](const tk_compile_result *r) { return r->entry.c_str(); };
  b.result_cache_store = [](const tk_compile_result *r) {
    ++state.stores;
    state.entries[r->entry] = r->binary;
    return 1;
  };
  b.result_free = [](tk_compile_result *r) { delete r; };
  b.result_error = [](const tk_compile_result *r) { return r->error.c_str(); };
  b.result_binary = [](const tk_compile_result *r, size_t *size) -> const void * {
    *size = r->binary.size();
    return r->binary.data();
  };
  b.result_kind = [](const tk_compile_result *r) { return r->kind; };
  b.result_ptx = [](const tk_compile_result *r) -> const char * {
    return r->from_cache ? "" : "// PTX of the stand-in\n.version 8.0\n";
  };
  b.result_kernel_name = [](const tk_compile_result *) -> const char * { return "vector_add"; };
  b.result_threads_per_block = [](const tk_compile_result *) { return 128; };
  b.result_dynamic_shared_bytes = [](const tk_compile_result *) {
    return state.dynamic_shared_bytes;
  };
  b.result_tensor_map_count = [](const tk_compile_result *) {
    return state.tensor_maps ? int(state.maps.size()) : 0;
  };
  b.result_tensor_map = [](const tk_compile_result *, int i, tk_tensor_map *out) {
    *out = state.maps.at(std::size_t(i));
    return 0;
  };
  b.version = []() -> const char * { return "fake backend"; };
  b.producer = []() -> const char * { return state.producer.c_str(); };
  return b;
}

const char *fake_targets(std::source_location) { return "sm_75 sm_80 sm_90 sm_90a sm_100a"; }

/// The stand-in driver, a stand-in backend, and a kernel.
struct fixture {
  tk::detail::owned<cu::driver> driver = [] {
    auto d = cu::driver::load(TK_TEST_FAKE_CUDA);
    d->backend_targets = fake_targets;
    return d;
  }();
  tk::detail::backend_library backend = fake_backend();
  std::string name = "vector_add";
  std::string ir = "module { func.func @vector_add() { return } }";
  tk::detail::kernel_source source{name, ir, driver->device_at(0), {.tensor_maps = false}};

  tk::detail::loaded_kernel load(std::source_location where = std::source_location::current()) {
    return tk::detail::compile_and_load({*driver, backend}, source, where);
  }
  /// What an older TileKit stored when ptxas exited with 0 and wrote garbage.
  void poison() { state.entries["/cache/sm_90a-(null)-0"] = "garbage from a ptxas"; }
  std::optional<std::string> stored() const {
    if (auto e = state.entries.find("/cache/sm_90a-(null)-0"); e != state.entries.end())
      return e->second;
    return std::nullopt;
  }
};

} // namespace

// At global scope, where lookup from Catch's comparisons finds it (the type is global).
static bool operator==(const tk_tensor_map &a, const tk_tensor_map &b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

TEST_CASE("launch cache: a kernel is compiled once, stored once it has loaded, then read back",
          "[launch_cache]") {
  fixture f;
  f.source.code.num_warps = 8;
  f.source.code.num_stages = 2;
  f.source.code.fp_fusion = false;
  CHECK(f.load().function != nullptr);
  CHECK(state.compiles == 1);
  CHECK(state.stores == 1);
  CHECK(state.num_warps == 8);
  CHECK(state.num_stages == 2);
  CHECK(state.fp_fusion == 0);
  REQUIRE(f.stored());
  CHECK(*f.stored() == fake_cubin());
  const tk::detail::loaded_kernel again = f.load();
  CHECK(again.function != nullptr);
  CHECK(again.threads == 128);
  CHECK(state.compiles == 1);
  CHECK(state.stores == 1); // a binary from the cache is not stored again
  CHECK(state.modes == std::vector{TK_CACHE_USE, TK_CACHE_USE});
}

TEST_CASE("launch cache: TK_DEBUG logs each loaded kernel's registers and spills",
          "[launch_cache]") {
  fixture f;
  scoped_env debug("TK_DEBUG", "1");
  scoped_env spills("FAKE_CUDA_LOCAL_BYTES", "400");
  const std::string log = tk_test::capture_stderr([&] { CHECK(f.load().function != nullptr); });
  CHECK(log == "tk: kernel 'vector_add' for sm_90a: 40 registers, 400 bytes of local memory per "
               "thread (spills or stack), 0 bytes of shared memory, 128 threads\n");
  // From the disk cache the same, and said so.
  const std::string again = tk_test::capture_stderr([&] { CHECK(f.load().function != nullptr); });
  CHECK(again == "tk: kernel 'vector_add' for sm_90a (from the disk cache): 40 registers, 400 "
                 "bytes of local memory per thread (spills or stack), 0 bytes of shared memory, "
                 "128 threads\n");
  scoped_env quiet("TK_DEBUG", "0");
  CHECK(tk_test::capture_stderr([&] { CHECK(f.load().function != nullptr); }).empty());
}

TEST_CASE("launch cache: TK_ALWAYS_COMPILE compiles every time, replacing the disk cache's entry",
          "[launch_cache][environment]") {
  fixture f;
  CHECK(f.load().function != nullptr);
  scoped_env always("TK_ALWAYS_COMPILE", "1");
  CHECK(f.load().function != nullptr);
  CHECK(f.load().function != nullptr);
  CHECK(state.compiles == 3);
  CHECK(state.modes == std::vector{TK_CACHE_USE, TK_CACHE_REPLACE, TK_CACHE_REPLACE});
  CHECK(f.stored()); // what was compiled is stored again, for runs without the variable
}

#if !defined(_WIN32)
TEST_CASE("launch cache: TK_DUMP_DIR writes the IR and the PTX of each kernel compiled",
          "[launch_cache][environment]") {
  fixture f;
  CHECK(f.load().function != nullptr); // now in the disk cache
  tk_test::temp_dir dir;
  scoped_env dump("TK_DUMP_DIR", dir.path().c_str());
  CHECK(f.load().function != nullptr);
  CHECK(state.modes.back() == TK_CACHE_REPLACE); // compiled afresh: a cached entry has no PTX
  CHECK(tk_test::read_file(dir.path() / "vector_add.mlir") == f.ir);
  CHECK(tk_test::read_file(dir.path() / "vector_add.ptx") ==
        "// PTX of the stand-in\n.version 8.0\n");
}

TEST_CASE("launch cache: TK_OVERRIDE_DIR replaces a kernel's IR or PTX, and says so",
          "[launch_cache][environment]") {
  fixture f;
  tk_test::temp_dir dir;
  scoped_env override_dir("TK_OVERRIDE_DIR", dir.path().c_str());
  // Nothing there for this kernel: compiled as traced, silently.
  CHECK(tk_test::capture_stderr([&] { CHECK(f.load().function != nullptr); }).empty());
  CHECK(state.ir == f.ir);

  const std::string edited = "module { func.func @vector_add() { return } } // edited";
  tk_test::write_file(dir.path() / "vector_add.mlir", edited);
  const std::string said = tk_test::capture_stderr([&] { CHECK(f.load().function != nullptr); });
  CHECK(state.ir == edited);
  CHECK(said == "tk: kernel 'vector_add': using " + (dir.path() / "vector_add.mlir").string() +
                    " (TK_OVERRIDE_DIR)\n");

  // PTX that the driver rejects names where it came from.
  tk_test::write_file(dir.path() / "vector_add.ptx", "not PTX");
  int line = 0;
  const std::string log = tk_test::capture_stderr([&] {
    expect_error("launch_cache.cpp", line,
                 "cannot load kernel 'vector_add' on Fake GPU 0 (sm_90a): cuModuleLoadData "
                 "failed: CUDA_ERROR_INVALID_IMAGE (device kernel image is invalid); its PTX "
                 "came from TK_OVERRIDE_DIR (vector_add.ptx)",
                 [&] {
                   line = __LINE__ + 1;
                   f.load();
                 });
  });
  CHECK(log.find("vector_add.ptx (TK_OVERRIDE_DIR)") != std::string::npos);
  tk_test::write_file(dir.path() / "vector_add.ptx", "//\n// edited PTX\n.version 8.0\n");
  CHECK(tk_test::capture_stderr([&] { CHECK(f.load().function != nullptr); }).size() > 0);
}

TEST_CASE("launch cache: a cached binary the driver rejects is replaced, compiled again once",
          "[launch_cache]") {
  fixture f;
  f.poison();
  scoped_env debug("TK_DEBUG", "1");
  const std::string log = tk_test::capture_stderr([&] { CHECK(f.load().function != nullptr); });
  CHECK(state.compiles == 1);
  CHECK(state.modes == std::vector{TK_CACHE_USE, TK_CACHE_REPLACE});
  CHECK(log == "tk: cache entry /cache/sm_90a-(null)-0 of kernel 'vector_add' does not load "
               "(cuModuleLoadData: CUDA_ERROR_INVALID_IMAGE (device kernel image is invalid)); "
               "deleting it and compiling again\n"
               "tk: kernel 'vector_add' for sm_90a: 40 registers, 0 bytes of local memory per "
               "thread, 0 bytes of shared memory, 128 threads\n");
  REQUIRE(f.stored());
  CHECK(*f.stored() == fake_cubin());
  CHECK(f.load().function != nullptr);
  CHECK(state.compiles == 1);
}
#endif

TEST_CASE("launch cache: a binary that does not load after recompiling is an error, not a loop",
          "[launch_cache]") {
  fixture f;
  f.poison();
  scoped_env reject("FAKE_CUDA_REJECT_IMAGES", "1");
  int line = 0;
  expect_error("launch_cache.cpp", line,
               "cannot load kernel 'vector_add' on Fake GPU 0 (sm_90a): cuModuleLoadData failed: "
               "CUDA_ERROR_INVALID_IMAGE (device kernel image is invalid); the cubin was compiled "
               "just now (producer: ptxas /opt/cuda/bin/ptxas (release 13.0, V13.0.88)), after "
               "the cached one had failed to load as well and was deleted",
               [&] {
                 line = __LINE__ + 1;
                 f.load();
               });
  CHECK(state.compiles == 1);
  CHECK(state.stores == 0);
  CHECK_FALSE(f.stored());
}

TEST_CASE("launch cache: a fresh binary that does not load is an error and is not stored",
          "[launch_cache]") {
  fixture f;
  scoped_env reject("FAKE_CUDA_REJECT_IMAGES", "1");
  int line = 0;
  expect_error("launch_cache.cpp", line,
               "cannot load kernel 'vector_add' on Fake GPU 0 (sm_90a): cuModuleLoadData failed: "
               "CUDA_ERROR_INVALID_IMAGE (device kernel image is invalid); the cubin was compiled "
               "just now (producer: ptxas /opt/cuda/bin/ptxas (release 13.0, V13.0.88))",
               [&] {
                 line = __LINE__ + 1;
                 f.load();
               });
  CHECK(state.compiles == 1);
  CHECK(state.modes == std::vector{TK_CACHE_USE}); // a fresh binary is not compiled again
  CHECK_FALSE(f.stored());
}

TEST_CASE("launch cache: a cached binary that fails for another reason is not replaced",
          "[launch_cache]") {
  fixture f;
  CHECK(f.load().function != nullptr);
  scoped_env out_of_memory("FAKE_CUDA_LOAD_RESULT", "2");
  int line = 0;
  expect_error("launch_cache.cpp", line,
               "cannot load kernel 'vector_add' on Fake GPU 0 (sm_90a): cuModuleLoadData failed: "
               "CUresult 2; the cubin came from the disk cache", // the stand-in names no others
               [&] {
                 line = __LINE__ + 1;
                 f.load();
               });
  CHECK(state.modes == std::vector{TK_CACHE_USE, TK_CACHE_USE});
  CHECK(f.stored()); // the entry stays: the image was not what failed
}

TEST_CASE("launch cache: the backend's error names the kernel, its target and the launch",
          "[launch_cache]") {
  fixture f;
  state.error = "kernel.cpp:12: error: something the backend refuses";
  int line = 0;
  expect_error("launch_cache.cpp", line,
               "cannot compile kernel 'vector_add' for sm_90a:\nkernel.cpp:12: error: something "
               "the backend refuses",
               [&] {
                 line = __LINE__ + 1;
                 f.load();
               });
  f.source.lowering_target = "sm_80";
  expect_error("launch_cache.cpp", line,
               "cannot compile kernel 'vector_add' for sm_90a (lowered "
               "for sm_80):\n",
               [&] {
                 line = __LINE__ + 1;
                 f.load();
               });
  CHECK(state.stores == 0);
}

TEST_CASE("launch cache: a kernel needing more shared memory than the GPU has is refused",
          "[launch_cache]") {
  fixture f;
  state.dynamic_shared_bytes = std::size_t(f.source.device.max_shared_bytes_optin) + 1;
  int line = 0;
  expect_error("launch_cache.cpp", line,
               "kernel 'vector_add' needs " + std::to_string(state.dynamic_shared_bytes) +
                   " bytes of shared memory per block; Fake GPU 0 has at most " +
                   std::to_string(f.source.device.max_shared_bytes_optin) + ": use smaller blocks",
               [&] {
                 line = __LINE__ + 1;
                 f.load();
               });
  CHECK(state.stores == 0);
}

TEST_CASE("launch cache: PTX for the driver's JIT is loaded and stored", "[launch_cache]") {
  fixture f;
  state.output = "//\n// Generated by LLVM NVPTX Back-End\n.version 8.7\n";
  state.kind = TK_OUTPUT_PTX;
  CHECK(f.load().function != nullptr);
  REQUIRE(f.stored());
  CHECK(*f.stored() == state.output);
}

TEST_CASE("launch cache: an older target to lower for is passed to the backend", "[launch_cache]") {
  fixture f;
  CHECK(f.load().function != nullptr);
  CHECK(state.target == "sm_90a");
  CHECK(state.lowering_target == "(null)");
  f.source.lowering_target = "sm_80";
  CHECK(f.load().function != nullptr);
  CHECK(state.compiles == 2);
  CHECK(state.target == "sm_90a"); // the binary is still for the GPU
  CHECK(state.lowering_target == "sm_80");
}

/// A 2-D map of f16 (element 2 bytes) over argument 0: sizes from arguments 1 and 2, the row
/// stride from argument 3, a 64 x 32 box.
tk_tensor_map two_d_map() {
  tk_tensor_map m{};
  m.rank = 2;
  m.element_bytes = 2;
  m.base_arg = 0;
  m.shape_arg[0] = 1;
  m.shape_arg[1] = 2;
  m.stride_arg[0] = 3;
  m.stride_arg[1] = -1;
  m.stride[1] = 1;
  m.box[0] = 64;
  m.box[1] = 32;
  m.swizzle = 64;
  return m;
}

TEST_CASE("launch cache: tensor-map recipes come from the backend", "[launch_cache]") {
  fixture f;
  state.maps = {two_d_map(), two_d_map()};
  state.maps[1].base_arg = 4;
  f.source.code.tensor_maps = true;
  const tk::detail::loaded_kernel k = f.load();
  CHECK(state.tensor_maps == 1);
  REQUIRE(k.tensor_maps.size() == 2);
  CHECK(k.tensor_maps[0] == two_d_map());
  CHECK(k.tensor_maps[1].base_arg == 4);
  CHECK(f.load().tensor_maps.size() == 2); // from the stand-in cache, the recipes from the result
  CHECK(state.compiles == 1);
  f.source.code.tensor_maps = false;
  CHECK(f.load().tensor_maps.empty());
  CHECK(state.tensor_maps == 0);
}

/// What the last call of the stand-in cuTensorMapEncodeTiled was given.
struct encode_call {
  int data_type = -1;
  unsigned rank = 0;
  void *address = nullptr;
  std::vector<std::uint64_t> dims, strides;
  std::vector<std::uint32_t> box, element_strides;
  int swizzle = -1, l2_promotion = -1, oob_fill = -1;
} last_encode;

cu::result fake_encode(void *map, int data_type, unsigned rank, void *address,
                       const std::uint64_t *dims, const std::uint64_t *strides,
                       const std::uint32_t *box, const std::uint32_t *element_strides, int,
                       int swizzle, int l2_promotion, int oob_fill) {
  last_encode = {data_type,
                 rank,
                 address,
                 {dims, dims + rank},
                 {strides, strides + rank - 1},
                 {box, box + rank},
                 {element_strides, element_strides + rank},
                 swizzle,
                 l2_promotion,
                 oob_fill};
  static_cast<std::uint8_t *>(map)[0] = 0x5a;
  return cu::success;
}

TEST_CASE("tensor maps: encoded from the launch's arguments, innermost first", "[launch_cache]") {
  fixture f;
  f.driver->tensor_map_encode_tiled = fake_encode;
  void *base = reinterpret_cast<void *>(std::uintptr_t{0x10000});
  std::int32_t rows = 100, cols = 40, ld = 48;
  void *params[] = {&base, &rows, &cols, &ld};
  tk_tensor_map recipe = two_d_map();
  recipe.swizzle = 0;
  tk::detail::tensor_map_bytes map{};
  CHECK(tk::detail::encode_tensor_map(*f.driver, recipe, params, map) == cu::success);
  CHECK(map.bytes[0] == 0x5a);
  CHECK(last_encode.data_type == 1); // CU_TENSOR_MAP_DATA_TYPE_UINT16
  CHECK(last_encode.rank == 2);
  CHECK(last_encode.address == base);
  CHECK(last_encode.dims == std::vector<std::uint64_t>{40, 100});
  CHECK(last_encode.strides == std::vector<std::uint64_t>{96}); // 48 elements of 2 bytes
  CHECK(last_encode.box == std::vector<std::uint32_t>{32, 64});
  CHECK(last_encode.element_strides == std::vector<std::uint32_t>{1, 1});
  CHECK(last_encode.oob_fill == 0); // zeros outside the tensor
  CHECK(last_encode.swizzle == 0);  // CU_TENSOR_MAP_SWIZZLE_NONE

  SECTION("a ring's map: the box of one panel, in the tile's swizzle") {
    recipe.box[1] = 64;
    for (auto [bytes, mode] : {std::pair{32, 1}, std::pair{64, 2}, std::pair{128, 3}}) {
      recipe.swizzle = bytes;
      CHECK(tk::detail::encode_tensor_map(*f.driver, recipe, params, map) == cu::success);
      CHECK(last_encode.swizzle == mode); // CU_TENSOR_MAP_SWIZZLE_32B, _64B, _128B
      CHECK(last_encode.box == std::vector<std::uint32_t>{64, 64});
    }
  }

  SECTION("sizes and strides TMA cannot take are refused without asking the driver") {
    last_encode = {};
    rows = 0; // an empty tensor
    CHECK(tk::detail::encode_tensor_map(*f.driver, recipe, params, map) != cu::success);
    rows = 100;
    ld = -48; // rows backwards
    CHECK(tk::detail::encode_tensor_map(*f.driver, recipe, params, map) != cu::success);
    CHECK(last_encode.rank == 0);
  }
  SECTION("a driver without cuTensorMapEncodeTiled encodes nothing") {
    f.driver->tensor_map_encode_tiled = nullptr;
    CHECK(tk::detail::encode_tensor_map(*f.driver, recipe, params, map) != cu::success);
  }
}

TEST_CASE("target arch: TK_TARGET_ARCH and launch_options::target_arch are checked against the GPU",
          "[launch_cache]") {
  using tk::detail::requested_arch;
  using tk::detail::resolve_target_arch;
  fixture f;
  const cu::device_info &h100 = f.driver->device_at(0); // sm_90a, "Fake GPU 0"
  const std::string targets = fake_targets({});
  const auto where = std::source_location::current();
  CHECK(resolve_target_arch({"", "TK_TARGET_ARCH"}, h100, targets, where).empty());
  CHECK(resolve_target_arch({"sm_90a", "TK_TARGET_ARCH"}, h100, targets, where).empty());
  CHECK(resolve_target_arch({"sm_80", "TK_TARGET_ARCH"}, h100, targets, where) == "sm_80");
  CHECK(resolve_target_arch({"sm_90"}, h100, targets, where) == "sm_90");
  CHECK(resolve_target_arch({"sm_75"}, h100, targets, where) == "sm_75");
  int line = 0;
  expect_error("launch_cache.cpp", line,
               "TK_TARGET_ARCH is sm_100a, newer than the GPU Fake GPU 0 (sm_90a): code for it "
               "may use instructions this GPU lacks; use sm_90a or an older target (sm_80 for the "
               "mma.sync path)",
               [&] {
                 const auto at = std::source_location::current();
                 line = int(at.line());
                 resolve_target_arch({"sm_100a", "TK_TARGET_ARCH"}, h100, targets, at);
               });
  expect_error("launch_cache.cpp", line,
               "launch_options::target_arch is 'sm_86', which is not a target of this TileKit "
               "backend (sm_75 sm_80 sm_90 sm_90a sm_100a)",
               [&] {
                 const auto at = std::source_location::current();
                 line = int(at.line());
                 resolve_target_arch({"sm_86"}, h100, targets, at);
               });
  expect_error("launch_cache.cpp", line,
               "launch_options::target_arch is 'sm80', which is not a target", [&] {
                 const auto at = std::source_location::current();
                 line = int(at.line());
                 resolve_target_arch({"sm80"}, h100, targets, at);
               });
  tk_test::scoped_env cc("FAKE_CUDA_CC", "10.0");
  auto b200 = cu::driver::load(TK_TEST_FAKE_CUDA);
  b200->backend_targets = fake_targets;
  const cu::device_info &blackwell = b200->device_at(0);
  REQUIRE(blackwell.target == "sm_100a");
  CHECK(resolve_target_arch({"sm_80"}, blackwell, targets, where) == "sm_80");
  expect_error("launch_cache.cpp", line,
               "launch_options::target_arch is sm_90a, an architecture-specific target: its code "
               "runs on sm_90 GPUs only, and Fake GPU 0 is sm_100a; use sm_90 or older",
               [&] {
                 const auto at = std::source_location::current();
                 line = int(at.line());
                 resolve_target_arch({"sm_90a"}, blackwell, targets, at);
               });
}

TEST_CASE("target arch: the launch option wins over TK_TARGET_ARCH, names pack into key words",
          "[launch_cache]") {
  using tk::detail::arch_word;
  CHECK(tk::detail::requested_target_arch("sm_80").name == "sm_80");
  CHECK(std::string(tk::detail::requested_target_arch("sm_80").source) ==
        "launch_options::target_arch");
  CHECK(std::string(tk::detail::requested_target_arch("").source) == "TK_TARGET_ARCH");
  CHECK(arch_word("") == 0);
  CHECK(arch_word("sm_80") != arch_word("sm_90"));
  CHECK(arch_word("sm_100a") != arch_word("sm_100"));
  CHECK(arch_word("sm_100a") == arch_word(std::string("sm_100a")));
  CHECK(arch_word("a name too long") == ~std::uint64_t(0));
}

#endif // TK_TEST_FAKE_CUDA

TEST_CASE("launch key: code options decide the entry, which keeps its own target name",
          "[launch_cache]") {
  using tk::detail::code_options;
  using tk::detail::kernel_key;
  tk::detail::compiled_kernels cache;
  std::uint64_t words[2] = {1, 16};
  std::string asked = "sm_80";
  const kernel_key key{7, nullptr, {.target_arch = {asked}}, words};
  int made = 0;
  const auto make = [&] {
    tk::detail::loaded_kernel k;
    k.threads = unsigned(32 * ++made);
    return k;
  };
  CHECK(cache.get(key, make).threads == 32);
  asked = "sm_XY"; // the launch's string goes away; the entry holds a copy of the name
  words[0] = 5;    // and of the argument words

  std::uint64_t same_words[2] = {1, 16};
  kernel_key same{7, nullptr, {.target_arch = {"sm_80", "TK_TARGET_ARCH"}}, same_words};
  REQUIRE(cache.find(same) != nullptr); // who asked for the target does not change the code
  CHECK(cache.get(same, make).threads == 32);
  CHECK(made == 1);

  const auto differs = [&](auto change) {
    kernel_key other = same;
    change(other);
    return cache.find(other) == nullptr;
  };
  CHECK(differs([](kernel_key &k) { k.kernel = 8; }));
  CHECK(differs([](kernel_key &k) { k.context = reinterpret_cast<tk::detail::cu::context>(8); }));
  CHECK(differs([](kernel_key &k) { k.code.num_warps = 8; }));
  CHECK(differs([](kernel_key &k) { k.code.num_stages = 2; }));
  CHECK(differs([](kernel_key &k) { k.code.fp_fusion = false; }));
  CHECK(differs([](kernel_key &k) { k.code.tensor_maps = false; }));
  CHECK(differs([](kernel_key &k) { k.code.target_arch.name = "sm_90"; }));
  CHECK(differs([](kernel_key &k) { k.code.target_arch.name = ""; }));
  std::uint64_t more[3] = {1, 16, 0};
  CHECK(differs([&](kernel_key &k) { k.args = more; }));
  std::uint64_t other_words[2] = {1, 0};
  CHECK(differs([&](kernel_key &k) { k.args = other_words; }));
}

TEST_CASE("code options: one check of num_warps and num_stages", "[launch_cache]") {
  using tk::detail::invalid_code_options;
  for (int warps : {1, 2, 4, 8, 16, 32})
    CHECK(invalid_code_options(warps, 1).empty());
  CHECK(invalid_code_options(3, 3) == "num_warps is 3; it must be 1, 2, 4, 8, 16 or 32");
  CHECK(invalid_code_options(64, 3) == "num_warps is 64; it must be 1, 2, 4, 8, 16 or 32");
  CHECK(invalid_code_options(0, 3) == "num_warps is 0; it must be 1, 2, 4, 8, 16 or 32");
  CHECK(invalid_code_options(4, 0) == "num_stages is 0; it must be from 1 to 8");
  CHECK(invalid_code_options(4, 9) == "num_stages is 9; it must be from 1 to 8");
  CHECK(invalid_code_options(4, 2147483647) == "num_stages is 2147483647; it must be from 1 to 8");
  for (int stages = TK_NUM_STAGES_MIN; stages <= TK_NUM_STAGES_MAX; ++stages)
    CHECK(invalid_code_options(4, stages).empty());
  // The backend's words for the same rule (lib/CAPI/Compile.cpp).
  CHECK(std::string_view("num_stages must be " TK_NUM_STAGES_RANGE) ==
        "num_stages must be from 1 to 8");
}
