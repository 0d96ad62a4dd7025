// Builds the interpreter's plan (interp_schedule.hpp): node analysis, then a
// post-order walk that emits lane instructions and assigns temporaries.
#include "expr/interp_schedule.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>

#include "expr/interp_scalar.hpp"

namespace fusedga::expr::interp {
namespace {

[[noreturn]] void malformed(const std::string& what) {
  throw std::invalid_argument("expression interpreter: malformed program: " + what);
}

/// Per node: whether it reads a gene, and which index variables it reads
/// without binding them (bit d = depth d).
struct facts {
  std::vector<char> state;  // 0 unvisited, 1 in progress, 2 done
  std::vector<char> varying;
  std::vector<std::uint64_t> free;
  int depth = 0;        // reductions nested this deep
  int index_depth = 0;  // one past the deepest index variable read
};

void analyse(const program& p, int i, facts& f) {
  if (i < 0 || static_cast<std::size_t>(i) >= p.nodes.size()) malformed("node index " + std::to_string(i));
  const auto u = static_cast<std::size_t>(i);
  if (f.state[u] == 2) return;
  if (f.state[u] == 1) malformed("cycle through node " + std::to_string(i));
  f.state[u] = 1;
  const node& n = p.nodes[u];
  bool varying = false;
  std::uint64_t free = 0;
  auto child = [&](int c) {
    analyse(p, c, f);
    varying = varying || f.varying[static_cast<std::size_t>(c)];
    free |= f.free[static_cast<std::size_t>(c)];
  };
  switch (n.kind) {
    case node_kind::number: break;
    case node_kind::gene:
      varying = true;
      if (n.a >= 0) child(n.a);
      break;
    case node_kind::index_var:
      if (n.slot < 0 || n.slot > 62) malformed("index depth " + std::to_string(n.slot));
      free = std::uint64_t(1) << n.slot;
      if (n.slot + 1 > f.index_depth) f.index_depth = n.slot + 1;
      break;
    case node_kind::negate: child(n.a); break;
    case node_kind::lookup:
      if (n.slot < 0 || static_cast<std::size_t>(n.slot) >= p.tables.size()) malformed("table " + std::to_string(n.slot));
      child(n.a);
      break;
    case node_kind::call:
      child(n.a);
      if (is_binary(n.fn)) child(n.b);
      break;
    case node_kind::reduce: {
      if (n.slot < 0 || n.slot > 62) malformed("reduction depth " + std::to_string(n.slot));
      if (n.slot + 1 > f.depth) f.depth = n.slot + 1;
      child(n.a);
      child(n.b);
      const std::uint64_t bounds = free;
      child(n.c);
      free = bounds | (free & ~(std::uint64_t(1) << n.slot));
      break;
    }
    default:  // add, subtract, multiply, divide, power
      child(n.a);
      child(n.b);
      break;
  }
  f.varying[u] = varying;
  f.free[u] = free;
  f.state[u] = 2;
}

template <class Real>
class planner {
 public:
  planner(const program& p, const facts& f, schedule<Real>& s) : p_(p), f_(f), s_(s), scratch_idx_(64, 0) {}

