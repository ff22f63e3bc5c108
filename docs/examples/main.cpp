/// @file main.cpp
/// docs_examples: runs the examples of the documentation and keeps the markdown's quotes of them
/// exact.
///
///   docs_examples                          run every example (kernels on the interpreter)
///   docs_examples NAME...                  run the named examples
///   docs_examples --list                   list the examples
///   docs_examples --check-snippets DOCS    check that the code and IR quoted in DOCS/*.md match
///                                          DOCS/examples/*.cpp and the IR the examples print
///   docs_examples --update-snippets DOCS   rewrite those quotes from the sources
///   (both take further markdown pages after DOCS, e.g. the README, quoting the same sources)
///
/// In the markdown, a fenced block right after `<!-- snippet: FILE#NAME -->` must equal the lines
/// of DOCS/examples/FILE between `// [snippet:NAME]` and `// [/snippet]` (dedented), and one right
/// after `<!-- ir: NAME -->` must equal the IR printed by DOC_IR(NAME), without its locations.
#include "doc_examples.hpp"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::vector<std::string> read_lines(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw std::runtime_error("cannot read " + path.string());
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

std::string trim(const std::string &s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos)
    return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

/// Removes the indentation common to the non-empty lines.
std::vector<std::string> dedent(std::vector<std::string> lines) {
  std::size_t common = std::string::npos;
  for (const auto &l : lines)
    if (!trim(l).empty())
      common = std::min(common, l.find_first_not_of(' '));
  for (auto &l : lines)
    l = trim(l).empty() ? "" : l.substr(common == std::string::npos ? 0 : common);
  return lines;
}

/// The snippets of one source file, by name.
std::map<std::string, std::vector<std::string>> snippets_of(const fs::path &source) {
  std::map<std::string, std::vector<std::string>> out;
  std::vector<std::string> open;
  const auto lines = read_lines(source);
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const std::string t = trim(lines[k]);
    if (t.rfind("// [snippet:", 0) == 0 && t.back() == ']') {
      open.push_back(t.substr(12, t.size() - 13));
      out[open.back()];
    } else if (t == "// [/snippet]") {
      if (open.empty())
        throw std::runtime_error(source.string() + ":" + std::to_string(k + 1) +
                                 ": [/snippet] without [snippet:...]");
      open.pop_back();
    } else {
      for (const auto &name : open)
        out[name].push_back(lines[k]);
    }
  }
  if (!open.empty())
    throw std::runtime_error(source.string() + ": snippet '" + open.back() + "' is not closed");
  for (auto &[name, body] : out)
    body = dedent(body);
  return out;
}

/// `ir` without its ` loc(...)` suffixes.
std::string strip_locations(const std::string &ir) {
  std::string out;
  std::size_t pos = 0;
  while (true) {
    const std::size_t at = ir.find(" loc(", pos);
    if (at == std::string::npos)
      return out + ir.substr(pos);
    out += ir.substr(pos, at - pos);
    std::size_t k = at + 5;
    for (int depth = 1; k < ir.size() && depth > 0; ++k) {
      if (ir[k] == '"') // skip a string (file names may hold parentheses)
        for (++k; k < ir.size() && ir[k] != '"'; ++k)
          k += ir[k] == '\\';
      else if (ir[k] == '(')
        ++depth;
      else if (ir[k] == ')')
        --depth;
    }
    pos = k;
  }
}

