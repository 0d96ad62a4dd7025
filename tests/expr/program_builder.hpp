#pragma once
// Test helpers for expression programs, shared by the interpreter and JIT
// tests: a program builder (expressions as C++ operators over node indices,
// independent of the parser), evaluator runners for rows and SoA layouts,
// comparisons, and random expression trees for the property tests.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <fusedga/expr/ast.hpp>
#include <fusedga/expr/evaluator.hpp>
#include <fusedga/expr/interpreter.hpp>
#include <fusedga/expr/parse.hpp>

namespace expr_test {

using namespace fusedga::expr;

// --- a small program builder: expressions as C++ operators over node indices ---

struct builder;

struct ex {
  builder* b;
  int i;
};

struct builder {
  program p;

  ex push(node n) {
    p.nodes.push_back(std::move(n));
    return {this, static_cast<int>(p.nodes.size()) - 1};
  }
  const node& at(ex e) const { return p.nodes[static_cast<std::size_t>(e.i)]; }

  ex num(double v) {
    node n;
    n.kind = node_kind::number;
    n.value = v;
    n.integer = v == std::floor(v);
    return push(n);
  }
  /// A new variable of `size` genes in [-10, 10]; returns its index.
  int variable_of(const std::string& name, int size, bool vector) {
    variable v;
    v.name = name;
    v.first_gene = p.dimension();
    v.size = size;
    v.vector = vector;
    v.lower.assign(static_cast<std::size_t>(size), -10.0);
    v.upper.assign(static_cast<std::size_t>(size), 10.0);
    p.variables.push_back(v);
    return static_cast<int>(p.variables.size()) - 1;
  }
  /// A scalar variable, as a gene node.
  ex scalar(const std::string& name) {
    const int v = variable_of(name, 1, false);
    node n;
    n.kind = node_kind::gene;
    n.slot = p.variables[static_cast<std::size_t>(v)].first_gene;
    n.name = name;
    return push(n);
  }
  /// vector[index] for an integer expression `index`.
  ex element(int var, ex index) {
    const variable& v = p.variables[static_cast<std::size_t>(var)];
    node n;
    n.kind = node_kind::gene;
    n.slot = v.first_gene;
    n.size = v.size;
    n.a = index.i;
    n.name = v.name;
    return push(n);
  }
  ex index(int depth) {
    node n;
    n.kind = node_kind::index_var;
    n.slot = depth;
    n.integer = true;
    n.name = std::string(1, static_cast<char>('i' + depth));
    return push(n);
  }
  ex unary(node_kind k, ex a) {
    node n;
    n.kind = k;
    n.a = a.i;
    n.integer = at(a).integer;
    return push(n);
  }
  ex binary(node_kind k, ex a, ex b) {
    node n;
    n.kind = k;
    n.a = a.i;
    n.b = b.i;
    n.integer = at(a).integer && at(b).integer &&
                (k == node_kind::add || k == node_kind::subtract || k == node_kind::multiply);
    return push(n);
  }
  ex call(function f, ex a, int b = -1) {
    node n;
    n.kind = node_kind::call;
    n.fn = f;
    n.a = a.i;
    n.b = b;
    return push(n);
  }
  ex reduce(reduction r, int depth, ex lo, ex hi, ex body) {
    node n;
    n.kind = node_kind::reduce;
    n.red = r;
    n.slot = depth;
    n.a = lo.i;
    n.b = hi.i;
    n.c = body.i;
    n.name = std::string(1, static_cast<char>('i' + depth));  // as index() names it, for printing
    p.max_reduction_depth = std::max(p.max_reduction_depth, depth + 1);
    return push(n);
  }
  /// A new table constant; returns its index.
  int table(const std::string& name, std::vector<double> values) {
    p.tables.push_back({name, std::move(values), {}});
    return static_cast<int>(p.tables.size()) - 1;
  }
  /// table[index] for any expression `index`.
  ex lookup(int table, ex index) {
    node n;
    n.kind = node_kind::lookup;
    n.slot = table;
    n.a = index.i;
    n.name = p.tables[static_cast<std::size_t>(table)].name;
    return push(n);
  }
  void objective(ex e) { p.objective = e.i; }
  void constrain(constraint_kind k, ex root) {
    constraint c;
    c.kind = k;
    c.root = root.i;
    p.constraints.push_back(c);
  }
  void inequality(ex g) { constrain(constraint_kind::inequality, g); }
  void equality(ex h) { constrain(constraint_kind::equality, h); }
};

/// A vector variable: v[k] and v[index expression].
struct vec {
  builder* b;
  int var;
  ex operator[](ex index) const { return b->element(var, index); }
  ex operator[](int k) const { return b->element(var, b->num(k)); }
};
inline vec vector_variable(builder& b, const std::string& name, int size) { return {&b, b.variable_of(name, size, true)}; }

inline ex operator+(ex a, ex b) { return a.b->binary(node_kind::add, a, b); }
inline ex operator-(ex a, ex b) { return a.b->binary(node_kind::subtract, a, b); }
inline ex operator*(ex a, ex b) { return a.b->binary(node_kind::multiply, a, b); }
inline ex operator/(ex a, ex b) { return a.b->binary(node_kind::divide, a, b); }
inline ex operator-(ex a) { return a.b->unary(node_kind::negate, a); }
inline ex operator+(ex a, double v) { return a + a.b->num(v); }
inline ex operator-(ex a, double v) { return a - a.b->num(v); }
inline ex operator*(ex a, double v) { return a * a.b->num(v); }
inline ex operator/(ex a, double v) { return a / a.b->num(v); }
inline ex operator+(double v, ex a) { return a.b->num(v) + a; }
inline ex operator-(double v, ex a) { return a.b->num(v) - a; }
inline ex operator*(double v, ex a) { return a.b->num(v) * a; }
inline ex pw(ex a, ex b) { return a.b->binary(node_kind::power, a, b); }
inline ex pw(ex a, double v) { return pw(a, a.b->num(v)); }
inline ex fn(function f, ex a) { return a.b->call(f, a); }
inline ex fn(function f, ex a, ex b) { return a.b->call(f, a, b.i); }
inline ex red(reduction r, int depth, ex lo, ex hi, ex body) { return body.b->reduce(r, depth, lo, hi, body); }
inline ex red(reduction r, int depth, int lo, int hi, ex body) {
  return red(r, depth, body.b->num(lo), body.b->num(hi), body);
}

// --- running an evaluator ---

template <class Real>
struct outputs {
  std::vector<Real> objective, violation;
};

/// Evaluates `rows` (count × d, row-major) in rows layout.
template <class Real>
outputs<Real> run_rows(const evaluator<Real>& e, const std::vector<Real>& rows, int d, Real eps = Real(1e-4)) {
  const int count = d == 0 ? 0 : static_cast<int>(rows.size()) / d;
  outputs<Real> o{std::vector<Real>(static_cast<std::size_t>(count)), std::vector<Real>(static_cast<std::size_t>(count))};
  e.evaluate(rows.data(), d, 1, count, eps, o.objective.data(), o.violation.data());
  return o;
}

/// The same individuals transposed to structure of arrays (gene j at j·count).
template <class Real>
outputs<Real> run_soa(const evaluator<Real>& e, const std::vector<Real>& rows, int d, Real eps = Real(1e-4)) {
  const int count = static_cast<int>(rows.size()) / d;
  std::vector<Real> soa(rows.size());
  for (int l = 0; l < count; ++l)
    for (int j = 0; j < d; ++j)
      soa[static_cast<std::size_t>(j * count + l)] = rows[static_cast<std::size_t>(l * d + j)];
  outputs<Real> o{std::vector<Real>(static_cast<std::size_t>(count)), std::vector<Real>(static_cast<std::size_t>(count))};
  e.evaluate(soa.data(), 1, count, count, eps, o.objective.data(), o.violation.data());
  return o;
}

template <class Real>
std::vector<Real> random_rows(int count, int d, double lo, double hi, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<Real> rows(static_cast<std::size_t>(count * d));
  for (Real& v : rows) v = static_cast<Real>(static_cast<float>(u(rng)));  // float-exact, same inputs for both precisions
  return rows;
}

/// Bitwise-equal (NaN equals NaN).
template <class Real>
inline bool same(Real a, Real b) {
  return (std::isnan(a) && std::isnan(b)) || a == b;
}

/// |a − b| <= rel · max(1, |b|), with equal infinities and NaN = NaN accepted.
inline bool close(double a, double b, double rel) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::abs(a - b) <= rel * std::max(1.0, std::abs(b));
}

