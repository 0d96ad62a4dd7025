/// @file parse.cpp
/// Recursive-descent parser of expression problems: tokens (lexer.hpp) →
/// checked AST nodes in the program arena. Names are resolved, arities,
/// indices and reduction bounds checked as each node is built, so every error
/// points at the token where it arises, in reading order.
///
/// Grammar (lowest binding first):
///   constraint := sum ('<=' | '<' | '>=' | '>' | '==') sum
///   sum        := product (('+' | '-') product)*
///   product    := unary (('*' | '/') unary)*
///   unary      := ('-' | '+') unary | power
///   power      := primary (('^' | '**') unary)?       right associative; -x^2 = -(x^2); 2^-1 allowed
///   primary    := number | '(' sum ')' | name | name '[' sum ']'      variables, table constants
///               | name '(' [sum (',' sum)*] ')'       functions, pow
///               | red '(' name '=' sum ':' sum ',' sum ')'   red = sum | prod | min | max

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "expr/check.hpp"
#include "expr/diagnostics.hpp"
#include "expr/lexer.hpp"
#include "expr/names.hpp"
#include "fusedga/expr/parse.hpp"

namespace fusedga::expr {

namespace parsing {
namespace {

/// Parentheses, calls, reductions, indices and unary operators nested deeper
/// than this are rejected: the parser recurses once per level, and malformed
/// input must not overflow the stack.
constexpr int max_nesting = 256;

/// Tree height limit: consumers (printer, reference evaluator, code
/// generator) recurse over the tree, and a long flat chain `x + x + ...` is
/// as deep as it is long.
constexpr int max_height = 1024;

/// State shared by the parsers of all texts of one program: per-node facts
/// the checks need but the AST does not keep.
struct builder {
  program& p;
  const symbol_table& symbols;
  std::vector<std::optional<int_range>> ranges;  ///< integer range of each node (nullopt: not an integer expression)
  std::vector<int> heights;                      ///< height of each node's subtree
  std::vector<double> works;                     ///< reduction loop iterations of each node's subtree
  double total_work = 0;                         ///< of the texts parsed so far (objective and constraints)

  const node& at(int id) const { return p.nodes[static_cast<std::size_t>(id)]; }
  const std::optional<int_range>& range(int id) const { return ranges[static_cast<std::size_t>(id)]; }
};

class parser {
 public:
  parser(builder& b, const std::string& file, const source_text& text)
      : b_(b),
        from_{text.given_by.empty() ? file : text.given_by, text.key_path, !text.given_by.empty()},
        tokens_(lex(text.text, text.where, text.positions, from_)) {}

  /// The objective: one expression, no comparison.
  int objective() {
    if (peek().kind == token_kind::end) fail(from_, peek().where, "empty expression; expected an objective such as x^2 + y");
    const int root = sum();
    const token& t = peek();
    if (is_comparison(t))
      fail(from_, t.where, "unexpected " + describe(t) + " in the objective; comparisons belong in constraints");
    if (t.kind != token_kind::end) fail(from_, t.where, "unexpected " + describe(t) + "; expected an operator or the end of the expression");
    count_work(root);
    return root;
  }