std::vector<std::string> split(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

const doc::example *find_example(const std::string &name) {
  for (const auto &e : doc::registry())
    if (e.name == name)
      return &e;
  return nullptr;
}

/// Checks (or rewrites) the quotes in every DOCS/*.md. Returns the number of problems.
int check_snippets(const fs::path &docs, const std::vector<std::string> &extra_pages, bool update) {
  std::map<std::string, std::map<std::string, std::vector<std::string>>> sources;
  int problems = 0;
  std::vector<fs::path> pages;
  for (const auto &entry : fs::directory_iterator(docs))
    if (entry.path().extension() == ".md")
      pages.push_back(entry.path());
  std::sort(pages.begin(), pages.end());
  pages.insert(pages.end(), extra_pages.begin(), extra_pages.end());
  for (const auto &page : pages) {
    auto lines = read_lines(page);
    bool changed = false;
    for (std::size_t k = 0; k < lines.size(); ++k) {
      const std::string t = trim(lines[k]);
      const bool is_snippet = t.rfind("<!-- snippet: ", 0) == 0;
      const bool is_ir = t.rfind("<!-- ir: ", 0) == 0;
      if (!is_snippet && !is_ir)
        continue;
      const std::string where = page.filename().string() + ":" + std::to_string(k + 1);
      const std::string ref =
          trim(t.substr(is_snippet ? 14 : 9, t.size() - (is_snippet ? 14 : 9) - 3));
      std::vector<std::string> want;
      if (is_snippet) {
        const auto hash = ref.find('#');
        if (hash == std::string::npos) {
          std::cerr << where << ": expected <!-- snippet: FILE#NAME -->\n";
          ++problems;
          continue;
        }
        const std::string file = ref.substr(0, hash), name = ref.substr(hash + 1);
        if (!sources.count(file))
          sources[file] = snippets_of(docs / "examples" / file);
        const auto &found = sources[file];
        if (!found.count(name)) {
          std::cerr << where << ": no snippet '" << name << "' in examples/" << file << "\n";
          ++problems;
          continue;
        }
        want = found.at(name);
      } else {
        const doc::example *e = find_example(ref);
        if (!e || !e->ir) {
          std::cerr << where << ": no DOC_IR(\"" << ref << "\")\n";
          ++problems;
          continue;
        }
        want = split(strip_locations(e->ir()));
      }
      // The fenced block that follows the marker.
      const std::size_t open = k + 1;
      if (open >= lines.size() || trim(lines[open]).rfind("```", 0) != 0) {
        std::cerr << where << ": the marker must be followed by a fenced code block\n";
        ++problems;
        continue;
      }
      std::size_t close = open + 1;
      while (close < lines.size() && trim(lines[close]) != "```")
        ++close;
      if (close == lines.size()) {
        std::cerr << where << ": the code block is not closed\n";
        ++problems;
        continue;
      }
      const std::vector<std::string> have(lines.begin() + std::ptrdiff_t(open) + 1,
                                          lines.begin() + std::ptrdiff_t(close));
      if (have == want)
        continue;
      if (update) {
        lines.erase(lines.begin() + std::ptrdiff_t(open) + 1,
                    lines.begin() + std::ptrdiff_t(close));
        lines.insert(lines.begin() + std::ptrdiff_t(open) + 1, want.begin(), want.end());
        changed = true;
        std::cerr << where << ": updated from " << ref << "\n";
        continue;
      }
      std::size_t d = 0;
      while (d < have.size() && d < want.size() && have[d] == want[d])
        ++d;
      std::cerr << where << ": the quote of " << ref << " is out of date at its line " << d + 1
                << "\n  in the page:   " << (d < have.size() ? have[d] : "<end>")
                << "\n  in the source: " << (d < want.size() ? want[d] : "<end>") << "\n";
      ++problems;
    }
    if (changed) {
      std::ofstream out(page, std::ios::binary);
      for (const auto &l : lines)
        out << l << "\n";
    }
  }
  return problems;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  auto &all = doc::registry();
  std::sort(all.begin(), all.end(), [](const auto &a, const auto &b) { return a.name < b.name; });
  try {
    if (!args.empty() && args[0] == "--list") {
      for (const auto &e : all)
        std::cout << e.name << (e.ir ? " (ir)" : "") << "\n";
      return 0;
    }
    if (!args.empty() && (args[0] == "--check-snippets" || args[0] == "--update-snippets")) {
      if (args.size() < 2) {
        std::cerr << "usage: docs_examples " << args[0] << " <docs directory> [page.md...]\n";
        return 2;
      }
      const std::vector<std::string> extra(args.begin() + 2, args.end());
      const int problems = check_snippets(args[1], extra, args[0] == "--update-snippets");
      if (problems) {
        std::cerr << problems << " quote(s) out of date; run docs_examples --update-snippets "
                  << args[1] << " and review the diff\n";
        return 1;
      }
      std::cout << "docs quotes up to date\n";
      return 0;
    }
    int failed = 0, ran = 0;
    for (const auto &e : all) {
      if (!args.empty() && std::find(args.begin(), args.end(), e.name) == args.end())
        continue;
      ++ran;
      try {
        if (e.run)
          e.run();
        if (e.ir)
          (void)e.ir();
        std::cout << "ok    " << e.name << "\n";
      } catch (const std::exception &x) {
        std::cout << "FAIL  " << e.name << ": " << x.what() << "\n";
        ++failed;
      }
    }
    if (ran == 0) {
      std::cerr << "docs_examples: no example matched\n";
      return 2;
    }
    std::cout << ran - failed << "/" << ran << " examples passed\n";
    return failed ? 1 : 0;
  } catch (const std::exception &x) {
    std::cerr << "docs_examples: " << x.what() << "\n";
    return 2;
  }
}
