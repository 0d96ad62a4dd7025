// The JITs' cache rules (docs/expressions.md, "Caching and its security
// checks"): what is checked before anything is loaded (planted objects, links,
// foreign or group-writable files), broken entries (a directory where a file
// was), what a published object contains, and the temporaries of killed
// compiles. Issue 16, items 9, 10, 11 and 16.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <fusedga/expr/jit.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "expr/jit_cache.hpp"
#include "expr/program_builder.hpp"
#include "expr/temp_cache.hpp"

using namespace fusedga::expr;
using namespace expr_test;
namespace fs = std::filesystem;

namespace {

program cache_program() {
  return parsed({declared("x", 1, 1, 25), declared("y", 1, 3, 7)}, "x^2 + 3*y", {"x + y >= 5"},
                fusedga::Sense::minimize);
}

bool have_compiler() { return !find_compiler({}).empty(); }

std::string contents(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// objective(2, 4) through `e`: 4 + 12.
double objective_at_2_4(const evaluator<double>& e) {
  const double genes[2] = {2, 4};
  double objective = 0, violation = -1;
  e.evaluate(genes, 2, 1, 1, 1e-4, &objective, &violation);
  CHECK(violation == 0);
  return objective;
}

/// A shared object whose constructor creates `marker` (code that must never run), compiled into `path`.
void compile_planted(const fs::path& dir, const fs::path& path, const fs::path& marker) {
  const fs::path source = dir / "planted.cpp";
  std::ofstream(source) << "#include <cstdio>\n"
                           "__attribute__((constructor)) static void planted() {\n"
                           "  if (FILE* f = std::fopen(\""
                        << marker.string()
                        << "\", \"w\")) std::fclose(f);\n"
                           "}\n"
                           "extern \"C\" int fusedga_jit_abi_version() { return 2; }\n"
                           "extern \"C\" const char* fusedga_jit_key() { return \"planted\"; }\n";
  const std::string cmd = find_compiler({}) + " -shared -fPIC -o " + path.string() + " " + source.string();
  REQUIRE(std::system(cmd.c_str()) == 0);
}

}  // namespace

TEST_CASE("JIT cache: a planted object is refused before it is loaded, its constructor never runs", "[jit][cache]") {
  if (!have_compiler()) return;
  const temp_cache cache;
  const program p = cache_program();
  jit_stats first;
  jit_compile<double>(p, cache.options(), &first);
  const fs::path object = first.object_path, sidecar = fs::path(object).replace_extension(".sha256");
  const fs::path marker = cache.path / "constructor-ran";
  const fs::path planted = cache.path / "planted.so";
  compile_planted(cache.path, planted, marker);

  std::vector<std::string> expected;  // a digest mismatch is a plain miss; a forged digest is said
  SECTION("its digest does not match the recorded one") {
    fs::copy_file(planted, object, fs::copy_options::overwrite_existing);
  }
  SECTION("a digest to match was planted too: the object lacks its key") {
    fs::copy_file(planted, object, fs::copy_options::overwrite_existing);
    std::ofstream(sidecar, std::ios::trunc) << fusedga::expr::detail::sha256_hex(contents(planted)) << "\n";
    expected = {"JIT cache: " + object.string() + " does not carry its key; removed it, compiling again"};
  }
  jit_stats second;
  const auto e = jit_compile<double>(p, cache.options(), &second);
  CHECK(second.notices == expected);
  CHECK_FALSE(fs::exists(marker));  // not loaded, not even for a moment
  CHECK_FALSE(second.cache_hit);    // rebuilt
  CHECK(objective_at_2_4(*e) == 16);
  CHECK(contents(object) != contents(planted));
  jit_stats third;
  jit_compile<double>(p, cache.options(), &third);
  CHECK(third.cache_hit);
  CHECK(third.notices.empty());
  CHECK_FALSE(fs::exists(marker));
}

TEST_CASE("JIT cache: a linked, group-writable or foreign entry is refused, removed and rebuilt", "[jit][cache]") {
  if (!have_compiler()) return;
  const temp_cache cache;
  const program p = cache_program();
  jit_stats first;
  jit_compile<double>(p, cache.options(), &first);
  const fs::path object = first.object_path;
  std::string expected;
  SECTION("a symbolic link to a genuine copy is still refused (never followed)") {
    const fs::path genuine = cache.path / "genuine.so";
    fs::copy_file(object, genuine);
    fs::remove(object);
    fs::create_symlink(genuine, object);
    expected = object.string() + " is a symbolic link (never followed); removed it, compiling again";
  }
  SECTION("a group-writable object") {
    fs::permissions(object, fs::perms::group_write, fs::perm_options::add);
    expected = object.string() + " is writable by its group or others; removed it, compiling again";
  }
  SECTION("an object owned by another user (only root can make one)") {
    if (::geteuid() != 0) return;
    REQUIRE(::chown(object.c_str(), 4242, 4242) == 0);
    expected = object.string() + " is owned by another user (uid 4242); removed it, compiling again";
  }
  std::vector<std::string> told;
  jit_options options = cache.options();
  options.on_notice = [&](const std::string& line) { told.push_back(line); };
  jit_stats second;
  const auto e = jit_compile<double>(p, options, &second);
  CHECK_FALSE(second.cache_hit);
  REQUIRE(second.notices.size() == 1);
  CHECK(second.notices[0] == "JIT cache: " + expected);
  CHECK(told == second.notices);
  CHECK(objective_at_2_4(*e) == 16);
  CHECK(fs::is_regular_file(fs::symlink_status(object)));
  CHECK((fs::status(object).permissions() & (fs::perms::group_write | fs::perms::others_write)) == fs::perms::none);
}

TEST_CASE("JIT cache: a directory in place of an entry is removed, or bypassed, with a notice naming it",
          "[jit][cache]") {
  if (!have_compiler()) return;
  const temp_cache cache;
  const program p = cache_program();
  jit_stats first;
  jit_compile<double>(p, cache.options(), &first);
  const fs::path object = first.object_path, sidecar = fs::path(object).replace_extension(".sha256");
  SECTION("the object: removed, rebuilt, cached again") {
    fs::remove(object);
    fs::create_directories(object / "inside");
    jit_stats second;
    const auto e = jit_compile<double>(p, cache.options(), &second);
    CHECK(objective_at_2_4(*e) == 16);
    REQUIRE(second.notices.size() == 1);
    CHECK(second.notices[0] == "JIT cache: " + object.string() + " is a directory; removed it, compiling again");
    CHECK(fs::is_regular_file(object));
    jit_stats third;
    jit_compile<double>(p, cache.options(), &third);
    CHECK(third.cache_hit);
  }
  SECTION("the digest: removed, rebuilt") {
    fs::remove(sidecar);
    fs::create_directories(sidecar);
    jit_stats second;
    jit_compile<double>(p, cache.options(), &second);
    REQUIRE(second.notices.size() == 1);
    CHECK(second.notices[0] == "JIT cache: " + sidecar.string() + " is a directory; removed it, compiling again");
    CHECK(fs::is_regular_file(sidecar));
  }
  SECTION("a directory that cannot be removed: every run still works, uncached") {
    if (::geteuid() == 0) return;  // root removes it anyway
    fs::remove(object);
    fs::create_directories(object / "locked");
    std::ofstream(object / "locked" / "file") << "x";
    fs::permissions(object / "locked", fs::perms::owner_read | fs::perms::owner_exec);
    for (int run = 0; run < 2; ++run) {
      jit_stats s;
      const auto e = jit_compile<double>(p, cache.options(), &s);
      CHECK(objective_at_2_4(*e) == 16);
      CHECK_FALSE(s.cache_hit);
      REQUIRE(s.notices.size() == 2);
      CHECK(s.notices[0] ==
            "JIT cache: " + object.string() + " is a directory; cannot remove it, compiling without the cache");
      CHECK_THAT(s.notices[1], Catch::StartsWith("JIT cache: compiled, but cannot publish it as " + object.string()));
    }
    fs::permissions(object / "locked", fs::perms::owner_all);
  }
  // No compile directory is left behind, whatever happened.
  for (const auto& f : fs::directory_iterator(cache.dir())) CHECK(f.path().string().find(".tmp-") == std::string::npos);
}

TEST_CASE("JIT cache: a published object holds no temporary name and matches its digest", "[jit][cache]") {
  if (!have_compiler()) return;
  const temp_cache cache;
  jit_stats s;
  jit_compile<double>(cache_program(), cache.options(), &s);
  const std::string bytes = contents(s.object_path);
  CHECK(bytes.find(".tmp-") == std::string::npos);
  CHECK(bytes.find(std::to_string(::getpid())) == std::string::npos);
  CHECK(bytes.find("fusedga_jit.cpp") != std::string::npos);  // the fixed source name, the same in every process
  CHECK(contents(fs::path(s.object_path).replace_extension(".sha256")) ==
        fusedga::expr::detail::sha256_hex(bytes) + "\n");
}

TEST_CASE("JIT cache: temporaries of killed compiles are removed when the cache is opened", "[jit][cache]") {
  if (!have_compiler()) return;
  const temp_cache cache;
  const program p = cache_program();
  // Creates the cache, through another spelling of its directory: the compile below then finds the entry in the
  // cache but no module this process loaded under its own options (jit_stats::already_loaded opens nothing, so
  // would remove nothing).
  jit_options creating = cache.options();
  creating.cache_dir += "/.";
  jit_compile<double>(p, creating);
  // A PID that is surely dead: a child that has exited and been reaped.
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  const std::string host = fusedga::expr::detail::sha256_hex(name).substr(0, 8);
  const fs::path dir = cache.dir();
  const fs::path dead = dir / ("k1.tmp-" + host + "-" + std::to_string(child) + "-aaaaaa");
  const fs::path live = dir / ("k2.tmp-" + host + "-" + std::to_string(::getpid()) + "-bbbbbb");
  const fs::path old_live = dir / ("k3.tmp-" + host + "-" + std::to_string(::getpid()) + "-cccccc");
  const fs::path other_host = dir / ("k4.tmp-0badc0de-" + std::to_string(child) + "-dddddd");
  const fs::path old_format = dir / ("k5.tmp-" + std::to_string(child) + "-0.cpp");
  for (const fs::path& d : {dead, live, old_live, other_host}) {
    fs::create_directories(d);
    std::ofstream(d / "fusedga_jit.cpp") << "// left by a compile\n";
  }
  std::ofstream(old_format) << "// left by an older version\n";
  const auto two_hours_ago = fs::file_time_type::clock::now() - std::chrono::hours(2);
  fs::last_write_time(old_live, two_hours_ago);
  jit_stats s;
  jit_compile<double>(p, cache.options(), &s);
  CHECK(s.cache_hit);
  CHECK_FALSE(s.already_loaded);
  CHECK_FALSE(fs::exists(dead));        // this host, its PID is gone
  CHECK_FALSE(fs::exists(old_format));  // the same, in the older naming
  CHECK_FALSE(fs::exists(old_live));    // older than an hour, whoever wrote it
  CHECK(fs::exists(live));              // a compile still running here
  CHECK(fs::exists(other_host));        // another host's PID means nothing here: kept until it is old
}

// The GPU JIT's cubin cache (src/cuda/device_jit.cpp) runs these rules through cached_or_build with its
// compile-and-link step as `build`; here `build` is a counted stand-in, so no GPU, NVRTC or nvJitLink is needed.
namespace {

struct cubin_cache {
  temp_cache temp;
  fs::path object, sidecar;
  int builds = 0;
  std::vector<std::string> notices;
  cubin_cache() {
    fusedga::expr::detail::ensure_private_directory(temp.dir());
    object = fs::path(temp.dir()) / "0123abcd.cubin";
    sidecar = fs::path(temp.dir()) / "0123abcd.cubin.sha256";
  }
  fusedga::expr::detail::cached_bytes get(const std::string& image = "\x7f" "ELF cubin bytes") {
    notices.clear();
    return fusedga::expr::detail::cached_or_build(
        object.string(), sidecar.string(), "", "GPU JIT", [&](const std::string& line) { notices.push_back(line); },
        [&] {
          ++builds;
          return image;
        });
  }
};

}  // namespace

TEST_CASE("GPU JIT cache: built once, then read back with the digest of the very bytes it returns",
          "[jit][cache][cuda]") {
  cubin_cache c;
  const auto first = c.get();
  CHECK_FALSE(first.hit);
  CHECK(c.builds == 1);
  CHECK(contents(c.object) == first.bytes);
  CHECK(contents(c.sidecar) == fusedga::expr::detail::sha256_hex(first.bytes) + "\n");
  CHECK((fs::status(c.object).permissions() & (fs::perms::group_write | fs::perms::others_write)) == fs::perms::none);
  const auto second = c.get();
  CHECK(second.hit);
  CHECK(c.builds == 1);
  CHECK(second.bytes == first.bytes);
  CHECK(c.notices.empty());
  // A tampered image is a silent miss: rebuilt, replaced, and the rebuilt bytes are what is returned.
  std::ofstream(c.object, std::ios::binary | std::ios::app) << "tampered";
  const auto third = c.get();
  CHECK_FALSE(third.hit);
  CHECK(c.builds == 2);
  CHECK(third.bytes == first.bytes);
  CHECK(contents(c.object) == first.bytes);
  CHECK(c.notices.empty());
}

TEST_CASE("GPU JIT cache: a linked, group-writable or foreign cubin or digest is refused, removed and rebuilt",
          "[jit][cache][cuda]") {
  enum class plant { link, group_writable, foreign };
  for (const plant how : {plant::link, plant::group_writable, plant::foreign}) {
    if (how == plant::foreign && ::geteuid() != 0) continue;  // only root can make one
    for (const bool on_sidecar : {false, true}) {
      cubin_cache c;
      const std::string genuine_bytes = c.get().bytes;
      const fs::path entry = on_sidecar ? c.sidecar : c.object;
      INFO(entry.string() << ", case " << static_cast<int>(how));
      std::string expected;
      if (how == plant::link) {  // a link to a genuine copy is still refused (never followed)
        const fs::path genuine = fs::path(c.temp.dir()) / "genuine";
        fs::copy_file(entry, genuine);
        fs::remove(entry);
        fs::create_symlink(genuine, entry);
        expected = entry.string() + " is a symbolic link (never followed); removed it, compiling again";
      } else if (how == plant::group_writable) {
        fs::permissions(entry, fs::perms::group_write, fs::perm_options::add);
        expected = entry.string() + " is writable by its group or others; removed it, compiling again";
      } else {
        REQUIRE(::chown(entry.c_str(), 4242, 4242) == 0);
        expected = entry.string() + " is owned by another user (uid 4242); removed it, compiling again";
      }
      const auto r = c.get();
      CHECK_FALSE(r.hit);
      CHECK(c.builds == 2);
      CHECK(r.bytes == genuine_bytes);
      REQUIRE(c.notices.size() == 1);
      CHECK(c.notices[0] == "GPU JIT cache: " + expected);
      // replaced by a regular private file: the next call hits
      CHECK(fs::is_regular_file(fs::symlink_status(entry)));
      CHECK((fs::status(entry).permissions() & (fs::perms::group_write | fs::perms::others_write)) == fs::perms::none);
      CHECK(c.get().hit);
    }
  }
}

TEST_CASE("GPU JIT cache: a directory in place of the cubin is removed, or bypassed, with a notice naming it",
          "[jit][cache][cuda]") {
  cubin_cache c;
  const std::string bytes = c.get().bytes;
  SECTION("removed, rebuilt, cached again") {
    fs::remove(c.object);
    fs::create_directories(c.object / "inside");
    const auto r = c.get();
    CHECK(r.bytes == bytes);
    REQUIRE(c.notices.size() == 1);
    CHECK(c.notices[0] == "GPU JIT cache: " + c.object.string() + " is a directory; removed it, compiling again");
    CHECK(fs::is_regular_file(c.object));
    CHECK(c.get().hit);
  }
  SECTION("a directory that cannot be removed: every call still returns the image, uncached") {
    if (::geteuid() == 0) return;  // root removes it anyway
    fs::remove(c.object);
    fs::create_directories(c.object / "locked");
    std::ofstream(c.object / "locked" / "file") << "x";
    fs::permissions(c.object / "locked", fs::perms::owner_read | fs::perms::owner_exec);
    for (int run = 0; run < 2; ++run) {
      const auto r = c.get();
      CHECK_FALSE(r.hit);
      CHECK(r.bytes == bytes);
      REQUIRE(c.notices.size() == 2);
      CHECK(c.notices[0] ==
            "GPU JIT cache: " + c.object.string() + " is a directory; cannot remove it, compiling without the cache");
      CHECK_THAT(c.notices[1], Catch::StartsWith("GPU JIT cache: compiled, but ") &&
                                   Catch::Contains(c.object.string()) && Catch::EndsWith("; using it uncached"));
    }
    fs::permissions(c.object / "locked", fs::perms::owner_all);
  }
}
