// Code generation for the JITs: one problem type per expression program,
// written as straight-line C++ (one `const R tN = ...;` per operation, loops
// for reductions) so that GCC vectorizes the batch loop of jit_abi.hpp across
// individuals exactly as it does for the hand-written built-ins, and so that
// NVRTC inlines it into the fused GPU kernels (the device dialect).
//
// The element semantics are those of interp_ops.hpp (the interpreter's), so
// the paths agree to the ulps of libm/libmvec/libdevice.
#include "fusedga/expr/codegen.hpp"

#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "expr/decimal_text.hpp"
#include "expr/interp_ops.hpp"
#include "expr/table_source.hpp"
#include "fusedga/core/error.hpp"
#include "fusedga/expr/derivative.hpp"
#include "fusedga/expr/jacobian_evaluator.hpp"

namespace fusedga::expr {
namespace {

/// The two targets of the generated text: host C++ (the CPU JIT, with the
/// standard library) and CUDA C++ for NVRTC (no standard library: the CUDA
/// math library's global functions, jit_elements.hpp's constants).
enum class dialect { host, device };

/// A literal in C++: %.17g round-trips every double; non-finite values (a
/// folded constant such as 1e308 * 10) become named constants.
std::string literal(double v, const std::string& type, dialect d) {
  if (std::isnan(v))
    return d == dialect::host ? "std::numeric_limits<" + type + ">::quiet_NaN()"
                              : "::fusedga::expr::jit_quiet_nan<" + type + ">()";
  if (std::isinf(v))
    return std::string(v < 0 ? "-" : "") + (d == dialect::host ? "std::numeric_limits<" + type + ">::infinity()"
                                                               : "::fusedga::expr::jit_infinity<" + type + ">()");
  return type + "(" + detail::decimal17(v) + ")";
}

/// The C++ function for `fn`: std:: overloads on the host, the CUDA math library's global overloads on the device.
std::string function_name(function fn, dialect d) {
  const std::string lib = d == dialect::host ? "std::" : "";
  switch (fn) {
    case function::sin: return lib + "sin";
    case function::cos: return lib + "cos";
    case function::tan: return lib + "tan";
    case function::asin: return lib + "asin";
    case function::acos: return lib + "acos";
    case function::atan: return lib + "atan";
    case function::exp: return lib + "exp";
    case function::log: return lib + "log";
    case function::log10: return lib + "log10";
    case function::sqrt: return lib + "sqrt";
    case function::abs: return d == dialect::host ? "std::abs" : "fabs";
    case function::floor: return lib + "floor";
    case function::ceil: return lib + "ceil";
    case function::min: return "::fusedga::expr::jit_min";
    case function::max: return "::fusedga::expr::jit_max";
    case function::atan2: break;
  }
  return lib + "atan2";
}

/// Every table constant as an array of R, once per translation unit, before the problem type that reads
/// them through jit_lookup: `constexpr` on the host, `__device__ const` (global memory; a table may exceed
/// the 64 KiB of __constant__) for NVRTC.
std::string tables_source(const program& p, dialect d) {
  std::string out;
  for (std::size_t q = 0; q < p.tables.size(); ++q)
    out += detail::table_array(d == dialect::device ? "__device__ const" : "constexpr", static_cast<int>(q),
                               p.tables[q].values, [d](double v) { return literal(v, "R", d); }) +
           "\n";
  return out;
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
///
/// Block form (host only, programs with reductions): the body evaluates
/// jit_block individuals at once. Every real value is an array `tN[B]`, and
/// consecutive real statements are one loop over the lanes `k` (a segment,
/// ended by a reduction's loop or an integer statement); genes are gathered
/// through `xb(k, j)`, and integer (index) values stay scalar. Each lane
/// performs exactly the operations of the scalar form in the same order; but
/// a reduction's accumulator becomes B independent chains that GCC
/// vectorizes across individuals, instead of one sequential chain per
/// individual (a 1000-term sum is latency-bound otherwise). One loop per
/// segment rather than per value keeps the values in registers: with a loop
/// per value, Michalewicz's sin(...)^20 stored and reloaded all 19 products.
class body_writer {
 public:
  body_writer(const program& p, dialect d, bool block = false) : p_(p), d_(d), block_(block) {}

  /// Emits the statements computing node `i` in `type` ("R", or "double" for
  /// integer index expressions) and returns the C++ expression of its value.
  std::string value(int i, const std::string& type) {
    const node& n = p_.nodes.at(static_cast<std::size_t>(i));
    switch (n.kind) {
      case node_kind::number: return literal(n.value, type, d_);
      case node_kind::index_var: return type + "(i" + std::to_string(n.slot) + ")";
      case node_kind::gene: return gene(n, type);
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
      case node_kind::lookup: {
        const std::string e = value(n.a, type);
        return define(type, "::fusedga::expr::jit_lookup<" + type + ">(" + detail::table_name(n.slot) + ", " +
                                std::to_string(p_.tables.at(static_cast<std::size_t>(n.slot)).values.size()) + ", " +
                                e + ")");
      }
      case node_kind::call: {
        const std::string a = value(n.a, type);
        if (!interp::is_binary(n.fn)) return define(type, function_name(n.fn, d_) + "(" + a + ")");
        const std::string b = value(n.b, type);
        return define(type, function_name(n.fn, d_) + "(" + a + ", " + b + ")");
      }
      case node_kind::reduce: break;
    }
    return reduce(n, type);
  }

  /// Emits a statement (after the pending segment's loop, in block form).
  void line(const std::string& text) {
    flush();
    out_ += std::string(indent_, ' ') + text + "\n";
  }
  const std::string& text() {
    flush();
    return out_;
  }
  /// Scalar genes read by the statements so far (loaded once at the top of the function).
  const std::set<int>& scalar_genes() const { return scalars_; }

 private:
  /// Whether values of `type` are per-lane arrays (block form, real values).
  bool lanes(const std::string& type) const { return block_ && type == "R"; }

  std::string define(const std::string& type, const std::string& expr) {
    const std::string name = "t" + std::to_string(next_++);
    if (!lanes(type)) {
      line("const " + type + " " + name + " = " + expr + ";");
      return name;
    }
    segment_arrays_.push_back(name);
    lane_line(name + "[k] = " + expr + ";");
    return name + "[k]";
  }

  /// Block form: a statement of lane `k`, added to the pending segment.
  void lane_line(const std::string& statement) { segment_.push_back(statement); }

  /// Block form: emits the pending segment, its arrays and then one loop over the lanes.
  void flush() {
    if (segment_.empty()) return;
    const std::string pad(indent_, ' ');
    for (const std::string& a : segment_arrays_) out_ += pad + "R " + a + "[B];\n";
    out_ += pad + "for (int k = 0; k < B; ++k) {\n";
    for (const std::string& s : segment_) out_ += pad + "  " + s + "\n";
    out_ += pad + "}\n";
    segment_.clear();
    segment_arrays_.clear();
  }

  /// Gene `offset` (a C++ integer expression) of the individual: x[offset], or lane k's in block form.
  std::string gene_at(const std::string& offset) const {
    return block_ ? "xb(k, " + offset + ")" : "x[" + offset + "]";
  }

  std::string gene(const node& n, const std::string& type) {
    if (n.a < 0 && !block_) {  // a scalar variable: a named load at the top of the function
      scalars_.insert(n.slot);
      return "g" + std::to_string(n.slot);
    }
    std::string offset = std::to_string(n.slot);
    if (n.a >= 0) {
      const node& index = p_.nodes.at(static_cast<std::size_t>(n.a));
      // The checker proved the index in range; the clamp keeps the code memory-safe regardless.
      offset = index.kind == node_kind::number ? std::to_string(n.slot + static_cast<int>(index.value))
                                               : offset + " + ::fusedga::expr::jit_index(" + value(n.a, "double") +
                                                     ", 0, " + std::to_string(n.size - 1) + ")";
    }
    // Block form: the gene is a lane value like any other (tN[k] = xb(k, j) in the segment). Added when every
    // value had its own lane loop: the
    // gathered copy let the consumers' loops read contiguous lanes, and GCC called libmvec's 4-wide sin
    // instead of the 2-wide one it picks for strided operands.
    return lanes(type) ? define(type, gene_at(offset)) : gene_at(offset);
  }

  std::string power(const node& n, const std::string& type) {
    const std::string a = value(n.a, type);
    int k = 0;
    switch (interp::classify_power(p_, n.b, k)) {
      case interp::power_rule::integer: {
        if (k == 0) return literal(1, type, d_);
        std::string r = a;
        for (int m = 1; m < std::abs(k); ++m) r = define(type, r + " * " + a);  // ((a·a)·a)··· like the interpreter
        return k < 0 ? define(type, type + "(1) / " + r) : r;
      }
      case interp::power_rule::square_root: return define(type, function_name(function::sqrt, d_) + "(" + a + ")");
      case interp::power_rule::general: break;
    }
    const std::string b = value(n.b, type);
    return define(type, (d_ == dialect::host ? "std::pow(" : "pow(") + a + ", " + b + ")");
  }

  std::string reduce(const node& n, const std::string& type) {
    static constexpr int limit = 1 << 24;  // the checker keeps integer expressions within ±2^24
    const std::string bound = ", " + std::to_string(-limit) + ", " + std::to_string(limit) + ")";
    const std::string lo = define("int", "::fusedga::expr::jit_index(" + value(n.a, "double") + bound);
    const std::string hi = define("int", "::fusedga::expr::jit_index(" + value(n.b, "double") + bound);
    const std::string acc = "t" + std::to_string(next_++);
    const char* start = n.red == reduction::sum ? "(0)" : n.red == reduction::prod ? "(1)" : nullptr;
    const std::string infinity = literal(HUGE_VAL, type, d_);
    const std::string init = start ? type + start : n.red == reduction::min ? infinity : "-" + infinity;
    const bool per_lane = lanes(type);
    const std::string a = per_lane ? acc + "[k]" : acc;  // the accumulator as an operand
    if (per_lane) {
      segment_arrays_.push_back(acc);
      lane_line(a + " = " + init + ";");
    } else {
      line(type + " " + acc + " = " + init + ";");
    }
    const std::string i = "i" + std::to_string(n.slot);
    line("for (int " + i + " = " + lo + "; " + i + " <= " + hi + "; ++" + i + ") {");
    indent_ += 2;
    const std::string v = value(n.c, type);
    std::string step;
    switch (n.red) {
      case reduction::sum: step = a + " = " + a + " + " + v + ";"; break;
      case reduction::prod: step = a + " = " + a + " * " + v + ";"; break;
      case reduction::min: step = a + " = ::fusedga::expr::jit_min(" + a + ", " + v + ");"; break;
      case reduction::max: step = a + " = ::fusedga::expr::jit_max(" + a + ", " + v + ");"; break;
    }
    if (per_lane)
      lane_line(step);
    else
      line(step);
    flush();  // the body's segment, inside the loop
    indent_ -= 2;
    line("}");
    return a;
  }

  const program& p_;
  dialect d_;
  bool block_;
  std::string out_;
  std::set<int> scalars_;
  std::vector<std::string> segment_;         ///< block form: the pending segment's statements of lane k
  std::vector<std::string> segment_arrays_;  ///< and the arrays they define
  int next_ = 0;
  int indent_ = 4;
};

/// The body of a member function: scalar gene loads, then `statements`, then `tail`.
std::string function_body(body_writer& w, const std::string& tail) {
  std::string out;
  for (const int slot : w.scalar_genes())
    out += "    const R g" + std::to_string(slot) + " = x[" + std::to_string(slot) + "];\n";
  return out + w.text() + tail;
}

/// inequalities() or equalities(): every constraint of `kind`, in declaration order, into sink `g`.
std::string constraint_function(const program& p, dialect d, constraint_kind kind, const char* name) {
  body_writer w(p, d);
  int j = 0;
  for (const constraint& c : p.constraints) {
    if (c.kind != kind) continue;
    const std::string v = w.value(c.root, "R");
    w.line("g[" + std::to_string(j++) + "] = " + v + ";");
  }
  const std::string space = d == dialect::device ? "__device__ " : "";
  return "  template <class X, class G>\n  " + space + "FUSEDGA_INLINE void " + std::string(name) +
         "(const X& x, G& g) const {\n" + function_body(w, "") + "  }\n";
}

/// bounds(): run-length encoded, so a 1000-gene vector with one box is one call.
std::string bounds_function(const program& p) {
  std::string out = "  ::fusedga::Bounds<R> bounds() const {\n    ::fusedga::Bounds<R> b;\n";
  for (const variable& v : p.variables) {
    for (std::size_t k = 0; k < v.lower.size();) {
      std::size_t run = 1;
      while (k + run < v.lower.size() && v.lower[k + run] == v.lower[k] && v.upper[k + run] == v.upper[k]) ++run;
      out += "    ::fusedga::expr::jit_append_bounds(b, " + std::to_string(run) + ", " +
             literal(v.lower[k], "R", dialect::host) + ", " + literal(v.upper[k], "R", dialect::host) + ");\n";
      k += run;
    }
  }
  // After every gene's bounds, one call per run of integer elements; none without integer variables, so the
  // generated text (and the JIT cache key) of other problems is unchanged.
  for (const variable& v : p.variables)
    for (int k = 0; k < v.size;) {
      int run = 0;
      while (k + run < v.size && v.is_integer(k + run)) ++run;
      if (run > 0)
        out += "    ::fusedga::expr::jit_mark_integer(b, " + std::to_string(v.first_gene + k) + ", " +
               std::to_string(run) + ");\n";
      k += run > 0 ? run : 1;
    }
  return out + "    return b;\n  }\n";
}

void check_arguments(const program& p, const std::string& real_type, const char* caller) {
  if (real_type != "float" && real_type != "double")
    throw error(std::string(caller) + ": real type must be \"float\" or \"double\", not \"" + real_type + "\"");
  if (p.objective < 0 || p.dimension() <= 0)
    throw error(std::string(caller) + ": the program has no objective or no genes");
}

bool has_reduction(const program& p) {
  for (const node& n : p.nodes)
    if (n.kind == node_kind::reduce) return true;
  return false;
}

/// evaluate_block(): the block form of objective, inequalities and equalities (body_writer), for jit_abi.hpp's
/// batch loop. Per lane, the violation is accumulated exactly as jit_detail::evaluate_lane does.
std::string block_member(const program& p) {
  body_writer w(p, dialect::host, true);
  w.line("constexpr int B = ::fusedga::expr::jit_block;");
  const std::string f = w.value(p.objective, "R");
  std::string sinks;
  for (const constraint_kind kind : {constraint_kind::inequality, constraint_kind::equality}) {
    std::string assignments;
    int j = 0;
    for (const constraint& c : p.constraints)
      if (c.kind == kind) assignments += " g[" + std::to_string(j++) + "] = " + w.value(c.root, "R") + ";";
    if (j > 0)
      sinks += std::string("\n      { auto g = ::fusedga::") +
               (kind == constraint_kind::inequality ? "inequality_sink(&v);" : "equality_sink(&v, eps);") +
               assignments + " }";
  }
  w.line("for (int k = 0; k < B; ++k) {");
  w.line("  R v = R(0);" + sinks);
  w.line("  objective[k] = " + f + ";");
  w.line("  violation[k] = v;");
  w.line("}");
  return "  static constexpr bool block_evaluation = true;\n"
         "  template <class XB>\n  FUSEDGA_INLINE void evaluate_block(const XB& xb, [[maybe_unused]] R eps, R* FUSEDGA_RESTRICT objective,\n"
         "                                     R* FUSEDGA_RESTRICT violation) const {\n" +
         w.text() + "  }\n";
}

/// objective(), inequalities() and equalities() of the problem type (members of fusedga_jit_problem).
std::string evaluation_members(const program& p, dialect d) {
  body_writer objective(p, d);
  const std::string f = objective.value(p.objective, "R");
  const std::string space = d == dialect::device ? "__device__ " : "";
  std::string out = "  template <class X>\n  " + space + "FUSEDGA_INLINE R objective(const X& x) const {\n" +
                    function_body(objective, "    return " + f + ";\n") + "  }\n";
  if (p.inequality_count() > 0) out += "\n" + constraint_function(p, d, constraint_kind::inequality, "inequalities");
  if (p.equality_count() > 0) out += "\n" + constraint_function(p, d, constraint_kind::equality, "equalities");
  return out;
}

}  // namespace

std::string generate_source(const program& p, const std::string& real_type) {
  check_arguments(p, real_type, "generate_source");
  std::string out;
  out += "// generated C++ (" + real_type + "): a FusedGA expression problem, compiled by the CPU JIT.\n";
  out += "// Genes x[0.." + std::to_string(p.dimension() - 1) + "]; g<j> is scalar gene j; t<n> are intermediate values.\n";
  out += "#include <limits>\n\n#include \"fusedga/expr/jit_abi.hpp\"\n\nnamespace {\n\nusing R = " + real_type + ";\n\n";
  out += tables_source(p, dialect::host);
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
  out += evaluation_members(p, dialect::host);
  if (has_reduction(p)) out += "\n" + block_member(p);
  out += "};\n\n}  // namespace\n\nFUSEDGA_JIT_EXPORT(fusedga_jit_problem)\n";
  return out;
}

std::string generate_device_source(const program& p, const std::string& real_type, bool jacobian) {
  check_arguments(p, real_type, "generate_device_source");
  const std::string suffix = real_type == "float" ? "_f32" : "_f64";
  std::string out;
  out += "// generated CUDA C++ (" + real_type + "): a FusedGA expression problem, compiled by the GPU JIT (NVRTC).\n";
  out += "// Genes x[0.." + std::to_string(p.dimension() - 1) + "]; g<j> is scalar gene j; t<n> are intermediate values.\n";
  out += "#include \"fusedga/core/constraint_sink.hpp\"\n#include \"fusedga/expr/jit_elements.hpp\"\n\n";
  out += "namespace {\n\nusing R = " + real_type + ";\n\n" + tables_source(p, dialect::device);
  out += "struct fusedga_jit_problem {\n";
  out += evaluation_members(p, dialect::device);
  out += "};\n\n}  // namespace\n\n";
  out += "extern \"C\" __device__ R fusedga_expr_objective" + suffix +
         "(const R* x) { return fusedga_jit_problem{}.objective(x); }\n";
  out += "extern \"C\" __device__ void fusedga_expr_inequalities" + suffix + "(const R* x, R* total) {\n";
  if (p.inequality_count() > 0)
    out += "  auto g = ::fusedga::inequality_sink(total);\n  fusedga_jit_problem{}.inequalities(x, g);\n";
  out += "}\n";
  out += "extern \"C\" __device__ void fusedga_expr_equalities" + suffix + "(const R* x, R eps, R* total) {\n";
  if (p.equality_count() > 0)
    out += "  auto h = ::fusedga::equality_sink(total, eps);\n  fusedga_jit_problem{}.equalities(x, h);\n";
  out += "}\n";
  const std::string name = "fusedga_expr_jacobian" + suffix;
  if (jacobian && p.inequality_count() + p.equality_count() > 0) {
    // In a namespace of its own: its tables and lookup helper must not meet the problem's above.
    out += "\nnamespace fusedga_jacobian {\n" + generate_jacobian_source(build_jacobian(p), real_type, "device", name) +
           "}  // namespace fusedga_jacobian\n";
  } else {
    // The GA's and DE's kernels reference it; they call it only when the run repairs, which builds the real one.
    out += "extern \"C\" __device__ void " + name + "(const R*, R*, R*) {\n#if defined(__CUDA_ARCH__)\n" +
           "  __trap();  // built without the Jacobian (gradient repair off): never called\n#endif\n}\n";
  }
  return out;
}

}  // namespace fusedga::expr
