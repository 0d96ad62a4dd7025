/// @file print.cpp
/// Programs back to text: to_string (one node, normalized, minimal
/// parentheses) and describe (the whole problem, as `ga-run --explain` shows it).

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "expr/names.hpp"
#include "fusedga/expr/parse.hpp"

namespace fusedga::expr {

namespace {

/// Binding strength, as in the grammar (parse.cpp): sums < products < unary minus < powers < atoms.
enum level : int { sum_level = 1, product_level = 2, unary_level = 3, power_level = 4, atom_level = 5 };

level level_of(const node& n) {
  switch (n.kind) {
    case node_kind::add:
    case node_kind::subtract: return sum_level;
    case node_kind::multiply:
    case node_kind::divide: return product_level;
    case node_kind::negate: return unary_level;
    case node_kind::power: return power_level;
    case node_kind::number: return n.name.empty() && std::signbit(n.value) ? unary_level : atom_level;  // "-3" reads like -(3)
    default: return atom_level;
  }
}

/// Prints with the fewest parentheses that parse back to the same tree: a
/// right operand of the same level is parenthesized (a - (b - c), and also
/// a + (b + c), whose rounding differs from a + b + c), and so is a power's
/// base at or below its level ((-x)^2, (a^b)^c). Unary minus needs none as a
/// right operand (x*-y) nor in an exponent (2^-x): the grammar reads a unary
/// there.
class printer {
 public:
  explicit printer(const program& p) : p_(p) {}

  std::string run(int id) {
    print(id);
    return std::move(out_);
  }

 private:
  const node& at(int id) const { return p_.nodes.at(static_cast<std::size_t>(id)); }

  void operand(int id, bool parenthesize) {
    if (parenthesize) out_ += '(';
    print(id);
    if (parenthesize) out_ += ')';
  }

  void binary(const node& n, level own, const char* op) {
    operand(n.a, level_of(at(n.a)) < own);
    out_ += op;
    operand(n.b, level_of(at(n.b)) <= own);
  }

  std::string gene_name(const node& n) const {
    if (!n.name.empty()) return n.name;
    for (const variable& v : p_.variables)
      if (n.slot == v.first_gene) return v.name;
    return fmt::format("gene{}", n.slot);
  }

  void print(int id) {
    const node& n = at(id);
    switch (n.kind) {
      case node_kind::number: out_ += n.name.empty() ? fmt::format("{}", n.value) : n.name; return;
      case node_kind::gene:
        out_ += gene_name(n);
        if (n.a >= 0) {
          out_ += '[';
          print(n.a);
          out_ += ']';
        }
        return;
      case node_kind::lookup:
        out_ += n.name.empty() ? p_.tables.at(static_cast<std::size_t>(n.slot)).name : n.name;
        out_ += '[';
        print(n.a);
        out_ += ']';
        return;
      case node_kind::index_var: out_ += n.name.empty() ? fmt::format("i{}", n.slot) : n.name; return;
      case node_kind::negate:
        out_ += '-';
        operand(n.a, level_of(at(n.a)) < unary_level);
        return;
      case node_kind::add: binary(n, sum_level, " + "); return;
      case node_kind::subtract: binary(n, sum_level, " - "); return;
      case node_kind::multiply: binary(n, product_level, "*"); return;
      case node_kind::divide: binary(n, product_level, "/"); return;
      case node_kind::power:
        operand(n.a, level_of(at(n.a)) <= power_level);
        out_ += '^';
        operand(n.b, level_of(at(n.b)) < unary_level);
        return;
      case node_kind::call:
        out_ += parsing::name_of(n.fn);
        out_ += '(';
        print(n.a);
        if (n.b >= 0) {
          out_ += ", ";
          print(n.b);
        }
        out_ += ')';
        return;
      case node_kind::reduce:
        out_ += parsing::name_of(n.red);
        out_ += '(';
        out_ += n.name.empty() ? fmt::format("i{}", n.slot) : n.name;
        out_ += '=';
        print(n.a);
        out_ += ':';
        print(n.b);
        out_ += ", ";
        print(n.c);
        out_ += ')';
        return;
    }
  }