  /// Emits the instructions computing node i; returns where its value is.
  operand<Real> emit(int i) {
    const auto u = static_cast<std::size_t>(i);
    const node& n = p_.nodes[u];
    operand<Real> r;
    if (!f_.varying[u]) {
      if (f_.free[u] == 0) {
        r.from = source::constant;
        r.value = uniform_value<Real>(p_, i, scratch_idx_.data());
      } else {
        r.from = source::uniform;
        r.index = i;
      }
      return r;
    }
    switch (n.kind) {
      case node_kind::gene: {
        if (n.a >= 0 && f_.free[static_cast<std::size_t>(n.a)] != 0) {
          r.from = source::indexed_gene;
          r.index = i;
          return r;
        }
        const int j = n.slot + (n.a < 0 ? 0 : integer_value(p_, n.a, scratch_idx_.data()));
        if (j < 0 || j >= s_.dimension) malformed("gene " + std::to_string(j) + " outside 0.." + std::to_string(s_.dimension - 1));
        r.from = source::gene;
        r.index = j;
        return r;
      }
      case node_kind::negate: return unary(unary_op::negate, n.a);
      case node_kind::lookup: {
        instruction<Real> in;
        in.code = opcode::lookup;
        in.n = n.slot;
        return finish(in, emit(n.a));
      }
      case node_kind::call:
        if (is_binary(n.fn)) return binary(binary_of(n.fn), n.a, n.b);
        return unary(unary_of(n.fn), n.a);
      case node_kind::power: {
        int k = 0;
        switch (classify_power(p_, n.b, k)) {
          case power_rule::integer: {
            instruction<Real> in;
            in.code = opcode::power_integer;
            in.n = k;
            return finish(in, emit(n.a));
          }
          case power_rule::square_root: return unary(unary_op::sqrt, n.a);
          case power_rule::general: break;
        }
        return binary(binary_op::pow, n.a, n.b);
      }
      case node_kind::reduce: {
        instruction<Real> in;
        in.code = opcode::reduce;
        in.red = n.red;
        in.n = n.slot;
        in.lo = n.a;
        in.hi = n.b;
        in.dst = allocate();  // before the body, so the body never reuses the accumulator
        const std::size_t at = s_.code.size();
        s_.code.push_back(in);
        const operand<Real> body = emit(n.c);
        s_.code[at].x = body;
        s_.code[at].end = static_cast<int>(s_.code.size());
        release(body);
        r.from = source::buffer;
        r.index = in.dst;
        return r;
      }
      default: return binary(binary_of(n.kind), n.a, n.b);  // add, subtract, multiply, divide
    }
  }

  /// Emits a root and the instruction `code` that consumes its value.
  void root(int i, opcode code) {
    if (i < 0 || static_cast<std::size_t>(i) >= p_.nodes.size()) malformed("root " + std::to_string(i));
    operand<Real> v = emit(i);
    if (!v.varying()) {
      instruction<Real> b;
      b.code = opcode::broadcast;
      v = finish(b, v);
    }
    instruction<Real> out;
    out.code = code;
    out.x = v;
    s_.code.push_back(out);
    release(v);
  }

 private:
  operand<Real> unary(unary_op op, int a) {
    instruction<Real> in;
    in.code = opcode::unary;
    in.un = op;
    return finish(in, emit(a));
  }

  operand<Real> binary(binary_op op, int a, int b) {
    instruction<Real> in;
    in.code = opcode::binary;
    in.bin = op;
    const operand<Real> x = emit(a);
    in.y = emit(b);
    return finish(in, x);
  }

  /// Gives `in` a fresh destination (never one of its inputs: the lane loops
  /// are restrict-qualified), appends it and frees the inputs' temporaries.
  operand<Real> finish(instruction<Real> in, const operand<Real>& x) {
    in.x = x;
    in.dst = allocate();
    s_.code.push_back(in);
    release(in.x);
    release(in.y);
    operand<Real> r;
    r.from = source::buffer;
    r.index = in.dst;
    return r;
  }

  int allocate() {
    for (std::size_t k = 0; k < busy_.size(); ++k)
      if (!busy_[k]) {
        busy_[k] = 1;
        return static_cast<int>(k);
      }
    busy_.push_back(1);
    s_.buffers = static_cast<int>(busy_.size());
    return s_.buffers - 1;
  }

  void release(const operand<Real>& o) {
    if (o.from == source::buffer) busy_[static_cast<std::size_t>(o.index)] = 0;
  }

  const program& p_;
  const facts& f_;
  schedule<Real>& s_;
  std::vector<int> scratch_idx_;  // index values while folding constants (never read: constants read no index)
  std::vector<char> busy_;
};

}  // namespace

template <class Real>
schedule<Real> make_schedule(const program& p) {
  if (p.objective < 0) malformed("no objective");
  facts f;
  f.state.assign(p.nodes.size(), 0);
  f.varying.assign(p.nodes.size(), 0);
  f.free.assign(p.nodes.size(), 0);
  analyse(p, p.objective, f);
  for (const constraint& c : p.constraints) analyse(p, c.root, f);
  if (f.index_depth > f.depth) malformed("an index variable outside its reduction");

  schedule<Real> s;
  s.dimension = p.dimension();
  s.depth = f.depth;
  planner<Real> plan(p, f, s);
  plan.root(p.objective, opcode::store_objective);
  for (const constraint& c : p.constraints)
    plan.root(c.root, c.kind == constraint_kind::equality ? opcode::add_equality : opcode::add_inequality);
  return s;
}

template schedule<float> make_schedule<float>(const program&);
template schedule<double> make_schedule<double>(const program&);

}  // namespace fusedga::expr::interp
