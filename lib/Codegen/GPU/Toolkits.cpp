//===- Toolkits.cpp - finding CUDA and ROCm, checking GPU chips -----------===//

#include "Codegen/GPU/Passes.h"
#include "Support/InstallPaths.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdlib>
#include <dlfcn.h>

using namespace mlir;

/// The first of `variables` that is set and not empty.
static std::optional<std::string> getFirstEnv(ArrayRef<const char *> variables) {
  for (const char *variable : variables)
    if (const char *value = std::getenv(variable); value && *value)
      return std::string(value);
  return std::nullopt;
}

std::string google::findCudaToolkit(StringRef option) {
  if (!option.empty())
    return option.str();
  if (std::optional<std::string> env =
          getFirstEnv({"CUDA_HOME", "CUDA_ROOT", "CUDA_PATH"}))
    return *env;
  return "/usr/local/cuda";
}

bool google::hasCudaCompilers(StringRef toolkit) {
  for (StringRef tool : {"ptxas", "fatbinary"}) {
    SmallString<128> path(toolkit);
    llvm::sys::path::append(path, "bin", tool);
    if (!llvm::sys::fs::can_execute(path))
      return false;
  }
  return true;
}

std::string google::findLibdevice(StringRef toolkit) {
  SmallString<128> path(toolkit);
  llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
  if (toolkit.empty() || !llvm::sys::fs::is_regular_file(path))
    return "";
  return path.str().str();
}

/// The ROCm directory this build made (lld-22 as llvm/bin/ld.lld, Debian's
/// device libraries as amdgcn/bitcode): beside an installed library, else
/// in the build tree.
static std::string getBundledRocmDir() {
  return google::findNextToLibrary(
      reinterpret_cast<const void *>(&getBundledRocmDir),
      "../share/google-mlir/rocm", GOOGLE_ROCM_BUILD_DIR);
}

std::string google::findRocmToolkit(StringRef option) {
  if (!option.empty())
    return option.str();
  if (std::optional<std::string> env =
          getFirstEnv({"ROCM_PATH", "ROCM_ROOT", "ROCM_HOME"}))
    return *env;
  if (llvm::sys::fs::can_execute("/opt/rocm/llvm/bin/ld.lld"))
    return "/opt/rocm";
  return getBundledRocmDir();
}

/// Whether the LLVM backend for `triple` knows the processor `chip`.
static bool isKnownChip(StringRef triple, StringRef chip) {
  static bool initialized = [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargetMCs();
    return true;
  }();
  (void)initialized;
  llvm::Triple parsed(triple);
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(parsed, error);
  if (!target)
    return false;
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(parsed, "", ""));
  return subtarget && subtarget->isCPUStringValid(chip);
}

std::optional<std::string> google::getPtxFeatures(StringRef chip) {
  unsigned number;
  StringRef digits = chip;
  if (!digits.consume_front("sm_") ||
      digits.take_while([](char c) { return llvm::isDigit(c); }).getAsInteger(10, number) ||
      !isKnownChip("nvptx64-nvidia-cuda", chip))
    return std::nullopt;
  // The oldest PTX ISA that the chip accepts, and no older than 8.0 (CUDA
  // 12.0), which CUDA 13's ptxas still reads.
  unsigned ptx = 80;
  if (number >= 100)
    ptx = llvm::StringSwitch<unsigned>(digits.take_while([](char c) { return llvm::isDigit(c); }))
              .Cases({"100", "101"}, 86)
              .Case("120", 87)
              .Default(88);
  return "+ptx" + std::to_string(ptx);
}

bool google::isKnownAmdgpuChip(StringRef chip) {
  return chip.starts_with("gfx") && isKnownChip("amdgcn-amd-amdhsa", chip);
}
