// Code generation for the CPU JIT: one problem type per expression program,
// written as straight-line C++ (one `const R tN = ...;` per operation, loops
// for reductions) so that GCC vectorizes the batch loop of jit_abi.hpp across
// individuals exactly as it does for the hand-written built-ins.
//
// The element semantics are those of interp_ops.hpp (the interpreter's), so
// the two paths agree to the ulps of libm/libmvec.
#include "fusedga/expr/codegen.hpp"

#include <cmath>
#include <cstdio>
#include <set>
#include <string>

#include "expr/interp_ops.hpp"
#include "fusedga/core/error.hpp"

namespace fusedga::expr {
namespace {

/// A literal in C++: %.17g round-trips every double; non-finite values (a
/// folded constant such as 1e308 * 10) become numeric_limits expressions.
std::string literal(double v, const std::string& type) {
  if (std::isnan(v)) return "std::numeric_limits<" + type + ">::quiet_NaN()";
  if (std::isinf(v)) return std::string(v < 0 ? "-" : "") + "std::numeric_limits<" + type + ">::infinity()";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return type + "(" + buf + ")";
}

const char* function_name(function fn) {
  switch (fn) {
    case function::sin: return "std::sin";
    case function::cos: return "std::cos";
    case function::tan: return "std::tan";
    case function::asin: return "std::asin";
    case function::acos: return "std::acos";
    case function::atan: return "std::atan";
    case function::exp: return "std::exp";
    case function::log: return "std::log";
    case function::log10: return "std::log10";
    case function::sqrt: return "std::sqrt";
    case function::abs: return "std::abs";
    case function::floor: return "std::floor";
    case function::ceil: return "std::ceil";
    case function::min: return "::fusedga::expr::jit_min";
    case function::max: return "::fusedga::expr::jit_max";
    case function::atan2: break;
  }
  return "std::atan2";
}

const char* operator_text(node_kind k) {
  switch (k) {
    case node_kind::add: return " + ";
    case node_kind::subtract: return " - ";
    case node_kind::multiply: return " * ";
    default: return " / ";
  }
}

/// Writes the statements of one function body. Values are named `tN`; genes
/// are read through `x[j]`; reduction index variables are `i<depth>`.
class body_writer {
 public:
  explicit body_writer(const program& p) : p_(p) {}

  /// Emits the statements computing node `i` in `type` ("R", or "double" for
  /// integer index expressions) and returns the C++ expression of its value.
  std::string value(int i, const std::string& type) {
    const node& n = p_.nodes.at(static_cast<std::size_t>(i));
    switch (n.kind) {
      case node_kind::number: return literal(n.value, type);
      case node_kind::index_var: return type + "(i" + std::to_string(n.slot) + ")";
      case node_kind::gene: return gene(n);
      case node_kind::negate: return define(type, "-" + value(n.a, type));
      case node_kind::add:
      case node_kind::subtract:
      case node_kind::multiply:
      case node_kind::divide: {
        const std::string a = value(n.a, type);
        const std::string b = value(n.b, type);
        return define(type, a + operator_text(n.kind) + b);
      }
      case node_kind::power: return power(n, type);
      case node_kind::call: {
        const std::string a = value(n.a, type);
        if (!interp::is_binary(n.fn)) return define(type, std::string(function_name(n.fn)) + "(" + a + ")");
        const std::string b = value(n.b, type);
        return define(type, std::string(function_name(n.fn)) + "(" + a + ", " + b + ")");
      }
      case node_kind::reduce: break;
    }
    return reduce(n, type);
  }

  void line(const std::string& text) { out_ += std::string(indent_, ' ') + text + "\n"; }
  const std::string& text() const { return out_; }
  /// Scalar genes read by the statements so far (loaded once at the top of the function).
  const std::set<int>& scalar_genes() const { return scalars_; }

 private:
  std::string define(const std::string& type, const std::string& expr) {
    const std::string name = "t" + std::to_string(next_++);
    line("const " + type + " " + name + " = " + expr + ";");
    return name;
  }

  std::string gene(const node& n) {
    if (n.a < 0) {  // a scalar variable: a named load at the top of the function
      scalars_.insert(n.slot);
      return "g" + std::to_string(n.slot);
    }
    const node& index = p_.nodes.at(static_cast<std::size_t>(n.a));
    if (index.kind == node_kind::number) return "x[" + std::to_string(n.slot + static_cast<int>(index.value)) + "]";
    // The checker proved the index in range; the clamp keeps the code memory-safe regardless.
    const std::string k = value(n.a, "double");
    return "x[" + std::to_string(n.slot) + " + ::fusedga::expr::jit_index(" + k + ", 0, " + std::to_string(n.size - 1) +
           ")]";
  }

  std::string power(const node& n, const std::string& type) {
    const std::string a = value(n.a, type);
    int k = 0;
    switch (interp::classify_power(p_, n.b, k)) {
      case interp::power_rule::integer: {
        if (k == 0) return literal(1, type);
        std::string r = a;
        for (int m = 1; m < std::abs(k); ++m) r = define(type, r + " * " + a);  // ((a·a)·a)··· like the interpreter
        return k < 0 ? define(type, type + "(1) / " + r) : r;
      }
      case interp::power_rule::square_root: return define(type, "std::sqrt(" + a + ")");
      case interp::power_rule::general: break;
    }
    const std::string b = value(n.b, type);
    return define(type, "std::pow(" + a + ", " + b + ")");
  }

