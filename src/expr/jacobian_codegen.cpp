// The Jacobian tape as C++ (host) or CUDA C++ (device) source (jacobian_evaluator.hpp).
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "expr/decimal_text.hpp"
#include "expr/table_source.hpp"
#include "expr/tape_ops.hpp"
#include "fusedga/core/error.hpp"
#include "fusedga/expr/jacobian_evaluator.hpp"

namespace fusedga::expr {
namespace {

std::string literal(double v, bool host) {
  if (std::isnan(v)) return host ? "R(__builtin_nan(\"\"))" : "R(__longlong_as_double(0x7ff8000000000000ULL))";
  if (std::isinf(v)) {
    const std::string inf = host ? "R(__builtin_inf())" : "R(__longlong_as_double(0x7ff0000000000000ULL))";
    return v < 0 ? "(-" + inf + ")" : inf;
  }
  return "R(" + detail::decimal17(v) + ")";
}

std::string t(int id) { return "t" + std::to_string(id); }

/// The tables that live lookups read, as arrays of R, and fusedga_lookup: jit_lookup (jit_elements.hpp)
/// written out, since this source includes no FusedGA header.
std::string tables_source(const jacobian_tape& tape, const std::vector<bool>& live, bool host) {
  std::set<int> used;
  for (std::size_t i = 0; i < tape.entries.size(); ++i)
    if (live[i] && tape.entries[i].op == tape_op::lookup) used.insert(static_cast<int>(tape.entries[i].value));
  if (used.empty()) return "";
  const std::string space = host ? "" : "__device__ ";
  std::string out;
  for (const int q : used)
    out += detail::table_array(space + "const", q, tape.tables.at(static_cast<std::size_t>(q)),
                               [host](double v) { return literal(v, host); });
  out += space + "inline R fusedga_lookup(const R* table, int n, R e) {\n";
  out += "  const R k = " + std::string(host ? "std::" : "") + "floor(e + R(0.5));\n";
  out += "  return k >= R(0) && k < R(n) ? table[static_cast<int>(k)] : " + literal(NAN, host) + ";\n}\n";
  return out;
}

/// The right-hand side of entry `e` (same operations, same order as detail::apply_tape).
std::string expression(const tape_entry& e, bool host, const jacobian_tape& tape) {
  const std::string lib = host ? "std::" : "";
  const auto call = [&](const char* fn) { return lib + fn + "(" + t(e.a) + ")"; };
  switch (e.op) {
    case tape_op::constant: return literal(e.value, host);
    case tape_op::gene: return "x[" + std::to_string(e.a) + "]";
    case tape_op::neg: return "-" + t(e.a);
    case tape_op::add: return t(e.a) + " + " + t(e.b);
    case tape_op::sub: return t(e.a) + " - " + t(e.b);
    case tape_op::mul: return t(e.a) + " * " + t(e.b);
    case tape_op::div: return t(e.a) + " / " + t(e.b);
    case tape_op::powi: {
      const int n = static_cast<int>(e.value);
      const int m = n < 0 ? -n : n;
      if (m == 0) return "R(1)";
      std::string r = t(e.a);
      for (int k = 1; k < m; ++k) r = "(" + r + ") * " + t(e.a);
      return n < 0 ? "R(1) / (" + r + ")" : r;
    }
    case tape_op::pow: return lib + "pow(" + t(e.a) + ", " + t(e.b) + ")";
    case tape_op::sqrt: return call("sqrt");
    case tape_op::sin: return call("sin");
    case tape_op::cos: return call("cos");
    case tape_op::tan: return call("tan");
    case tape_op::asin: return call("asin");
    case tape_op::acos: return call("acos");
    case tape_op::atan: return call("atan");
    case tape_op::exp: return call("exp");
    case tape_op::log: return call("log");
    case tape_op::log10: return call("log10");
    case tape_op::abs: return host ? call("abs") : "fabs(" + t(e.a) + ")";
    case tape_op::floor: return call("floor");
    case tape_op::ceil: return call("ceil");
    case tape_op::sign:
      return "(" + t(e.a) + " > R(0) ? R(1) : (" + t(e.a) + " < R(0) ? R(-1) : " + t(e.a) + " * R(0)))";
    case tape_op::min: return "((" + t(e.a) + " < " + t(e.b) + " || " + t(e.a) + " != " + t(e.a) + ") ? " + t(e.a) + " : " + t(e.b) + ")";
    case tape_op::max: return "((" + t(e.a) + " > " + t(e.b) + " || " + t(e.a) + " != " + t(e.a) + ") ? " + t(e.a) + " : " + t(e.b) + ")";
    case tape_op::atan2: return lib + "atan2(" + t(e.a) + ", " + t(e.b) + ")";
    case tape_op::select_min:
      return "((" + t(e.a) + " < " + t(e.b) + " || " + t(e.a) + " != " + t(e.a) + ") ? " + t(e.c) + " : " + t(e.e) + ")";
    case tape_op::select_max:
      return "((" + t(e.a) + " > " + t(e.b) + " || " + t(e.a) + " != " + t(e.a) + ") ? " + t(e.c) + " : " + t(e.e) + ")";
    case tape_op::lookup: {
      const auto q = static_cast<std::size_t>(e.value);
      return "fusedga_lookup(" + detail::table_name(static_cast<int>(q)) + ", " +
             std::to_string(tape.tables.at(q).size()) + ", " + t(e.a) + ")";
    }
  }
  throw error("Jacobian codegen: unknown tape operation");
}

}  // namespace

std::string generate_jacobian_source(const jacobian_tape& tape, const std::string& real_type,
                                     const std::string& dialect, const std::string& name) {
  if (real_type != "float" && real_type != "double")
    throw error("Jacobian codegen: real type must be float or double, got " + real_type);
  if (dialect != "host" && dialect != "device")
    throw error("Jacobian codegen: dialect must be host or device, got " + dialect);
  const bool host = dialect == "host";
  std::string out;
  out += "// Generated by FusedGA: constraint values and Jacobian of an expression problem (derivative.hpp).\n";
  if (host) out += "#include <cmath>\n";
  const std::vector<bool> live = tape.live();
  out += "namespace {\nusing R = " + real_type + ";\n" + tables_source(tape, live, host) + "}\n";
  out += std::string("extern \"C\" ") + (host ? "" : "__device__ ") + "void " + name +
         "(const R* __restrict__ x, R* __restrict__ c, R* __restrict__ J) {\n";
  for (std::size_t i = 0; i < tape.entries.size(); ++i)
    if (live[i]) out += "  const R " + t(static_cast<int>(i)) + " = " + expression(tape.entries[i], host, tape) + ";\n";
  for (std::size_t k = 0; k < tape.constraint.size(); ++k)
    out += "  c[" + std::to_string(k) + "] = " + t(tape.constraint[k]) + ";\n";
  for (std::size_t k = 0; k < tape.jacobian.size(); ++k)
    out += "  J[" + std::to_string(k) + "] = " + (tape.jacobian[k] >= 0 ? t(tape.jacobian[k]) : std::string("R(0)")) + ";\n";
  out += "}\n";
  return out;
}

}  // namespace fusedga::expr