  const program& p_;
  std::string out_;
};

/// "[1, 25]".
std::string interval(double lower, double upper) { return fmt::format("[{}, {}]", lower, upper); }

/// "x in [1, 25]", "v[0..4] in [0, 1]", or per-element bounds (the first few).
std::string describe_bounds(const variable& v) {
  if (!v.vector) return v.name + " in " + interval(v.lower.at(0), v.upper.at(0));
  const std::string name = v.size == 1 ? v.name + "[0]" : fmt::format("{}[0..{}]", v.name, v.size - 1);
  const bool uniform = std::all_of(v.lower.begin(), v.lower.end(), [&](double l) { return l == v.lower[0]; }) &&
                       std::all_of(v.upper.begin(), v.upper.end(), [&](double u) { return u == v.upper[0]; });
  if (uniform) return name + " in " + interval(v.lower.at(0), v.upper.at(0));
  constexpr int shown = 3;
  std::string out = name + " in ";
  for (int k = 0; k < v.size && k < shown; ++k)
    out += (k ? ", " : "") + interval(v.lower.at(static_cast<std::size_t>(k)), v.upper.at(static_cast<std::size_t>(k)));
  return out + (v.size > shown ? ", ... (per element)" : " (per element)");
}

/// describe_bounds, then " (integer)" for an integer variable, or its integer elements: " (integer: 4, 5)".
std::string describe(const variable& v) {
  std::vector<int> marked;
  for (int k = 0; k < v.size; ++k)
    if (v.is_integer(k)) marked.push_back(k);
  if (marked.empty()) return describe_bounds(v);
  if (static_cast<int>(marked.size()) == v.size) return describe_bounds(v) + " (integer)";
  return describe_bounds(v) + fmt::format(" (integer: {})", fmt::join(marked, ", "));
}

/// The constraint text on one line (a YAML multi-line scalar keeps its newlines).
std::string one_line(std::string text) {
  std::replace_if(text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r' || c == '\t'; }, ' ');
  return text;
}

}  // namespace

std::string to_string(const program& p, int node) { return printer(p).run(node); }

std::string describe(const program& p, double equality_tolerance) {
  std::string out = fmt::format("variables ({} gene{}): ", p.dimension(), p.dimension() == 1 ? "" : "s");
  for (std::size_t k = 0; k < p.variables.size(); ++k) out += (k ? "; " : "") + describe(p.variables[k]);
  out += '\n';
  if (!p.tables.empty()) {
    constexpr std::size_t shown = 6;
    out += "tables: ";
    for (std::size_t k = 0; k < p.tables.size(); ++k) {
      const std::vector<double>& v = p.tables[k].values;
      const std::vector<double> head(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(std::min(v.size(), shown)));
      out += fmt::format("{}{} = [{}{}] ({} entr{})", k ? "; " : "", p.tables[k].name, fmt::join(head, ", "),
                         v.size() > shown ? ", ..." : "", v.size(), v.size() == 1 ? "y" : "ies");
    }
    out += '\n';
  }
  out += fmt::format("objective ({}): {}\n", fusedga::to_string(p.sense), p.objective >= 0 ? to_string(p, p.objective) : "none");

  std::vector<std::string> formulas;
  int g = 0, h = 0;
  for (const constraint& c : p.constraints) {
    const bool equality = c.kind == constraint_kind::equality;
    // `lhs <= 0` normalizes to lhs - 0; show it as written (the value is the same).
    const node& root = p.nodes.at(static_cast<std::size_t>(c.root));
    const bool minus_zero = root.kind == node_kind::subtract && p.nodes.at(static_cast<std::size_t>(root.b)).kind == node_kind::number &&
                            p.nodes.at(static_cast<std::size_t>(root.b)).value == 0 && p.nodes.at(static_cast<std::size_t>(root.b)).name.empty();
    const std::string shown = to_string(p, minus_zero ? root.a : c.root);
    const std::string eps = equality_tolerance >= 0 ? fmt::format("{:g}", equality_tolerance) : std::string("eps");
    formulas.push_back(equality ? fmt::format("h{}(x) = {} == 0 (|h| <= {})", ++h, shown, eps) : fmt::format("g{}(x) = {} <= 0", ++g, shown));
  }
  // Align the "# from" comments, unless one formula is very long.
  std::size_t width = 0;
  for (const std::string& f : formulas) width = std::max(width, std::min<std::size_t>(f.size(), 60));
  for (std::size_t k = 0; k < formulas.size(); ++k) {
    const std::size_t size = formulas[k].size();
    out += formulas[k] + std::string(size < width ? width - size : 0, ' ');
    out += "  # from \"" + one_line(p.constraints[k].text) + "\"\n";
  }
  if (p.constraints.empty()) out += "no constraints\n";
  return out;
}

}  // namespace fusedga::expr
