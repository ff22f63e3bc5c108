// tk-assign-layouts rejects a num-warps that is not a power of two.
// RUN: tk-opt %s -tk-assign-layouts=num-warps=6 -verify-diagnostics

// expected-error @+1 {{num-warps must be a positive power of two, got 6}}
module {
  func.func @empty() {
    func.return
  }
}