/// The violation formula on raw constraint values in double.
inline double violation_of(const program& p, const double* x, double eps) {
  double total = 0;
  for (int j = 0; j < static_cast<int>(p.constraints.size()); ++j) {
    const double v = reference_constraint(p, j, x);
    const double e =
        p.constraints[static_cast<std::size_t>(j)].kind == constraint_kind::equality ? std::abs(v) - eps : v;
    total += e <= 0 ? 0 : e;
  }
  return total;
}

// --- random expression trees ---


/// The table constant of random trees: T, 5 entries.
inline const std::vector<double> random_tree_table = {0.75, -1.5, 2.25, 0.125, -3};

/// Random expressions over scalars a, b, a vector v[0..7] and the table T
/// (random_tree_table), in domain by construction (log of atan(s)² + 0.5, asin of 0.9·sin s, ...) and well
/// conditioned (trigonometric arguments are angles 2·atan(s), so a large s
/// never meets sin), with reductions nested up to two deep whose index
/// variables stay in 0..4 (so v[i + 3] is in range). Lookups T[2 + 2.4·sin(angle)]
/// stay inside the table, rounding where the index crosses a half; T[i] and
/// T[literal] are the lookups that read no gene.
struct random_tree {
  builder b;
  std::mt19937_64 rng;
  ex a, c;
  vec v;