  /// A constraint `lhs op rhs`, normalized to lhs - rhs (<=, ==) or rhs - lhs (>=).
  constraint comparison(const source_text& text) {
    const token& first = peek();
    if (first.kind == token_kind::end)
      fail(from_, first.where, "empty constraint; expected a comparison such as x + y <= 3");
    if (is_comparison(first)) fail(from_, first.where, "empty left-hand side before " + describe(first));
    const int lhs = sum();
    const token op = next();
    if (op.kind == token_kind::end)
      fail(from_, op.where, "expected a comparison '<=', '>=' or '==' in a constraint, got end of text");
    if (op.kind == token_kind::assign)
      fail(from_, op.where, "unexpected '='; a constraint compares with '<=', '>=' or '=='");
    if (!is_comparison(op))
      fail(from_, op.where, "unexpected " + describe(op) + "; expected an operator or a comparison '<=', '>=' or '=='");
    if (peek().kind == token_kind::end) fail(from_, op.where, "empty right-hand side after " + describe(op));
    const int rhs = sum();
    const token& t = peek();
    if (is_comparison(t))
      fail(from_, t.where,
           "unexpected second comparison " + describe(t) + "; a constraint has exactly one (write two constraints)");
    if (t.kind != token_kind::end) fail(from_, t.where, "unexpected " + describe(t) + "; expected an operator or the end of the constraint");

    constraint c;
    c.kind = op.kind == token_kind::equal ? constraint_kind::equality : constraint_kind::inequality;
    node n;
    n.kind = node_kind::subtract;
    n.where = first.where;
    n.a = op.kind == token_kind::greater ? rhs : lhs;
    n.b = op.kind == token_kind::greater ? lhs : rhs;
    c.root = add(std::move(n));
    if (!reads_a_gene(c.root))
      fail(from_, first.where,
           "the constraint reads no variable, so it is always satisfied or always violated; expected a "
           "constraint on the variables");
    count_work(c.root);
    c.text = text.text;
    c.where = text.where;
    return c;
  }

 private:
  /// Counts nesting on entry to `unary`, which every recursive path of the grammar passes (see max_nesting).
  class nesting {
   public:
    explicit nesting(parser& p) : p_(p) {
      if (++p_.depth_ > max_nesting)
        fail(p_.from_, p_.peek().where, fmt::format("expression nested too deeply (more than {} levels)", max_nesting));
    }
    ~nesting() { --p_.depth_; }
    nesting(const nesting&) = delete;
    nesting& operator=(const nesting&) = delete;

   private:
    parser& p_;
  };

  /// An index variable in scope: its name, reduction depth and range.
  struct index_scope {
    std::string_view name;
    int depth;
    int_range range;
  };

  const token& peek(std::size_t ahead = 0) const { return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)]; }
  const token& next() {
    const token& t = peek();
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }
  const token& expect(token_kind kind, const std::string& what) {
    if (peek().kind != kind) fail(from_, peek().where, "unexpected " + describe(peek()) + "; expected " + what);
    return next();
  }
  [[noreturn]] void fail_at(int id, const std::string& message) const { fail(from_, b_.at(id).where, message); }

  /// Whether the subtree at `id` reads a gene (a variable), anywhere.
  bool reads_a_gene(int id) const {
    std::vector<int> open{id};
    while (!open.empty()) {
      const node& n = b_.at(open.back());
      open.pop_back();
      if (n.kind == node_kind::gene) return true;
      for (int child : {n.a, n.b, n.c})
        if (child >= 0) open.push_back(child);
    }
    return false;
  }

  /// Appends `n` to the arena: its height, its integer range (index variables
  /// pass theirs in) and the `integer` flag.
  int add(node n, std::optional<int_range> known = std::nullopt) {
    int height = 0;
    for (const int child : {n.a, n.b, n.c})
      if (child >= 0) height = std::max(height, b_.heights[static_cast<std::size_t>(child)]);
    if (++height > max_height)
      fail(from_, n.where, fmt::format("expression too long: more than {} nested operations (split it, or use sum())", max_height));
    const auto range_of = [&](int child) { return child >= 0 ? b_.range(child) : std::nullopt; };
    const std::optional<int_range> range = n.kind == node_kind::index_var ? known : integer_range(n, range_of(n.a), range_of(n.b));
    n.integer = range && range->within(-integer_limit, integer_limit);
    const double work = work_of(n);
    b_.p.nodes.push_back(std::move(n));
    b_.ranges.push_back(range);
    b_.heights.push_back(height);
    b_.works.push_back(work);
    return static_cast<int>(b_.p.nodes.size()) - 1;
  }

