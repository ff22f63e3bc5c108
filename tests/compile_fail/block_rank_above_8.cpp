// expect: static assertion failed.*tk::block: rank must be between 0 and 8
// A block type of rank 9.
#include <tk/tk.hpp>

void check() {
  tk::block<float, 9> x;
  (void)x;
}
