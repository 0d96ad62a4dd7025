#include "report/plot_gnuplot.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "fusedga/core/error.hpp"
#include "report/report_markdown.hpp"  // with_commas
#include "report/report_metrics.hpp"

extern char** environ;

namespace fusedga {

namespace {

/// A gnuplot single-quoted string literal (no escapes inside; a quote is doubled).
std::string gp_string(const std::string& s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

/// A double-quoted label for a data file (gnuplot's data reader has no escapes: quotes are dropped).
std::string data_label(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '"'), s.end());
  return "\"" + s + "\"";
}

const char* workload_title(bench_workload w) { return w == bench_workload::eval ? "evaluation only" : "full generation"; }

/// Terminal setup: both formats from one loop variable `ext` of the script.
const char* terminal_preamble =
    "# Redraw with: gnuplot plots.gp (in this directory). Data: time.dat, speedup.dat, roofline.dat.\n"
    "print sprintf('gnuplot-version: %.1f patchlevel %s', GPVAL_VERSION, GPVAL_PATCHLEVEL)\n"
    "png_term = (strstrt(GPVAL_TERMINALS, ' pngcairo ') > 0) ? 'pngcairo' : 'png'\n"
    "set datafile commentschars '#'\n"
    "set grid\n"
    "set key outside right top vertical noenhanced\n";

/// `set terminal` for `ext` ("svg" or "png") at width × height pixels.
std::string terminal(int width, int height) {
  return fmt::format(
      "  if (ext eq 'svg') {{ set terminal svg size {0},{1} dynamic noenhanced font 'Sans,11' background '#ffffff' }} "
      "else {{ eval sprintf(\"set terminal %s size {0},{1} noenhanced font 'Sans,10'\", png_term) }}\n",
      width, height);
}

void time_plot(const bench_report& r, plot_inputs& in, std::string& gp) {
  std::string dat =
      "# ga-bench: time per call in ms against population size N, one block (gnuplot index) per configuration\n"
      "# columns: N median_ms min_ms max_ms\n";
  std::vector<bench_workload> workloads;
  for (const bench_workload w : bench_workloads)
    if (!configurations(r.rows, w).empty()) workloads.push_back(w);
  int index = 0;
  std::vector<std::vector<std::pair<int, std::string>>> series(workloads.size());  // per panel: (index, title)
  for (std::size_t k = 0; k < workloads.size(); ++k)
    for (const bench_row* c : configurations(r.rows, workloads[k])) {
      // Blocks are separated by two blank lines; none before the first, or gnuplot sees an empty index 0.
      dat += fmt::format("{}# index {}: {}, {}\n", index ? "\n\n" : "", index, to_string(workloads[k]),
                         row_label(*c, true));
      for (const std::size_t n : population_sizes(r.rows, workloads[k]))
        if (const bench_row* row = find_row(r.rows, *c, workloads[k], n))
          dat += fmt::format("{} {} {} {}\n", n, row->median_ms, row->min_ms, row->max_ms);
      series[k].emplace_back(index++, row_label(*c, true));
    }
  in.files.emplace_back("time.dat", dat);

  gp += "\n# Time per call against population size, log-log.\n";
  gp += "do for [ext in 'svg png'] {\n" + terminal(workloads.size() > 1 ? 1400 : 800, 520);
  gp += "  set output 'time.'.ext\n";
  gp += fmt::format("  set multiplot layout 1,{} title {}\n", workloads.size(),
                    gp_string(fmt::format("{}: time per call (median, min-max bars), {}", r.problem, r.precision)));
  gp += "  set logscale xy\n  set format x '1e%T'\n  set xlabel 'population size N'\n  set ylabel 'ms per call'\n";
  gp += "  set key inside left top\n";
  for (std::size_t k = 0; k < workloads.size(); ++k) {
    gp += fmt::format("  set title {}\n  plot ", gp_string(workload_title(workloads[k])));
    for (std::size_t s = 0; s < series[k].size(); ++s)
      gp += fmt::format("{}'time.dat' index {} using 1:2:3:4 with yerrorlines lw 2 title {}", s ? ", \\\n       " : "",
                        series[k][s].first, gp_string(series[k][s].second));
    gp += "\n";
  }
  gp += "  unset multiplot\n  set output\n  unset logscale\n  set format x\n}\n";
  in.images.push_back("time.svg");
  in.images.push_back("time.png");
}

void speedup_plot(const bench_report& r, plot_inputs& in, std::string& gp) {
  std::string dat = "# ga-bench: speedup over the slowest configuration at the largest N of each workload\n"
                    "# columns: label speedup_vs_slowest median_ms; index 0 = first workload panel\n";
  std::vector<std::pair<bench_workload, std::size_t>> panels;
  for (const bench_workload w : bench_workloads) {
    const auto sizes = population_sizes(r.rows, w);
    if (sizes.empty()) continue;
    const std::size_t n = sizes.back();
    dat += fmt::format("{}# {} at N = {}\n", panels.empty() ? "" : "\n\n", to_string(w), n);
    for (const bench_row* c : configurations(r.rows, w))
      if (const bench_row* row = find_row(r.rows, *c, w, n))
        dat += fmt::format("{} {} {}\n", data_label(row_label(*row, true)), row->speedup_vs_slowest.value_or(1.0),
                           row->median_ms);
    panels.emplace_back(w, n);
  }
  in.files.emplace_back("speedup.dat", dat);

  gp += "\n# Speedup over the slowest configuration at the largest population size.\n";
  gp += "do for [ext in 'svg png'] {\n" + terminal(panels.size() > 1 ? 1400 : 800, 520);
  gp += "  set output 'speedup.'.ext\n";
  gp += fmt::format("  set multiplot layout 1,{} title {}\n", panels.size(),
                    gp_string(fmt::format("{}: speedup over the slowest configuration", r.problem)));
  gp += "  set style fill solid 0.6 border -1\n  set boxwidth 0.6\n  set logscale y\n  set yrange [0.5:*]\n";
  gp += "  unset xlabel\n  set ylabel 'speedup (x)'\n  set xtics rotate by -30 noenhanced\n  unset key\n";
  for (std::size_t k = 0; k < panels.size(); ++k) {
    gp += fmt::format("  set title {}\n", gp_string(fmt::format("{}, N = {}", workload_title(panels[k].first), with_commas(panels[k].second))));
    gp += fmt::format(
        "  plot 'speedup.dat' index {0} using 0:2:xtic(1) with boxes, \\\n"
        "       'speedup.dat' index {0} using 0:2:(sprintf('%.3gx', $2)) with labels offset 0,0.8\n",
        k);
  }
  gp += "  unset multiplot\n  set output\n  unset logscale\n  set yrange [*:*]\n  set xtics norotate\n  set key\n}\n";
  in.images.push_back("speedup.svg");
  in.images.push_back("speedup.png");
}

void roofline_plot(const bench_report& r, plot_inputs& in, std::string& gp) {
  const auto sizes = population_sizes(r.rows, bench_workload::eval);
  const auto& env = r.environment;
  if (r.flops_per_evaluation <= 0) {
    in.omitted.push_back("roofline chart not drawn: the FLOPs per evaluation of this problem are unknown");
    return;
  }
  if (sizes.empty()) {
    in.omitted.push_back("roofline chart not drawn: no evaluation rows");
    return;
  }
  std::vector<std::pair<double, double>> roofs;  // (copy GB/s, peak GFLOP/s) per thread count
  std::vector<int> roof_threads;
  for (const auto& [t, bw] : env.copy_gb_per_s)
    if (const auto p = env.peak_gflop_per_s.find(t); p != env.peak_gflop_per_s.end() && bw > 0 && p->second > 0) {
      roofs.emplace_back(bw, p->second);
      roof_threads.push_back(t);
    }
  if (roofs.empty()) {
    in.omitted.push_back("roofline chart not drawn: copy bandwidth and peak FLOP/s were not both measured");
    return;
  }
  const std::size_t n = sizes.back();
  std::string dat = fmt::format(
      "# ga-bench: evaluation rows at N = {}: arithmetic intensity (flop/byte), GFLOP/s, label, label side\n"
      "# (rows by GFLOP/s; side 0 = label right of the point, 1 = left, alternating so neighbours do not overlap)\n",
      n);
  std::vector<const bench_row*> points;
  for (const bench_row* c : configurations(r.rows, bench_workload::eval))
    if (const bench_row* row = find_row(r.rows, *c, bench_workload::eval, n); row && row->arithmetic_intensity > 0) points.push_back(row);
  std::stable_sort(points.begin(), points.end(),
                   [](const bench_row* a, const bench_row* b) { return a->gflop_per_s < b->gflop_per_s; });
  double lo = 1e300, hi = 0, ymax = 0;
  for (std::size_t k = 0; k < points.size(); ++k) {
    const bench_row& row = *points[k];
    dat += fmt::format("{} {} {} {}\n", row.arithmetic_intensity, row.gflop_per_s, data_label(row_label(row, true)), k % 2);
    lo = std::min(lo, row.arithmetic_intensity);
    hi = std::max(hi, row.arithmetic_intensity);
    ymax = std::max(ymax, row.gflop_per_s);
  }
  // The GPU's memory roof (device copy bandwidth of the device-resident rows); no peak FLOP/s is measured there.
  double gpu_bw = 0;
  for (const bench_row* row : points)
    if (row->backend == backend_kind::cuda && row->tier == bench_tier::fused) gpu_bw = std::max(gpu_bw, row->copy_gb_per_s);
  for (const auto& [bw, peak] : roofs) {
    lo = std::min(lo, peak / bw);  // the ridge points
    hi = std::max(hi, peak / bw);
    ymax = std::max(ymax, peak);
  }
  if (gpu_bw > 0) ymax = std::max(ymax, hi * 10 * gpu_bw / 3);  // the GPU line stays visible across the range
  in.files.emplace_back("roofline.dat", dat);

  gp += "\n# Roofline: attainable GFLOP/s = min(peak, intensity x copy bandwidth), per thread count.\n";
  for (std::size_t k = 0; k < roofs.size(); ++k)
    gp += fmt::format("bw{0} = {1}\npk{0} = {2}\nroof{0}(x) = (x * bw{0} < pk{0}) ? x * bw{0} : pk{0}\n", k,
                      roofs[k].first, roofs[k].second);
  gp += "do for [ext in 'svg png'] {\n" + terminal(1000, 620);
  gp += "  set output 'roofline.'.ext\n";
  gp += fmt::format("  set title {}\n",
                    gp_string(fmt::format("{}: roofline, evaluation at N = {} ({:.3g} flop per individual)", r.problem,
                                          with_commas(n), r.flops_per_evaluation)));
  gp += "  set logscale xy\n  set xlabel 'arithmetic intensity (flop/byte, bytes model)'\n  set ylabel 'GFLOP/s'\n";
  gp += fmt::format("  set xrange [{}:{}]\n  set yrange [*:{}]\n  set samples 400\n  set key inside right bottom\n",
                    lo / 10, hi * 10, ymax * 3);
  gp += "  plot ";
  for (std::size_t k = 0; k < roofs.size(); ++k)
    gp += fmt::format("roof{} (x) with lines lw 2 dt {} title {}, \\\n       ", k, k + 1,
                      gp_string(fmt::format("{} thread{}: {:.1f} GB/s copy, {:.1f} GFLOP/s peak", roof_threads[k],
                                            roof_threads[k] == 1 ? "" : "s", roofs[k].first, roofs[k].second)));
  if (gpu_bw > 0)
    gp += fmt::format("x * {} with lines lw 2 dt {} title {}, \\\n       ", gpu_bw, roofs.size() + 1,
                      gp_string(fmt::format("GPU: {:.1f} GB/s device copy (peak FLOP/s not measured)", gpu_bw)));
  gp += "'roofline.dat' using 1:2 with points pt 7 ps 1.5 title 'measured', \\\n"
        "       'roofline.dat' using 1:($4 == 0 ? $2 : 1/0):3 with labels left offset 1,0 notitle, \\\n"
        "       'roofline.dat' using 1:($4 == 1 ? $2 : 1/0):3 with labels right offset -1,0 notitle\n";
  gp += "  set output\n  unset logscale\n  set xrange [*:*]\n  set yrange [*:*]\n}\n";
  in.images.push_back("roofline.svg");
  in.images.push_back("roofline.png");
}

}  // namespace

