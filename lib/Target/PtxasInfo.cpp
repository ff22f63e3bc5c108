/// @file PtxasInfo.cpp
/// What ptxas -v (and nvJitLink -verbose) says a kernel uses.
#include "Target/PtxasInfo.h"

#include <climits>
#include <string>
#include <utility>
#include <vector>

namespace mlir::tk {

namespace {

/// The decimal number that ends right before `word` in `line` (spaces between allowed), or -1.
int numberBefore(std::string_view line, std::string_view word) {
  const size_t at = line.find(word);
  if (at == std::string_view::npos)
    return -1;
  size_t end = at;
  while (end > 0 && line[end - 1] == ' ')
    --end;
  size_t begin = end;
  while (begin > 0 && line[begin - 1] >= '0' && line[begin - 1] <= '9')
    --begin;
  if (begin == end)
    return -1;
  long long value = 0;
  for (size_t i = begin; i < end; ++i) {
    value = value * 10 + (line[i] - '0');
    if (value > INT_MAX)
      return -1;
  }
  return int(value);
}

/// The function a header line names: `'name'` in quotes (entry functions, nvJitLink's summary),
/// else the rest of the line (`Function properties for name`), without a trailing colon.
std::string_view nameAfter(std::string_view line, std::string_view header) {
  std::string_view rest = line.substr(line.find(header) + header.size());
  while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\r' || rest.back() == ':'))
    rest.remove_suffix(1);
  if (rest.size() >= 2 && rest.front() == '\'') {
    const size_t close = rest.find('\'', 1);
    if (close != std::string_view::npos)
      return rest.substr(1, close - 1);
  }
  return rest;
}

bool startsWithWord(std::string_view line, std::string_view word) {
  const size_t colon = line.find(": ");
  if (colon == std::string_view::npos)
    return false;
  std::string_view rest = line.substr(colon + 2);
  while (!rest.empty() && rest.front() == ' ')
    rest.remove_prefix(1);
  return rest.substr(0, word.size()) == word;
}

} // namespace

KernelResources parsePtxasInfo(std::string_view log, std::string_view kernel) {
  std::vector<std::pair<std::string, KernelResources>> functions;
  std::string firstEntry;
  KernelResources *current = nullptr;
  auto select = [&](std::string_view name) {
    for (auto &[known, resources] : functions)
      if (known == name)
        return &resources;
    functions.emplace_back(std::string(name), KernelResources{});
    return &functions.back().second;
  };
  while (!log.empty()) {
    const size_t newline = log.find('\n');
    const std::string_view line = log.substr(0, newline);
    log = newline == std::string_view::npos ? std::string_view() : log.substr(newline + 1);
    if (line.find("Compiling entry function '") != std::string_view::npos) {
      const std::string_view name = nameAfter(line, "Compiling entry function ");
      if (firstEntry.empty())
        firstEntry = std::string(name);
      current = select(name);
    } else if (line.find("Function properties for ") != std::string_view::npos) {
      current = select(nameAfter(line, "Function properties for "));
    } else if (!current) {
      continue;
    } else if (line.find("bytes stack frame") != std::string_view::npos) {
      current->stackBytes = numberBefore(line, "bytes stack frame");
      current->spillStoreBytes = numberBefore(line, "bytes spill stores");
      current->spillLoadBytes = numberBefore(line, "bytes spill loads");
    } else if (startsWithWord(line, "Used ") || startsWithWord(line, "used ")) {
      if (int registers = numberBefore(line, " registers"); registers >= 0)
        current->registers = registers;
      if (int smem = numberBefore(line, " bytes smem"); smem >= 0)
        current->staticSharedBytes = smem;
      if (line.find(" registers") != std::string_view::npos && current->staticSharedBytes < 0)
        current->staticSharedBytes = 0; // ptxas names smem only when there is some
    }
  }
  for (const auto &[name, resources] : functions)
    if (name == kernel)
      return resources;
  for (const auto &[name, resources] : functions)
    if (name == firstEntry)
      return resources;
  return {};
}

} // namespace mlir::tk