  int t;

  explicit random_tree(unsigned seed)
      : rng(seed), a(b.scalar("a")), c(b.scalar("b")), v(vector_variable(b, "v", 8)), t(b.table("T", random_tree_table)) {}

  int pick(int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); }
  ex angle(ex s) { return 2 * fn(function::atan, s); }
  ex positive(ex s) { return pw(fn(function::atan, s), 2) + 0.5; }  // in [0.5, 2.97]

  ex leaf(int depth) {
    switch (pick(depth > 0 ? 6 : 4)) {
      case 0: return b.num((pick(17) - 8) * 0.25);
      case 1: return a;
      case 2: return c;
      case 3: return v[pick(8)];
      case 4: return b.index(pick(depth));
      default: return v[b.index(pick(depth)) + b.num(pick(4))];
    }
  }

  ex gen(int budget, int depth) {
    if (budget <= 0) return leaf(depth);
    const int n = budget - 1;
    switch (pick(depth < 2 ? 13 : 12)) {
      case 0: return gen(n, depth) + gen(n, depth);
      case 1: return gen(n, depth) - gen(n, depth);
      case 2: return gen(n, depth) * gen(n, depth);
      case 3: return gen(n, depth) / positive(gen(n, depth));
      case 4: return -gen(n, depth);
      case 5: {
        const int k = pick(8) - 4;  // -4..3: repeated multiplication
        return pw(k < 0 ? positive(gen(n, depth)) : gen(n, depth), k);
      }
      case 6: {
        const double e[] = {0.5, 1.7, -0.3, 2.5};
        return pw(positive(gen(n, depth)), e[pick(4)]);
      }
      case 7: return depth > 0 ? pw(positive(gen(n, depth)), b.index(pick(depth))) : gen(n, depth);
      case 8: {
        const ex s = gen(n, depth);
        switch (pick(15)) {
          case 0: return fn(function::sin, angle(s));
          case 1: return fn(function::cos, angle(s));
          case 2: return fn(function::atan, s);
          case 3: return fn(function::abs, s);
          case 4: return fn(function::tan, 0.7 * angle(s));
          case 5: return fn(function::asin, 0.9 * fn(function::sin, angle(s)));
          case 6: return fn(function::acos, 0.9 * fn(function::cos, angle(s)));
          case 7: return fn(function::exp, fn(function::sin, angle(s)));
          case 8: return fn(function::log, positive(s));
          case 9: return fn(function::log10, positive(s));
          case 10: return fn(function::sqrt, positive(s));
          case 11: return fn(function::floor, s);
          case 13: return b.lookup(t, 2 + 2.4 * fn(function::sin, angle(s)));
          case 14: return b.lookup(t, depth > 0 ? b.index(pick(depth)) : b.num(pick(5)));
          default: return fn(function::ceil, s);
        }
      }
      case 9: return fn(function::min, gen(n, depth), gen(n, depth));
      case 10: return fn(function::max, gen(n, depth), gen(n, depth));
      case 11: return fn(function::atan2, gen(n, depth), positive(gen(n, depth)));  // away from the branch cut
      default: {
        const reduction r = static_cast<reduction>(pick(4));
        const ex lo = depth > 0 && pick(2) ? b.index(depth - 1) : b.num(pick(3));
        const ex body = gen(n, depth + 1);
        // prod bodies kept in (0.5, 1.5] so products stay moderate
        return red(r, depth, lo, b.num(4), r == reduction::prod ? 1 + 0.5 * fn(function::sin, angle(body)) : body);
      }
    }
  }
};