  /// Loop iterations per individual of the subtree `n` heads (its children are in the arena): a reduction
  /// runs upper - lower + 1 times at most (the widest its bounds reach), each time its body and the
  /// reductions inside it. Checked against max_reduction_work where it is first exceeded.
  double work_of(const node& n) const {
    const auto work = [&](int child) { return child >= 0 ? b_.works[static_cast<std::size_t>(child)] : 0.0; };
    if (n.kind != node_kind::reduce) return work(n.a) + work(n.b) + work(n.c);
    const double trips = std::max(0.0, b_.range(n.b)->hi - b_.range(n.a)->lo + 1);
    const double total = work(n.a) + work(n.b) + trips * (1 + work(n.c));
    if (total > max_reduction_work)
      fail(from_, n.where,
           fmt::format("'{}({}={}:{}, ...)' runs {:.0f} loop iterations per individual, nested reductions included; "
                       "the limit is {:.0f} per individual (objective and constraints together): narrow the ranges",
                       name_of(n.red), n.name, b_.range(n.a)->lo, b_.range(n.b)->hi, total, max_reduction_work));
    return total;
  }

  /// Adds the work of the text whose root is `root` to the program's, against max_reduction_work.
  void count_work(int root) {
    const double work = b_.works[static_cast<std::size_t>(root)];
    b_.total_work += work;
    if (work > 0 && b_.total_work > max_reduction_work)
      fail(from_, b_.at(root).where,
           fmt::format("the reductions of the objective and constraints so far run {:.0f} loop iterations per "
                       "individual ({:.0f} in this one); the limit is {:.0f} per individual: narrow the ranges",
                       b_.total_work, work, max_reduction_work));
  }

  int binary(node_kind kind, int a, int b) {
    node n;
    n.kind = kind;
    n.a = a;
    n.b = b;
    n.where = b_.at(a).where;
    return add(std::move(n));
  }

  int sum() {
    int lhs = product();
    while (peek().kind == token_kind::plus || peek().kind == token_kind::minus) {
      const node_kind kind = next().kind == token_kind::plus ? node_kind::add : node_kind::subtract;
      lhs = binary(kind, lhs, product());
    }
    return lhs;
  }

  int product() {
    int lhs = unary();
    while (peek().kind == token_kind::star || peek().kind == token_kind::slash) {
      const bool divide = next().kind == token_kind::slash;
      const int rhs = unary();
      if (divide) check_divisor(rhs);
      lhs = binary(divide ? node_kind::divide : node_kind::multiply, lhs, rhs);
    }
    return lhs;
  }

  /// Every recursion of the grammar passes through here, so this is where nesting is counted.
  int unary() {
    nesting guard(*this);
    if (peek().kind == token_kind::minus) {
      node n;
      n.kind = node_kind::negate;
      n.where = next().where;
      n.a = unary();
      return add(std::move(n));
    }
    if (peek().kind == token_kind::plus) {
      next();
      return unary();
    }
    const int base = primary();
    if (peek().kind != token_kind::caret) return base;
    next();
    return binary(node_kind::power, base, unary());
  }

  int primary() {
    const token& t = peek();
    switch (t.kind) {
      case token_kind::number: {
        next();
        node n;
        n.kind = node_kind::number;
        n.value = t.value;
        n.where = t.where;
        return add(std::move(n));
      }
      case token_kind::lparen: {
        next();
        if (peek().kind == token_kind::rparen) fail(from_, peek().where, "unexpected ')'; expected an expression inside '()'");
        const int inner = sum();
        expect(token_kind::rparen, "')' to close the '(' at " + position(from_, t.where));
        return inner;
      }
      case token_kind::name: return name();
      default:
        fail(from_, t.where, "unexpected " + describe(t) + "; expected a number, a name, '(' or '-'");
    }
  }

