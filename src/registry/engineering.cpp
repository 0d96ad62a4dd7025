// Classic constrained engineering design problems.
#include <fusedga/problems/engineering/pressure_vessel.hpp>
#include <fusedga/problems/engineering/speed_reducer.hpp>
#include <fusedga/problems/engineering/tension_compression_spring.hpp>
#include <fusedga/problems/engineering/three_bar_truss.hpp>
#include <fusedga/problems/engineering/welded_beam.hpp>

#include "registry/entry.hpp"

namespace fusedga::detail {

void register_engineering(std::vector<problem_entry>& out) {
  out.push_back(make_entry("engineering/pressure-vessel", "minimize the cost of a cylindrical pressure vessel (4 vars, 4 constraints)", {}, false,
                           [](auto tag, const auto&) { return problems::PressureVessel<typename decltype(tag)::type>{}; }));
  out.push_back(make_entry("engineering/welded-beam", "minimize the fabrication cost of a welded beam (4 vars, 7 constraints)", {}, false,
                           [](auto tag, const auto&) { return problems::WeldedBeam<typename decltype(tag)::type>{}; }));
  out.push_back(make_entry("engineering/tension-compression-spring", "minimize the weight of a tension/compression spring (3 vars, 4 constraints)", {},
                           false, [](auto tag, const auto&) { return problems::TensionCompressionSpring<typename decltype(tag)::type>{}; }));
  out.push_back(make_entry("engineering/speed-reducer", "minimize the weight of a speed reducer (7 vars, 11 constraints)", {}, false,
                           [](auto tag, const auto&) { return problems::SpeedReducer<typename decltype(tag)::type>{}; }));
  out.push_back(make_entry("engineering/three-bar-truss", "minimize the volume of a three-bar truss (2 vars, 3 constraints)", {}, false,
                           [](auto tag, const auto&) { return problems::ThreeBarTruss<typename decltype(tag)::type>{}; }));
}

}  // namespace fusedga::detail
