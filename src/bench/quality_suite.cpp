#include "bench/quality_suite.hpp"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "fusedga/core/error.hpp"

namespace fusedga {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string& file, const YAML::Node& at, const std::string& key, const std::string& what) {
  const YAML::Mark m = at.Mark();
  if (m.is_null()) throw config_error(fmt::format("{}: {}: {}", file, key, what));
  throw config_error(fmt::format("{}:{}:{}: {}: {}", file, m.line + 1, m.column + 1, key, what));
}

YAML::Node load(const std::string& path) {
  try {
    return YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw config_error(path + ": cannot read the file");
  } catch (const YAML::Exception& e) {
    throw config_error(fmt::format("{}:{}:{}: {}", path, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
}

void check_keys(const std::string& file, const YAML::Node& map, const std::string& where,
                const std::set<std::string>& allowed) {
  for (const auto& kv : map) {
    const std::string key = kv.first.as<std::string>();
    if (!allowed.count(key)) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail(file, kv.first, where.empty() ? key : where + "." + key, "unknown key; expected one of: " + list);
    }
  }
}

double read_number(const std::string& file, const YAML::Node& n, const std::string& key) {
  if (!n.IsScalar()) fail(file, n, key, "expected a number");
  try {
    const double v = n.as<double>();
    if (std::isfinite(v)) return v;
  } catch (const YAML::Exception&) {
  }
  fail(file, n, key, "expected a finite number, got '" + n.Scalar() + "'");
}

std::string read_text(const std::string& file, const YAML::Node& n, const std::string& key) {
  if (!n.IsScalar()) fail(file, n, key, "expected a string");
  return n.Scalar();
}

/// `path` relative to the folder of `file`, unless absolute.
std::string beside(const std::string& file, const std::string& path) {
  const fs::path p(path);
  return p.is_absolute() ? p.string() : (fs::path(file).parent_path() / p).lexically_normal().string();
}

/// A YAML scalar or flow value back to text for `--set key=value`.
std::string value_text(const YAML::Node& n) {
  if (n.IsScalar()) return n.Scalar();
  YAML::Emitter out;
  out << YAML::Flow << n;
  return out.c_str();
}

}  // namespace

std::vector<quality_method> load_quality_methods(const std::string& path) {
  const YAML::Node root = load(path);
  if (!root.IsMap()) fail(path, root, "methods", "expected a map with the key 'methods'");
  check_keys(path, root, "", {"methods"});
  const YAML::Node methods = root["methods"];
  if (!methods || !methods.IsMap() || methods.size() == 0)
    fail(path, methods ? methods : root, "methods", "expected a map NAME: {key.path: value, ...} with one method at least");
  std::vector<quality_method> out;
  for (const auto& kv : methods) {
    quality_method m;
    m.name = kv.first.as<std::string>();
    const std::string where = "methods." + m.name;
    YAML::Node sets = kv.second;
    if (sets.IsNull()) sets = YAML::Node(YAML::NodeType::Map);
    if (!sets.IsMap()) fail(path, kv.second, where, "expected a map {key.path: value, ...}");
    if (sets["set"] || sets["description"]) {
      check_keys(path, sets, where, {"set", "description"});
      if (sets["description"]) m.description = read_text(path, sets["description"], where + ".description");
      sets = sets["set"] ? sets["set"] : YAML::Node(YAML::NodeType::Map);
      if (!sets.IsMap()) fail(path, sets, where + ".set", "expected a map {key.path: value, ...}");
    }
    for (const auto& s : sets) {
      const std::string key = s.first.as<std::string>();
      if (key.rfind("ga.", 0) != 0 && key.rfind("stop.", 0) != 0)
        fail(path, s.first, where + "." + key, "a method sets ga.* or stop.* keys only");
      m.overrides.push_back(key + "=" + value_text(s.second));
    }
    if (m.description.empty()) {
      for (const auto& o : m.overrides) m.description += (m.description.empty() ? "" : ", ") + o;
      if (m.description.empty()) m.description = "the problem config as it is (ga-run's defaults)";
    }
    for (const auto& other : out)
      if (other.name == m.name) fail(path, kv.first, where, "a method of this name is already defined");
    out.push_back(std::move(m));
  }
  return out;
}

quality_suite load_quality_suite(const std::string& path) {
  const YAML::Node root = load(path);
  if (!root.IsMap()) fail(path, root, "problems", "expected a map with the keys methods, problems");
  check_keys(path, root, "", {"tolerance", "methods", "problems"});
  quality_suite s;
  s.path = path;
  if (root["tolerance"]) {
    s.tolerance = read_number(path, root["tolerance"], "tolerance");
    if (!(s.tolerance > 0)) fail(path, root["tolerance"], "tolerance", "expected a number > 0");
  }
  if (!root["methods"]) fail(path, root, "methods", "missing: the methods file (e.g. methods.yaml)");
  s.methods = load_quality_methods(beside(path, read_text(path, root["methods"], "methods")));
  const YAML::Node problems = root["problems"];
  if (!problems || !problems.IsSequence() || problems.size() == 0)
    fail(path, problems ? problems : root, "problems", "expected a list of problems");
  for (std::size_t k = 0; k < problems.size(); ++k) {
    const YAML::Node p = problems[k];
    const std::string where = fmt::format("problems[{}]", k);
    if (!p.IsMap()) fail(path, p, where, "expected a map {config, best_known, source[, best_x]}");
    check_keys(path, p, where, {"config", "best_known", "source", "best_x"});
    for (const char* required : {"config", "best_known", "source"})
      if (!p[required]) fail(path, p, where + "." + required, "missing");
    quality_problem q;
    q.config = beside(path, read_text(path, p["config"], where + ".config"));
    q.id = fs::path(q.config).stem().string();
    q.best_known = read_number(path, p["best_known"], where + ".best_known");
    q.source = read_text(path, p["source"], where + ".source");
    if (const YAML::Node x = p["best_x"]) {
      if (!x.IsSequence() || x.size() == 0) fail(path, x, where + ".best_x", "expected a list of numbers");
      for (std::size_t j = 0; j < x.size(); ++j) q.best_x.push_back(read_number(path, x[j], fmt::format("{}.best_x[{}]", where, j)));
    }
    for (const auto& other : s.problems)
      if (other.id == q.id) fail(path, p["config"], where + ".config", "this problem is already in the suite");
    s.problems.push_back(std::move(q));
  }
  return s;
}

}  // namespace fusedga