  /// A name: a call or reduction, an index variable, a variable (indexed or
  /// not), a constant, a table lookup, pi or e.
  int name() {
    const token& t = next();
    const std::string_view id = t.text;
    if (peek().kind == token_kind::lparen) return call(t);
    if (find_function(id) || find_reduction(id)) {
      const std::string form = find_reduction(id) ? fmt::format("{}(i=a:b, expr)", id) : fmt::format("{}(...)", id);
      fail(from_, peek().where, fmt::format("unexpected {} after '{}'; expected '(' as in {}", describe(peek()), id, form));
    }
    const auto not_indexable = [&](const std::string& what) {
      if (peek().kind == token_kind::lbracket) fail(from_, peek().where, fmt::format("'{}' is {} and cannot be indexed", id, what));
    };
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s)
      if (s->name == id) {
        not_indexable("an index variable");
        node n;
        n.kind = node_kind::index_var;
        n.slot = s->depth;
        n.name = std::string(id);
        n.where = t.where;
        return add(std::move(n), s->range);
      }
    if (id == "pi" || id == "e") {
      not_indexable("a built-in constant");
      return number(id == "pi" ? 3.14159265358979323846 : 2.71828182845904523536, id, t.where);
    }
    const symbol* s = b_.symbols.find(id);
    if (!s) {
      std::vector<std::string> declared;  // innermost first: on a tie the nearest name wins
      for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) declared.emplace_back(scope->name);
      declared.insert(declared.end(), b_.symbols.names.begin(), b_.symbols.names.end());
      std::vector<std::string> candidates = declared;
      candidates.insert(candidates.end(), {"pi", "e"});
      for (const function_info& f : functions) candidates.emplace_back(f.name);  // `coss` -> cos, values first on a tie
      std::string lower(id.substr(0, 16));
      std::transform(lower.begin(), lower.end(), lower.begin(), [](char c) { return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; });
      const bool non_finite = lower == "inf" || lower == "infinity" || lower == "nan";
      std::string hint = non_finite ? " (only finite numbers are allowed)" : did_you_mean(id, candidates);
      if (hint.empty()) hint = "; the names here are " + name_list(declared);  // no close one: say which there are
      fail(from_, t.where, "unknown name " + quoted(id) + hint);
    }
    if (s->table >= 0) return lookup(t, s->table);
    if (!s->is_variable) {
      not_indexable("a constant");
      return number(s->value, id, t.where);
    }
    return gene(t, b_.p.variables[static_cast<std::size_t>(s->variable)]);
  }

  int number(double value, std::string_view name, location where) {
    node n;
    n.kind = node_kind::number;
    n.value = value;
    n.name = std::string(name);
    n.where = where;
    return add(std::move(n));
  }

  /// `x` or `v[k]`: a scalar is never indexed, a vector always, with an integer index inside the vector.
  int gene(const token& t, const variable& v) {
    node n;
    n.kind = node_kind::gene;
    n.slot = v.first_gene;
    n.size = v.size;
    n.name = v.name;
    n.where = t.where;
    if (peek().kind != token_kind::lbracket) {
      if (v.vector)
        fail(from_, t.where,
             fmt::format("'{}' is a vector of {} elements; expected an index such as {}[0] (0-based) or a reduction such as "
                         "sum(i=0:{}, {}[i])",
                         v.name, v.size, v.name, v.size - 1, v.name));
      return add(std::move(n));
    }
    if (!v.vector) fail(from_, peek().where, fmt::format("'{}' is a scalar variable and cannot be indexed", v.name));
    const int index = subscript();
    const std::optional<int_range>& r = b_.range(index);
    if (!r) {
      const auto [at, why] = why_not_integer(b_.p, b_.ranges, index);
      fail_at(at, fmt::format("the index of '{}' must be an integer expression (integers, integer constants and reduction "
                              "indices with + - *): {}",
                              v.name, why));
    }
    if (r->lo < 0 || r->hi > v.size - 1) {
      const std::string valid = fmt::format("'{}' has {} elements: indices 0 to {}", v.name, v.size, v.size - 1);
      if (r->single()) fail_at(index, fmt::format("index {} is out of range; {}", r->lo, valid));
      fail_at(index, fmt::format("index {} ranges over {} to {}, outside the vector; {}", quoted(to_string(b_.p, index)), r->lo,
                                 r->hi, valid));
    }
    n.a = index;
    return add(std::move(n));
  }

  /// `[index]` after a variable or table name ('[' is next): the index expression.
  int subscript() {
    const token& open = next();
    if (peek().kind == token_kind::rbracket) fail(from_, peek().where, "unexpected ']'; expected an index");
    const int index = sum();
    expect(token_kind::rbracket, "']' to close the '[' at " + position(from_, open.where));
    return index;
  }

  /// `T[e]` for table constant `table`: any expression indexes it (rounded when evaluated, NaN outside the
  /// table), so unlike a vector's index nothing is checked here.
  int lookup(const token& t, int table) {
    const std::string& name = b_.p.tables[static_cast<std::size_t>(table)].name;
    if (peek().kind != token_kind::lbracket) fail(from_, t.where, fmt::format("table constant '{}' must be indexed: {}[k]", name, name));
    node n;
    n.kind = node_kind::lookup;
    n.slot = table;
    n.name = name;
    n.where = t.where;
    n.a = subscript();
    return add(std::move(n));
  }

  /// `fn(args)` or `red(i=a:b, body)`; the name token is consumed, '(' is next.
  int call(const token& t) {
    const std::string_view id = t.text;
    const std::optional<reduction> red = find_reduction(id);
    if (red && peek(1).kind == token_kind::name && peek(2).kind == token_kind::assign) return reduce(t, *red);
    const function_info* f = find_function(id);
    if (!f) {
      if (red) fail(from_, peek(1).where, fmt::format("unexpected {}; expected an index as in {}(i=0:4, x[i])", describe(peek(1)), id));
      const symbol* s = b_.symbols.find(id);
      const bool index = std::any_of(scopes_.begin(), scopes_.end(), [&](const index_scope& scope) { return scope.name == id; });
      if (s && s->table >= 0)
        fail(from_, t.where, fmt::format("'{}' is a table constant, not a function (write {}[k] for its entry k)", id, id));
      if (s || index || id == "pi" || id == "e") {
        const char* what = index ? "an index variable" : !s ? "a built-in constant" : s->is_variable ? "a variable" : "a constant";
        fail(from_, t.where, fmt::format("'{}' is {}, not a function (write {}*(...) for a product)", id, what, id));
      }
      std::vector<std::string> candidates;
      for (const function_info& fi : functions) candidates.emplace_back(fi.name);
      for (const reduction_info& ri : reductions) candidates.emplace_back(ri.name);
      fail(from_, t.where, "unknown function " + quoted(id) + did_you_mean(id, candidates));
    }
    next();  // '('
    std::vector<int> args;
    if (peek().kind != token_kind::rparen) {
      args.push_back(sum());
      while (peek().kind == token_kind::comma) {
        next();
        args.push_back(sum());
      }
    }
    expect(token_kind::rparen, fmt::format("',' or ')' in the arguments of '{}'", id));
    if (static_cast<int>(args.size()) != f->arity) {
      const std::string also = red ? fmt::format(" (or {}(i=a:b, expr) for a reduction)", id) : "";
      fail(from_, t.where,
           fmt::format("'{}' takes {} argument{}{}, got {}", id, f->arity, f->arity == 1 ? "" : "s", also, args.size()));
    }
    if (f->is_pow) return binary(node_kind::power, args[0], args[1]);
    node n;
    n.kind = node_kind::call;
    n.fn = f->fn;
    n.name = std::string(id);
    n.a = args[0];
    if (args.size() > 1) n.b = args[1];
    n.where = t.where;
    return add(std::move(n));
  }

  /// `red(i = lower : upper, body)`; the reduction's name is consumed, '(' is next.
  int reduce(const token& t, reduction red) {
    next();  // '('
    const token& index = next();
    check_index_name(index);
    next();  // '='
    const int lower = sum();
    expect(token_kind::colon, fmt::format("':' between the bounds of '{}', as in {}({}=0:4, ...)", t.text, t.text, index.text));
    const int upper = sum();
    expect(token_kind::comma, fmt::format("',' before the body of '{}'", t.text));
    const int_range lo = bound(lower, "lower", t.text);
    const int_range hi = bound(upper, "upper", t.text);
    if (lo.lo > hi.hi) {
      if (lo.single() && hi.single())
        fail_at(lower, fmt::format("empty range {}:{} in '{}'; bounds are inclusive and need lower <= upper", lo.lo, hi.hi, t.text));
      fail_at(lower, fmt::format("the range of '{}' is always empty: the lower bound is at least {}, the upper at most {}", t.text,
                                 lo.lo, hi.hi));
    }
    // An empty sum is 0 and an empty product 1, but an empty min or max has no value.
    if ((red == reduction::min || red == reduction::max) && lo.hi > hi.lo)
      fail_at(lower, fmt::format("the range of '{}' may be empty: the lower bound reaches {} and the upper bound {}", t.text, lo.hi,
                                 hi.lo));
    const int depth = static_cast<int>(scopes_.size());
    scopes_.push_back({index.text, depth, int_range{lo.lo, hi.hi}});
    const int body = sum();
    scopes_.pop_back();
    expect(token_kind::rparen, fmt::format("')' to close '{}('", t.text));
    b_.p.max_reduction_depth = std::max(b_.p.max_reduction_depth, depth + 1);
    node n;
    n.kind = node_kind::reduce;
    n.red = red;
    n.slot = depth;
    n.a = lower;
    n.b = upper;
    n.c = body;
    n.name = std::string(index.text);
    n.where = t.where;
    return add(std::move(n));
  }

  /// An index variable may not hide anything: a built-in, a variable, a constant or an outer index.
  void check_index_name(const token& index) {
    const std::string_view id = index.text;
    if (const char* reserved = reserved_as(id))
      fail(from_, index.where, fmt::format("'{}' is reserved ({}) and cannot name an index variable", id, reserved));
    if (const symbol* s = b_.symbols.find(id))
      fail(from_, index.where,
           fmt::format("index variable '{}' would shadow the {} '{}'; choose another name", id, s->is_variable ? "variable" : "constant", id));
    for (const index_scope& s : scopes_)
      if (s.name == id)
        fail(from_, index.where, fmt::format("index variable '{}' would shadow the index of an enclosing reduction; choose another name", id));
  }

  /// The range of a reduction bound, which must be an integer expression within ±integer_limit.
  int_range bound(int id, const char* which, std::string_view red) const {
    const std::optional<int_range>& r = b_.range(id);
    if (!r) {
      const auto [at, why] = why_not_integer(b_.p, b_.ranges, id);
      fail_at(at, fmt::format("the {} bound of '{}' must be an integer expression (integers, integer constants and reduction "
                              "indices with + - *): {}",
                              which, red, why));
    }
    if (!r->within(-integer_limit, integer_limit))
      fail_at(id, fmt::format("the {} bound of '{}' reaches {}; bounds must stay within -{} to {}", which, red,
                              r->lo < -integer_limit ? r->lo : r->hi, integer_limit, integer_limit));
    return *r;
  }

  /// Rejects division by a literal zero, also `-0` and a constant that is 0.
  void check_divisor(int id) const {
    const node& n = b_.at(id).kind == node_kind::negate ? b_.at(b_.at(id).a) : b_.at(id);
    if (n.kind != node_kind::number || n.value != 0) return;
    fail_at(id, n.name.empty() ? std::string("division by zero") : fmt::format("division by zero: '{}' is 0", n.name));
  }

  builder& b_;
  origin from_;
  std::vector<token> tokens_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  std::vector<index_scope> scopes_;
};

}  // namespace
}  // namespace parsing

program parse_program(const problem_source& source) {
  program p;
  p.sense = source.sense;
  const parsing::symbol_table symbols = parsing::check_declarations(source, p);
  parsing::builder b{p, symbols, {}, {}, {}, 0};
  p.objective = parsing::parser(b, source.file, source.objective).objective();
  p.objective_text = source.objective.text;
  for (const source_text& text : source.constraints) p.constraints.push_back(parsing::parser(b, source.file, text).comparison(text));
  return p;
}

}  // namespace fusedga::expr