plot_inputs gnuplot_inputs(const bench_report& r) {
  plot_inputs in;
  if (r.rows.empty()) return in;
  std::string gp = std::string("# ga-bench plots for ") + r.problem + "\n" + terminal_preamble;
  time_plot(r, in, gp);
  speedup_plot(r, in, gp);
  roofline_plot(r, in, gp);
  in.files.emplace_back("plots.gp", gp);
  return in;
}

std::string find_gnuplot(const std::string& override_path) {
  const auto executable = [](const std::string& p) {
    struct stat st {};
    return !p.empty() && ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
  };
  std::string chosen = override_path;
  if (chosen.empty())
    if (const char* env = std::getenv("FUSEDGA_GNUPLOT"); env && *env) chosen = env;
  if (!chosen.empty()) return executable(chosen) ? chosen : std::string();
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/gnuplot";
    if (executable(candidate)) return candidate;
  }
  return {};
}

gnuplot_run run_gnuplot(const std::string& gnuplot, const std::string& dir, const std::string& script,
                        const std::vector<std::string>& images, double timeout_s) {
  namespace fs = std::filesystem;
  gnuplot_run result;
  std::string log = (fs::path(dir) / ".gnuplot-log-XXXXXX").string();
  const int log_fd = ::mkstemp(log.data());
  if (log_fd < 0) throw error("cannot create a log file in " + dir + ": " + std::strerror(errno));
  const auto read_log = [&] {
    std::ifstream in(log);
    std::stringstream s;
    s << in.rdbuf();
    ::unlink(log.c_str());
    return s.str();
  };

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, log_fd, 1);
  posix_spawn_file_actions_adddup2(&actions, log_fd, 2);
  posix_spawn_file_actions_addclose(&actions, log_fd);
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  std::vector<std::string> args{gnuplot, script};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, gnuplot.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(log_fd);
  if (spawned != 0) {
    read_log();
    result.message = "cannot start " + gnuplot + ": " + std::strerror(spawned);
    return result;
  }

  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  bool timed_out = false;
  for (;;) {
    const pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) break;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  const std::string output = read_log();
  if (const auto v = output.find("gnuplot-version: "); v != std::string::npos)
    result.version = output.substr(v + 17, output.find('\n', v) - v - 17);
  const auto tail = [&] {
    std::string t = output.size() > 600 ? "..." + output.substr(output.size() - 600) : output;
    std::replace(t.begin(), t.end(), '\n', ' ');
    return t;
  };
  if (timed_out) {
    result.message = fmt::format("{} did not finish within {:.0f} s and was stopped", gnuplot, timeout_s);
    return result;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    result.message = fmt::format("{} failed ({}): {}", gnuplot,
                                 WIFEXITED(status) ? fmt::format("exit status {}", WEXITSTATUS(status))
                                                   : fmt::format("signal {}", WTERMSIG(status)),
                                 tail());
    return result;
  }
  for (const auto& image : images) {
    std::error_code ec;
    const auto size = fs::file_size(fs::path(dir) / image, ec);
    if (ec || size == 0) {
      result.message = fmt::format("{} did not write {}: {}", gnuplot, image, tail());
      return result;
    }
  }
  result.ok = true;
  return result;
}

}  // namespace fusedga
