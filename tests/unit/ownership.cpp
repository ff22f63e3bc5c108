/// @file ownership.cpp
/// The small ownership, callable and message types the headers use in place of <memory>,
/// <functional> and <sstream>.
#include <catch2/catch.hpp>
#include <tk/detail/trace/ownership.hpp>
#include <tk/error.hpp>

#include <string>
#include <utility>

namespace {

using tk::detail::callback;
using tk::detail::counted;
using tk::detail::function_ref;
using tk::detail::make_counted;
using tk::detail::make_owned;
using tk::detail::owned;

struct tracked : tk::detail::refcounted {
  explicit tracked(int &live) : live(live) { ++live; }
  ~tracked() { --live; }
  int &live;
};

std::string message_of(auto &&...parts) {
  try {
    tk::detail::fail(std::source_location::current(), parts...);
  } catch (const tk::error &e) {
    return e.message();
  }
  return "(no error)";
}

} // namespace

TEST_CASE("counted: copies share the object, the last one deletes it", "[ownership]") {
  int live = 0;
  {
    counted<tracked> a = make_counted<tracked>(live);
    REQUIRE(live == 1);
    counted<tracked> b = a;
    CHECK(b == a);
    counted<tracked> c = std::move(a);
    CHECK(!a);
    CHECK(c == b);
    a = c; // assignment from a copy of the same object keeps it alive
    b = nullptr;
    c = nullptr;
    CHECK(live == 1);
    a = a; // self-assignment too
    CHECK(live == 1);
    REQUIRE(a);
  }
  CHECK(live == 0);
}

TEST_CASE("owned: deletes once, moves transfer ownership", "[ownership]") {
  int live = 0;
  {
    owned<tracked> a = make_owned<tracked>(live);
    owned<tracked> b = std::move(a);
    CHECK(!a);
    REQUIRE(b);
    CHECK(live == 1);
    b = make_owned<tracked>(live); // the old object goes
    CHECK(live == 1);
  }
  CHECK(live == 0);
}

TEST_CASE("function_ref and callback call what they were made from", "[ownership]") {
  int calls = 0;
  auto count = [&](int by) { return calls += by; };
  function_ref<int(int)> ref = count;
  CHECK(ref(2) == 2);
  int state = 10;
  auto mutable_lambda = [state](int by) mutable { return state += by; };
  function_ref<int(int)> ref2 = mutable_lambda;
  CHECK(ref2(1) == 11);
  CHECK(ref2(1) == 12); // the referenced lambda keeps its state

  callback<int(int)> empty;
  CHECK(!empty);
  callback<int(int)> cb = [n = 100](int by) mutable { return n += by; };
  callback<int(int)> copy = cb; // copies share the callable
  CHECK(cb(1) == 101);
  CHECK(copy(1) == 102);
}

TEST_CASE("error messages format numbers as streams do", "[ownership][errors]") {
  CHECK(message_of("a ", 12, ' ', -3L, ' ', std::size_t(7), ' ', 1.5, ' ', 0.1f, ' ', true) ==
        "a 12 -3 7 1.5 0.1 1");
  CHECK(message_of(std::string("s"), std::string_view("v"), 1e20, ' ', 123456789.0) ==
        "sv1e+20 1.23457e+08");
  CHECK(message_of("unsigned char is a number: ", static_cast<unsigned char>(200)) ==
        "unsigned char is a number: 200");
}
