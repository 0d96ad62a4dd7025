#include "bench/quality_budget.hpp"

#include <fmt/format.h>

#include "fusedga/core/error.hpp"

namespace fusedga {

std::uint64_t quality_budget::for_dimension(int d) const {
  if (!cec2020) return fixed;
  return d <= 10 ? 100000 : d <= 30 ? 200000 : d <= 50 ? 400000 : d <= 150 ? 800000 : 1000000;
}

std::string quality_budget::describe() const {
  if (!cec2020) return fmt::format("{} evaluations per run", fixed);
  return "by the CEC 2020 real-world competition's rule (Kumar et al. 2020): 10^5 evaluations per run for d <= 10, "
         "2*10^5 for d <= 30, 4*10^5 for d <= 50, 8*10^5 for d <= 150, 10^6 above (each problem's budget in its "
         "section)";
}

std::string quality_budget::text() const { return cec2020 ? std::string("cec2020") : std::to_string(fixed); }

quality_budget parse_quality_budget(const std::string& text) {
  quality_budget b;
  if (text == "cec2020") {
    b.cec2020 = true;
    return b;
  }
  const auto fail = [&] {
    return config_error("--budget: expected a positive number of evaluations or cec2020, got '" + text + "'");
  };
  if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos) throw fail();
  b.fixed = std::stoull(text);
  if (b.fixed == 0) throw fail();
  return b;
}

}  // namespace fusedga
