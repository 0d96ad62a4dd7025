#include "expr/check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>

#include "expr/diagnostics.hpp"
#include "expr/names.hpp"
#include "fusedga/core/bounds.hpp"

namespace fusedga::expr::parsing {

namespace {

/// Checks that `name` can be declared as `what` ("variable", "constant").
void check_new_name(const std::string& name, const char* what, const symbol_table& table, const origin& from, location at) {
  if (!is_identifier(name))
    fail(from, at, fmt::format("invalid {} name {}; names match [A-Za-z_][A-Za-z0-9_]*", what, quoted(name)));
  if (const char* reserved = reserved_as(name))
    fail(from, at, fmt::format("'{}' is reserved ({}) and cannot name a {}", name, reserved, what));
  if (const symbol* s = table.find(name))
    fail(from, at, fmt::format("duplicate name '{}': already declared as a {}", name, s->is_variable ? "variable" : "constant"));
}

}  // namespace

symbol_table check_declarations(const problem_source& source, program& out) {
  symbol_table table;
  if (source.variables.empty())
    fail({source.file, "problem.variables"}, location{}, "expected at least one variable");
  std::int64_t genes = 0;
  for (const variable_decl& d : source.variables) {
    const origin from{source.file, d.key_path, false};
    check_new_name(d.name, "variable", table, from, d.where);
    if (d.size < 1) fail(from, d.where, fmt::format("variable '{}' has size {}; expected at least 1", d.name, d.size));
    if (!d.vector && d.size != 1)
      fail(from, d.where, fmt::format("scalar variable '{}' has size {}; declare a vector with size:", d.name, d.size));
    const auto n = static_cast<std::size_t>(d.size);
    if (d.lower.size() != n || d.upper.size() != n)
      fail(from, d.where,
           fmt::format("variable '{}' has {} lower and {} upper bounds; expected {} of each (one per element)", d.name,
                       d.lower.size(), d.upper.size(), n));
    if (!d.integer.empty() && d.integer.size() != n)
      fail(from, d.where,
           fmt::format("variable '{}' has {} integer marks; expected none or {} (one per element)", d.name,
                       d.integer.size(), n));
    for (std::size_t k = 0; k < n; ++k) {
      const std::string element = d.vector ? fmt::format("{}[{}]", d.name, k) : d.name;
      if (!std::isfinite(d.lower[k]) || !std::isfinite(d.upper[k]))
        fail(from, d.where, fmt::format("bounds of '{}' must be finite, got [{}, {}]", element, d.lower[k], d.upper[k]));
      if (!std::isfinite(d.upper[k] - d.lower[k]))
        fail(from, d.where,
             fmt::format("bounds of '{}' are [{}, {}], whose width upper - lower overflows to infinity; expected a "
                         "narrower range (initial genes are lower + u*(upper - lower))",
                         element, d.lower[k], d.upper[k]));
      if (d.lower[k] > d.upper[k])
        fail(from, d.where,
             fmt::format("bounds of '{}' have lower {} > upper {}; expected lower <= upper", element, d.lower[k], d.upper[k]));
      if (d.is_integer(k) && std::ceil(d.lower[k]) > std::floor(d.upper[k]))
        fail(from, d.where,
             fmt::format("integer variable '{}' has bounds [{}, {}], which hold no integer; expected bounds around at "
                         "least one integer",
                         element, d.lower[k], d.upper[k]));
      if (d.is_integer(k) && std::max(std::fabs(d.lower[k]), std::fabs(d.upper[k])) > integer_variable_limit<double>())
        fail(from, d.where,
             fmt::format("integer variable '{}' has bounds [{}, {}]; expected bounds within +-2^51, where rounding "
                         "half up is exact",
                         element, d.lower[k], d.upper[k]));
      if (d.is_integer(k) && std::floor(d.upper[k]) - std::ceil(d.lower[k]) >= integer_span_limit)
        fail(from, d.where,
             fmt::format("integer variable '{}' has bounds [{}, {}]: 2^32 or more integers; expected fewer", element,
                         d.lower[k], d.upper[k]));
    }
    if (genes + d.size > INT_MAX) fail(from, d.where, "too many genes: more than 2^31-1 in all");
    variable v;
    v.name = d.name;
    v.first_gene = static_cast<int>(genes);
    v.size = d.size;
    v.vector = d.vector;
    if (std::any_of(d.integer.begin(), d.integer.end(), [](std::uint8_t m) { return m != 0; }))  // else none
      for (std::size_t k = 0; k < n; ++k) v.integer.push_back(d.is_integer(k) ? 1 : 0);
    v.lower = d.lower;
    v.upper = d.upper;
    for (std::size_t k = 0; k < n; ++k)
      if (d.is_integer(k)) {  // the integers in the declared bounds: [6.51, 76.49] is 7 .. 76
        v.lower[k] = std::ceil(v.lower[k]) + 0.0;  // + 0.0: ceil(-0.51) is -0, printed "-0" by --explain
        v.upper[k] = std::floor(v.upper[k]);
      }
    v.where = d.where;
    genes += d.size;
    table.by_name.emplace(d.name, symbol{true, static_cast<int>(out.variables.size()), 0});
    table.names.push_back(d.name);
    out.variables.push_back(std::move(v));
  }
  for (const constant_decl& c : source.constants) {
    const origin from{source.file, c.key_path, false};
    check_new_name(c.name, "constant", table, from, c.where);
    symbol s{false, -1, c.value};
    if (c.table) {
      const std::vector<double>& values = *c.table;
      if (const std::string e = table_size_error(c.name, values.size()); !e.empty()) fail(from, c.where, e);
      for (std::size_t k = 0; k < values.size(); ++k)
        if (!std::isfinite(values[k]))
          fail(from, c.where, fmt::format("entry {} of table constant '{}' must be finite, got {}", k, c.name, values[k]));
      s.table = static_cast<int>(out.tables.size());
      out.tables.push_back({c.name, values, c.where});
    } else if (!std::isfinite(c.value)) {
      fail(from, c.where, fmt::format("constant '{}' must be finite, got {}", c.name, c.value));
    }
    table.by_name.emplace(c.name, s);
    table.names.push_back(c.name);
  }
  return table;
}

namespace {

/// Far beyond integer_limit, yet its square is finite: saturating here keeps
/// interval products finite (no inf * 0 = NaN) for any chain of operations.
constexpr double saturation = 1e150;

double saturate(double v) { return std::clamp(v, -saturation, saturation); }

}  // namespace

std::optional<int_range> integer_range(const node& n, const std::optional<int_range>& a, const std::optional<int_range>& b) {
  switch (n.kind) {
    case node_kind::number:
      if (std::floor(n.value) != n.value) return std::nullopt;
      return int_range{saturate(n.value), saturate(n.value)};
    case node_kind::negate:
      if (!a) return std::nullopt;
      return int_range{-a->hi, -a->lo};
    case node_kind::add:
      if (!a || !b) return std::nullopt;
      return int_range{saturate(a->lo + b->lo), saturate(a->hi + b->hi)};
    case node_kind::subtract:
      if (!a || !b) return std::nullopt;
      return int_range{saturate(a->lo - b->hi), saturate(a->hi - b->lo)};
    case node_kind::multiply: {
      if (!a || !b) return std::nullopt;
      const double c[] = {a->lo * b->lo, a->lo * b->hi, a->hi * b->lo, a->hi * b->hi};
      return int_range{saturate(*std::min_element(std::begin(c), std::end(c))), saturate(*std::max_element(std::begin(c), std::end(c)))};
    }
    default: return std::nullopt;  // index_var: the caller knows its range; the rest are not integer expressions
  }
}

std::pair<int, std::string> why_not_integer(const program& p, const std::vector<std::optional<int_range>>& ranges, int id) {
  // Walk down to the first operand that is not an integer expression; only + - * and unary minus pass through.
  for (;;) {
    const node& n = p.nodes[static_cast<std::size_t>(id)];
    const auto integer = [&](int child) { return child >= 0 && ranges[static_cast<std::size_t>(child)].has_value(); };
    switch (n.kind) {
      case node_kind::number:
        if (!n.name.empty()) return {id, fmt::format("constant '{}' = {} is not an integer", n.name, n.value)};
        return {id, fmt::format("{} is not an integer", n.value)};
      case node_kind::gene: return {id, fmt::format("'{}' is a variable, not an integer", n.name)};
      case node_kind::negate:
      case node_kind::add:
      case node_kind::subtract:
      case node_kind::multiply:
        if (!integer(n.a)) {
          id = n.a;
          continue;
        }
        if (n.b >= 0 && !integer(n.b)) {
          id = n.b;
          continue;
        }
        return {id, "not an integer expression"};  // unreachable: integer operands make an integer
      case node_kind::divide: return {id, "'/' is not allowed in an integer expression"};
      case node_kind::power: return {id, "a power is not allowed in an integer expression"};
      case node_kind::call: return {id, fmt::format("'{}(...)' is not allowed in an integer expression", n.name)};
      case node_kind::reduce: return {id, fmt::format("a reduction '{}(...)' is not allowed in an integer expression", name_of(n.red))};
      case node_kind::lookup: return {id, fmt::format("a table lookup '{}[...]' is not allowed in an integer expression", n.name)};
      case node_kind::index_var: return {id, "not an integer expression"};  // unreachable: index variables are integers
    }
    return {id, "not an integer expression"};
  }
}

}  // namespace fusedga::expr::parsing
