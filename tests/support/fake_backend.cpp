/// @file fake_backend.cpp
/// A library that looks like libtilekit_backend.so of another C ABI version, for the loader's
/// tests (tests/unit/backend_loader.cpp): built with FAKE_BACKEND_ABI=1, it is a backend from
/// before tk_backend_abi_version existed; with another number, a backend of that version.
extern "C" __attribute__((visibility("default"))) int tk_compile() { return 0; }

#if FAKE_BACKEND_ABI != 1
extern "C" __attribute__((visibility("default"))) int tk_backend_abi_version() {
  return FAKE_BACKEND_ABI;
}
#endif
