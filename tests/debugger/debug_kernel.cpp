/// @file debug_kernel.cpp
/// A kernel debugged in gdb by tests/debugger/run_gdb.sh: it stops inside the lambda for one
/// program instance and prints block handles through tools/gdb/tilekit.py.
#include <tk/tk.hpp>

#include <cstdio>
#include <vector>

int main() {
  auto scale = tk::jit("scale", [](tk::ptr<float> out, tk::ptr<const float> in) {
    auto pid = tk::program_id(0);
    auto offs = pid * 8 + tk::arange(0, 8);
    auto x = tk::load(in + offs);
    tk::store(out + offs, x * 2.0f); // gdb-break-here
  });
  std::vector<float> in(32), out(32);
  for (int i = 0; i < 32; ++i)
    in[std::size_t(i)] = float(i);
  scale.interpret(tk::grid(4), out.data(), in.data());
  std::printf("out[9] = %g\n", double(out[9]));
  return out[9] == 18.0f ? 0 : 1;
}
