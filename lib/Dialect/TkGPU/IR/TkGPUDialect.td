// The tkgpu dialect: GPU layouts of tk tensors (Triton's `ttg`), as tensor encodings, and the
// ops that move values between layouts (docs/backend.md, "Layouts").

#ifndef TKGPU_DIALECT_TD
#define TKGPU_DIALECT_TD

include "mlir/IR/DialectBase.td"

def TkGPU_Dialect : Dialect {
  let name = "tkgpu";
  let cppNamespace = "::mlir::tkgpu";
  let summary = "GPU layouts of tk tensors (Triton's `ttg`)";
  let description = [{
    A layout says which thread of which warp holds which elements of a tensor. It is an
    attribute used as the tensor's encoding: `tensor<32x64xf32, #tkgpu.blocked<{...}>>`.
    Passes choose layouts (`tk-assign-layouts`), change them, and remove the explicit
    `tkgpu.convert_layout` ops between them (`tk-remove-layout-conversions`).
  }];

  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  // `tkgpu.num_warps`, `tkgpu.threads_per_warp`, `tkgpu.shared` and `tkgpu.ptx_version` on the
  // module;
  // `tkgpu.shared_offset` on the ops that use shared memory.
  let hasOperationAttrVerify = 1;
  // `tkgpu.tensor_map` on a kernel argument (TensorMap.h).
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    static constexpr ::llvm::StringLiteral getNumWarpsAttrName() {
      return ::llvm::StringLiteral("tkgpu.num_warps");
    }
    static constexpr ::llvm::StringLiteral getThreadsPerWarpAttrName() {
      return ::llvm::StringLiteral("tkgpu.threads_per_warp");
    }
    static constexpr ::llvm::StringLiteral getSharedAttrName() {
      return ::llvm::StringLiteral("tkgpu.shared");
    }
    static constexpr ::llvm::StringLiteral getSharedOffsetAttrName() {
      return ::llvm::StringLiteral("tkgpu.shared_offset");
    }
    static constexpr ::llvm::StringLiteral getPtxVersionAttrName() {
      return ::llvm::StringLiteral("tkgpu.ptx_version");
    }

    /// The module's warps per program (`tkgpu.num_warps`), or 0 before layouts are assigned.
    static unsigned getModuleNumWarps(::mlir::Operation *module);
    /// Sets `tkgpu.num_warps` and `tkgpu.threads_per_warp` (32) on the module.
    static void setModuleNumWarps(::mlir::Operation *module, unsigned numWarps);
    /// The shared memory the module's kernel needs in bytes (`tkgpu.shared`), 0 when unset.
    static uint64_t getModuleSharedBytes(::mlir::Operation *module);
    static void setModuleSharedBytes(::mlir::Operation *module, uint64_t bytes);
    /// The least PTX ISA (times ten: 84 is PTX 8.4) the module's instructions need
    /// (`tkgpu.ptx_version`, set by the lowering when an instruction needs more than every
    /// target's ISA), 0 when unset.
    static unsigned getModulePtxVersion(::mlir::Operation *module);
    /// Raises `tkgpu.ptx_version` to at least `version`.
    static void requireModulePtxVersion(::mlir::Operation *module, unsigned version);
    /// The byte offset of `op`'s buffer in the kernel's shared memory (`tkgpu.shared_offset`,
    /// set by tk-allocate-shared-memory on every op that uses scratch), none when unset.
    static std::optional<uint64_t> getSharedOffset(::mlir::Operation *op);
    static void setSharedOffset(::mlir::Operation *op, uint64_t offset);

    /// The most warps a program (CTA) may have: 32, 1024 threads, CUDA's limit per block.
    static constexpr unsigned getMaxNumWarps() { return 32; }

    /// Answers to layout queries that are pure functions of uniqued types (LayoutMemo), kept
    /// for as long as the context, which keeps the types.
    ::mlir::tkgpu::LayoutMemo &getLayoutMemo() const { return *layoutMemo; }

    void registerAttributes();
    void registerTypes();

  private:
    std::unique_ptr<::mlir::tkgpu::LayoutMemo> layoutMemo;
  }];
}

#endif // TKGPU_DIALECT_TD
