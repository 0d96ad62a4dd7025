#include "report/report_writer.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include <fmt/format.h>

#include "fusedga/core/error.hpp"
#include "report/bench_json.hpp"
#include "report/plot_gnuplot.hpp"
#include "report/report_csv.hpp"
#include "report/report_markdown.hpp"
#include "report/report_metrics.hpp"
#include "report/report_staging.hpp"

namespace fusedga {

namespace fs = std::filesystem;

namespace {

/// Every file a report may contain; those a run does not produce are removed from an existing directory.
const std::vector<std::string> known_outputs{"results.json", "results.csv", "plots.gp",     "time.dat",
                                             "speedup.dat",  "roofline.dat", "time.svg",    "time.png",
                                             "speedup.svg",  "speedup.png",  "roofline.svg", "roofline.png",
                                             "report.md"};

void write_file(const fs::path& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  out.close();
  if (!out) throw error("cannot write " + path.string() + ": " + std::strerror(errno));
}

/// `dir` absolute and normalized, without a trailing separator ("out/" -> ".../out").
fs::path report_path(const std::string& dir) {
  fs::path p = fs::absolute(dir).lexically_normal();
  return p.has_filename() ? p : p.parent_path();
}

}  // namespace

void check_report_dir(const std::string& dir) {
  if (dir.empty()) throw config_error("--report: the directory name is empty");
  const fs::path target = report_path(dir);
  std::error_code ec;
  if (fs::exists(target, ec)) {
    if (!fs::is_directory(target, ec))
      throw config_error("--report " + dir + ": exists and is not a directory (expected a directory to write into)");
  }
  const fs::path parent = target.parent_path();
  if (!fs::is_directory(parent, ec))
    throw config_error("--report " + dir + ": directory " + parent.string() + " does not exist (create it first)");
  if (fs::exists(target, ec) && ::access(target.c_str(), W_OK) != 0)
    throw config_error("--report " + dir + ": directory is not writable");
  try {  // the staging directory the report is written into, made and removed: access() says yes to root everywhere
    const staged_directory probe(target);
  } catch (const error& e) {
    throw config_error("--report " + dir + ": " + e.what() + " (checked before measuring)");
  }
}

report_outcome write_report_dir(const bench_report& report, const std::string& dir, const report_options& options) {
  check_report_dir(dir);
  bench_report r = report;
  derive_row_metrics(r);
  const fs::path target = report_path(dir);

  report_outcome outcome;
  outcome.dir = target.string();
  staged_directory staging(target);
  std::vector<std::string> files;
  const auto put = [&](const std::string& name, const std::string& content) {
    write_file(staging.path() / name, content);
    files.push_back(name);
  };
  put("results.json", bench_report_json(r).dump(2) + "\n");
  put("results.csv", bench_rows_csv(r));

  markdown_options md;
  md.command = options.command;
  if (options.plots && !r.rows.empty()) {
    const plot_inputs in = gnuplot_inputs(r);
    for (const auto& [name, content] : in.files) put(name, content);
    const std::string gnuplot = find_gnuplot(options.gnuplot);
    if (gnuplot.empty()) {
      outcome.notices.push_back(
          "Plots not drawn: gnuplot was not found (install the Debian package gnuplot-nox, or set FUSEDGA_GNUPLOT to "
          "its path); run `gnuplot plots.gp` in this directory to draw them from the data files.");
    } else {
      const gnuplot_run run = run_gnuplot(gnuplot, staging.path().string(), "plots.gp", in.images);
      if (run.ok) {
        outcome.plotted = true;
        for (const auto& image : in.images) files.push_back(image);
        for (const auto& image : in.images)
          if (image.size() > 4 && image.compare(image.size() - 4, 4, ".svg") == 0)
            md.plots.push_back(image.substr(0, image.size() - 4));
        if (!run.version.empty()) md.plotter = "gnuplot " + run.version;
      } else {
        for (const auto& image : in.images) {  // no partial set of plots
          std::error_code ec;
          fs::remove(staging.path() / image, ec);
        }
        outcome.notices.push_back("Plots not drawn: " + run.message);
      }
    }
    if (outcome.plotted)
      for (const auto& o : in.omitted) outcome.notices.push_back(o + ".");
  } else if (!options.plots) {
    outcome.notices.push_back("Plots not drawn: disabled for this run.");
  }
  md.plot_notices = outcome.notices;
  put("report.md", format_report_markdown(r, md));

  // Commit: the whole directory at once; earlier plots this run does not draw go with the old directory.
  staging.commit(known_outputs);
  std::vector<std::string> ordered;
  for (const auto& name : files)
    if (name != "report.md") ordered.push_back(name);
  ordered.push_back("report.md");
  outcome.files = ordered;
  return outcome;
}

}  // namespace fusedga

namespace fusedga {

report_outcome write_report_files(const std::string& dir, const report_files& in, const report_options& options) {
  check_report_dir(dir);
  const fs::path target = report_path(dir);
  report_outcome outcome;
  outcome.dir = target.string();
  staged_directory staging(target);
  std::vector<std::string> files;
  for (const auto& [name, content] : in.files) {
    write_file(staging.path() / name, content);
    files.push_back(name);
  }
  if (options.plots && !in.plot_script.empty() && !in.images.empty()) {
    const std::string gnuplot = find_gnuplot(options.gnuplot);
    if (gnuplot.empty()) {
      outcome.notices.push_back(
          "Plots not drawn: gnuplot was not found (install the Debian package gnuplot-nox, or set FUSEDGA_GNUPLOT to "
          "its path); run `gnuplot " + in.plot_script + "` in this directory to draw them from the data files.");
    } else {
      const gnuplot_run run = run_gnuplot(gnuplot, staging.path().string(), in.plot_script, in.images);
      if (run.ok) {
        outcome.plotted = true;
        for (const auto& image : in.images) files.push_back(image);
      } else {
        for (const auto& image : in.images) {
          std::error_code ec;
          fs::remove(staging.path() / image, ec);
        }
        outcome.notices.push_back("Plots not drawn: " + run.message);
      }
    }
  } else if (!options.plots) {
    outcome.notices.push_back("Plots not drawn: disabled for this run.");
  }
  write_file(staging.path() / in.index_name, in.index ? in.index(outcome.notices, outcome.plotted) : std::string());
  files.push_back(in.index_name);

  std::vector<std::string> replaced = in.known_outputs;
  replaced.insert(replaced.end(), files.begin(), files.end());
  staging.commit(replaced);
  outcome.files = files;
  return outcome;
}

}  // namespace fusedga