// --- programs from the parser ---

/// A declared variable (vector when size > 1) with one box for all elements.
inline variable_decl declared(const std::string& name, int size, double lower, double upper) {
  variable_decl d;
  d.name = name;
  d.size = size;
  d.vector = size > 1;
  d.lower.assign(static_cast<std::size_t>(size), lower);
  d.upper.assign(static_cast<std::size_t>(size), upper);
  d.key_path = "problem.variables." + name;
  return d;
}

/// A declared table constant.
inline constant_decl declared_table(const std::string& name, std::vector<double> values) {
  return {name, 0, "problem.constants." + name, {}, std::move(values)};
}

/// The program the parser makes of these declarations, objective and constraints.
inline program parsed(const std::vector<variable_decl>& variables, const std::string& objective,
                      const std::vector<std::string>& constraints = {}, fusedga::Sense sense = fusedga::Sense::minimize,
                      const std::vector<constant_decl>& constants = {}) {
  problem_source s;
  s.file = "test.yaml";
  s.sense = sense;
  s.variables = variables;
  s.constants = constants;
  s.objective = {objective, "problem.objective", {1, 1}};
  for (std::size_t k = 0; k < constraints.size(); ++k)
    s.constraints.push_back({constraints[k], "problem.constraints[" + std::to_string(k) + "]", {2, 1}});
  return parse_program(s);
}

// --- table lookups ---

/// The table P of the lookup tests.
inline const std::vector<double> wire_table = {3.175, 5.715, 8.255, 12.7};

struct lookup_case {
  double index;
  double expected;  ///< P[index]: entry floor(index + 0.5), NaN outside 0..3
};

/// Indices at the halves, the boundaries, outside, NaN and infinite, with P at each.
inline std::vector<lookup_case> lookup_cases() {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  return {{0, 3.175},      {0.49, 3.175},     {0.5, 5.715},  {-0.5, 3.175}, {-0.51, nan},     {1.4999999, 5.715},
          {1.5, 8.255},    {2.5, 12.7},       {3, 12.7},     {3.4999, 12.7}, {3.5, nan},      {4, nan},
          {-1, nan},       {2.0000001, 8.255}, {nan, nan},   {inf, nan},    {-inf, nan},      {1e300, nan},
          {-2147483649.0, nan}, {2147483648.0, nan}};
}

/// A problem with lookups of P (wire_table) and Q = [-1, 2]: of genes (P[x], P[v[i] + i]), of an index
/// variable inside a reduction (Q[i/2]: Q[0], Q[0.5] = Q[1], Q[1]), a literal (P[2]) and in both constraint kinds.
inline program table_program() {
  return parsed({declared("x", 1, -1, 4), declared("y", 1, -1, 4), declared("v", 3, -1, 4)},
                "P[x] + sum(i=0:2, P[v[i] + i] * Q[i/2]) - P[2]", {"P[y] * y <= 20", "Q[x - y] == 2"},
                fusedga::Sense::minimize, {declared_table("P", wire_table), declared_table("Q", {-1, 2})});
}

/// Rows of table_program: every lookup_cases() index in every gene (shifted between genes), then `random_count`
/// random rows in [-1, 4].
inline std::vector<double> table_rows(int random_count) {
  const std::vector<lookup_case> cases = lookup_cases();
  const std::size_t n = cases.size();
  std::vector<double> rows;
  for (std::size_t k = 0; k < n; ++k)
    for (const std::size_t shift : {0, 5, 3, 7, 11}) rows.push_back(cases[(k + shift) % n].index);
  const std::vector<double> random = random_rows<double>(random_count, 5, -1, 4, 77);
  rows.insert(rows.end(), random.begin(), random.end());
  return rows;
}

}  // namespace expr_test
