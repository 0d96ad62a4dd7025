#include "bench/bench_labels.hpp"

#include <utility>

#include "fusedga/core/error.hpp"

namespace fusedga {

namespace {

/// The text of each tier, in declaration order (checked below).
constexpr std::pair<bench_tier, const char*> tier_text[] = {
    {bench_tier::object, "object"},
    {bench_tier::unfused, "unfused"},
    {bench_tier::interpreter, "interpreter"},
    {bench_tier::fused_interp, "fused-interp"},
    {bench_tier::fused, "fused"},
    {bench_tier::fused_transfer, "fused-transfer"},
    {bench_tier::fused_jit, "fused-jit"},
    {bench_tier::builtin, "builtin"},
    {bench_tier::builtin_transfer, "builtin-transfer"},
};
constexpr std::pair<bench_workload, const char*> workload_text[] = {
    {bench_workload::eval, "eval"},
    {bench_workload::generation, "generation"},
};

template <class Label, std::size_t N>
constexpr bool in_order(const std::pair<Label, const char*> (&table)[N], const Label (&values)[N]) {
  for (std::size_t i = 0; i < N; ++i)
    if (table[i].first != values[i] || static_cast<std::size_t>(values[i]) != i) return false;
  return true;
}
static_assert(in_order(tier_text, bench_tiers), "tier_text and bench_tiers follow bench_tier's declaration order");
static_assert(in_order(workload_text, bench_workloads), "workload_text follows bench_workload's declaration order");

}  // namespace

const char* to_string(bench_tier t) { return tier_text[static_cast<std::size_t>(t)].second; }

const char* to_string(bench_workload w) { return workload_text[static_cast<std::size_t>(w)].second; }

namespace detail {
void throw_unknown_label(std::string_view text, std::string_view what, const std::string& allowed) {
  throw config_error(std::string(what) + ": unknown value '" + std::string(text) + "'; expected one of: " + allowed);
}
}  // namespace detail

}  // namespace fusedga
