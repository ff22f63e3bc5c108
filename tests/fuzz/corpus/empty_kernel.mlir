module {
  llvm.func @k() attributes {nvvm.kernel} {
    llvm.return
  }
}