  std::string reduce(const node& n, const std::string& type) {
    static constexpr int limit = 1 << 24;  // the checker keeps integer expressions within ±2^24
    const std::string bound = ", " + std::to_string(-limit) + ", " + std::to_string(limit) + ")";
    const std::string lo = define("int", "::fusedga::expr::jit_index(" + value(n.a, "double") + bound);
    const std::string hi = define("int", "::fusedga::expr::jit_index(" + value(n.b, "double") + bound);
    const std::string acc = "t" + std::to_string(next_++);
    const char* start = n.red == reduction::sum ? "(0)" : n.red == reduction::prod ? "(1)" : nullptr;
    const std::string infinity = "std::numeric_limits<" + type + ">::infinity()";
    line(type + " " + acc + " = " +
         (start ? type + start : n.red == reduction::min ? infinity : "-" + infinity) + ";");
    const std::string i = "i" + std::to_string(n.slot);
    line("for (int " + i + " = " + lo + "; " + i + " <= " + hi + "; ++" + i + ") {");
    indent_ += 2;
    const std::string v = value(n.c, type);
    switch (n.red) {
      case reduction::sum: line(acc + " = " + acc + " + " + v + ";"); break;
      case reduction::prod: line(acc + " = " + acc + " * " + v + ";"); break;
      case reduction::min: line(acc + " = ::fusedga::expr::jit_min(" + acc + ", " + v + ");"); break;
      case reduction::max: line(acc + " = ::fusedga::expr::jit_max(" + acc + ", " + v + ");"); break;
    }
    indent_ -= 2;
    line("}");
    return acc;
  }

  const program& p_;
  std::string out_;
  std::set<int> scalars_;
  int next_ = 0;
  int indent_ = 4;
};

/// The body of a member function: scalar gene loads, then `statements`, then `tail`.
std::string function_body(const body_writer& w, const std::string& tail) {
  std::string out;
  for (const int slot : w.scalar_genes())
    out += "    const R g" + std::to_string(slot) + " = x[" + std::to_string(slot) + "];\n";
  return out + w.text() + tail;
}

/// inequalities() or equalities(): every constraint of `kind`, in declaration order, into sink `g`.
std::string constraint_function(const program& p, constraint_kind kind, const char* name) {
  body_writer w(p);
  int j = 0;
  for (const constraint& c : p.constraints) {
    if (c.kind != kind) continue;
    const std::string v = w.value(c.root, "R");
    w.line("g[" + std::to_string(j++) + "] = " + v + ";");
  }
  return "  template <class X, class G>\n  FUSEDGA_INLINE void " + std::string(name) +
         "(const X& x, G& g) const {\n" + function_body(w, "") + "  }\n";
}

/// bounds(): run-length encoded, so a 1000-gene vector with one box is one call.
std::string bounds_function(const program& p) {
  std::string out = "  ::fusedga::Bounds<R> bounds() const {\n    ::fusedga::Bounds<R> b;\n";
  for (const variable& v : p.variables) {
    for (std::size_t k = 0; k < v.lower.size();) {
      std::size_t run = 1;
      while (k + run < v.lower.size() && v.lower[k + run] == v.lower[k] && v.upper[k + run] == v.upper[k]) ++run;
      out += "    ::fusedga::expr::jit_append_bounds(b, " + std::to_string(run) + ", " + literal(v.lower[k], "R") + ", " +
             literal(v.upper[k], "R") + ");\n";
      k += run;
    }
  }
  return out + "    return b;\n  }\n";
}

}  // namespace

std::string generate_source(const program& p, const std::string& real_type) {
  if (real_type != "float" && real_type != "double")
    throw error("generate_source: real type must be \"float\" or \"double\", not \"" + real_type + "\"");
  if (p.objective < 0 || p.dimension() <= 0) throw error("generate_source: the program has no objective or no genes");

  std::string out;
  out += "// generated C++ (" + real_type + "): a FusedGA expression problem, compiled by the CPU JIT.\n";
  out += "// Genes x[0.." + std::to_string(p.dimension() - 1) + "]; g<j> is scalar gene j; t<n> are intermediate values.\n";
  out += "#include <limits>\n\n#include \"fusedga/expr/jit_abi.hpp\"\n\nnamespace {\n\nusing R = " + real_type + ";\n\n";
  out += "struct fusedga_jit_problem {\n";
  out += "  using gene_type = R;\n  using fitness_type = R;\n";
  out += std::string("  static constexpr ::fusedga::Sense sense = ::fusedga::Sense::") +
         (p.sense == Sense::maximize ? "maximize" : "minimize") + ";\n\n";
  out += "  int dimension() const { return " + std::to_string(p.dimension()) + "; }\n";
  if (p.inequality_count() > 0)
    out += "  int inequality_count() const { return " + std::to_string(p.inequality_count()) + "; }\n";
  if (p.equality_count() > 0)
    out += "  int equality_count() const { return " + std::to_string(p.equality_count()) + "; }\n";
  out += bounds_function(p) + "\n";

  body_writer objective(p);
  const std::string f = objective.value(p.objective, "R");
  out += "  template <class X>\n  FUSEDGA_INLINE R objective(const X& x) const {\n" +
         function_body(objective, "    return " + f + ";\n") + "  }\n";
  if (p.inequality_count() > 0) out += "\n" + constraint_function(p, constraint_kind::inequality, "inequalities");
  if (p.equality_count() > 0) out += "\n" + constraint_function(p, constraint_kind::equality, "equalities");
  out += "};\n\n}  // namespace\n\nFUSEDGA_JIT_EXPORT(fusedga_jit_problem)\n";
  return out;
}

}  // namespace fusedga::expr
