// expect: static assertion failed.*tk: a tk::heuristic<T> constant must be a bool, an integer, an enum or a floating-point type
// A tk::heuristic placeholder of a type no tk::constant holds.
#include <tk/tk.hpp>

#include <string>

void check() { (void)tk::heuristic<std::string>("NAME"); }
