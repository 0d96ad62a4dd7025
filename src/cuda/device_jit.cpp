// The GPU JIT's compile and link steps (device_jit.hpp).
#include "cuda/device_jit.hpp"

#include <dlfcn.h>
#include <nvJitLink.h>
#include <nvrtc.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>

#include "cuda/expr_module.hpp"
#include "expr/jit_cache.hpp"
#include "fusedga/core/error.hpp"
#include "fusedga/core/macros.hpp"
#include "fusedga/expr/codegen.hpp"

// The prebuilt kernels' LTO-IR (fatbins embedded by cmake/embed_file.cmake).
extern const unsigned char fusedga_expr_lto_f32[];
extern const std::size_t fusedga_expr_lto_f32_size;
extern const unsigned char fusedga_expr_lto_f64[];
extern const std::size_t fusedga_expr_lto_f64_size;

namespace fusedga::expr {
namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

/// A symbol of a library opened with dlopen, typed as `F`. @throws error naming the symbol.
template <class F>
F symbol(void* library, const char* library_name, const char* name) {
  void* f = ::dlsym(library, name);
  if (!f) throw error(std::string("GPU JIT: ") + library_name + " lacks " + name);
  return reinterpret_cast<F>(f);
}

void* open_library(const char* build_path, const char* soname) {
  for (const char* name : {build_path, soname})
    if (void* h = ::dlopen(name, RTLD_NOW | RTLD_LOCAL)) return h;
  const char* why = ::dlerror();
  throw error(std::string("GPU JIT: cannot load ") + soname + " (the CUDA toolkit's " +
              (std::string(soname).find("nvrtc") != std::string::npos ? "NVRTC" : "nvJitLink") +
              "): " + (why ? why : "not found"));
}

/**
 * NVRTC and nvJitLink, opened on first use: linked, their ~200 MB of shared
 * objects would add about 30 ms to every process start (ga-run loading a
 * cached CPU JIT object takes under 10 ms in all). The build's copies first,
 * then the sonames on the library path. Never closed.
 */
struct toolchain {
  decltype(&nvrtcVersion) rtc_version;
  decltype(&nvrtcCreateProgram) create_program;
  decltype(&nvrtcDestroyProgram) destroy_program;
  decltype(&nvrtcCompileProgram) compile_program;
  decltype(&nvrtcGetProgramLogSize) log_size;
  decltype(&nvrtcGetProgramLog) log;
  decltype(&nvrtcGetErrorString) error_string;
  decltype(&nvrtcGetLTOIRSize) ltoir_size;
  decltype(&nvrtcGetLTOIR) ltoir;
  decltype(&nvJitLinkVersion) link_version;
  decltype(&nvJitLinkCreate) link_create;
  decltype(&nvJitLinkDestroy) link_destroy;
  decltype(&nvJitLinkAddData) link_add;
  decltype(&nvJitLinkComplete) link_complete;
  decltype(&nvJitLinkGetErrorLogSize) link_log_size;
  decltype(&nvJitLinkGetErrorLog) link_log;
  decltype(&nvJitLinkGetLinkedCubinSize) cubin_size;
  decltype(&nvJitLinkGetLinkedCubin) cubin;

  static const toolchain& get() {
    static const toolchain t = [] {
      void* rtc = open_library(FUSEDGA_NVRTC_PATH, FUSEDGA_NVRTC_SONAME);
      void* link = open_library(FUSEDGA_NVJITLINK_PATH, FUSEDGA_NVJITLINK_SONAME);
      const char* r = "NVRTC";
      const char* l = "nvJitLink";
      toolchain c;
      c.rtc_version = symbol<decltype(c.rtc_version)>(rtc, r, "nvrtcVersion");
      c.create_program = symbol<decltype(c.create_program)>(rtc, r, "nvrtcCreateProgram");
      c.destroy_program = symbol<decltype(c.destroy_program)>(rtc, r, "nvrtcDestroyProgram");
      c.compile_program = symbol<decltype(c.compile_program)>(rtc, r, "nvrtcCompileProgram");
      c.log_size = symbol<decltype(c.log_size)>(rtc, r, "nvrtcGetProgramLogSize");
      c.log = symbol<decltype(c.log)>(rtc, r, "nvrtcGetProgramLog");
      c.error_string = symbol<decltype(c.error_string)>(rtc, r, "nvrtcGetErrorString");
      c.ltoir_size = symbol<decltype(c.ltoir_size)>(rtc, r, "nvrtcGetLTOIRSize");
      c.ltoir = symbol<decltype(c.ltoir)>(rtc, r, "nvrtcGetLTOIR");
      c.link_version = symbol<decltype(c.link_version)>(link, l, "nvJitLinkVersion");
      c.link_create = symbol<decltype(c.link_create)>(link, l, "nvJitLinkCreate");
      c.link_destroy = symbol<decltype(c.link_destroy)>(link, l, "nvJitLinkDestroy");
      c.link_add = symbol<decltype(c.link_add)>(link, l, "nvJitLinkAddData");
      c.link_complete = symbol<decltype(c.link_complete)>(link, l, "nvJitLinkComplete");
      c.link_log_size = symbol<decltype(c.link_log_size)>(link, l, "nvJitLinkGetErrorLogSize");
      c.link_log = symbol<decltype(c.link_log)>(link, l, "nvJitLinkGetErrorLog");
      c.cubin_size = symbol<decltype(c.cubin_size)>(link, l, "nvJitLinkGetLinkedCubinSize");
      c.cubin = symbol<decltype(c.cubin)>(link, l, "nvJitLinkGetLinkedCubin");
      return c;
    }();
    return t;
  }
};

template <class Real>
std::string prebuilt_kernels() {
  if constexpr (std::is_same_v<Real, float>)
    return std::string(reinterpret_cast<const char*>(fusedga_expr_lto_f32), fusedga_expr_lto_f32_size);
  else
    return std::string(reinterpret_cast<const char*>(fusedga_expr_lto_f64), fusedga_expr_lto_f64_size);
}

/// Generated source → LTO-IR. @throws error with NVRTC's log.
std::string nvrtc_compile(const std::string& source, const std::vector<std::string>& options) {
  const toolchain& t = toolchain::get();
  nvrtcProgram program = nullptr;
  if (t.create_program(&program, source.c_str(), "fusedga_expr_problem.cu", 0, nullptr, nullptr) != NVRTC_SUCCESS)
    throw error("GPU JIT: nvrtcCreateProgram failed");
  const std::unique_ptr<nvrtcProgram, void (*)(nvrtcProgram*)> guard(&program,
                                                                     [](nvrtcProgram* p) { toolchain::get().destroy_program(p); });
  std::vector<const char*> argv;
  for (const std::string& o : options) argv.push_back(o.c_str());
  const nvrtcResult r = t.compile_program(program, static_cast<int>(argv.size()), argv.data());
  if (r != NVRTC_SUCCESS) {
    std::size_t size = 0;
    t.log_size(program, &size);
    std::string log(size, '\0');
    if (size) t.log(program, log.data());
    throw error(std::string("GPU JIT: NVRTC could not compile the generated problem (") + t.error_string(r) +
                "):\n" + log);
  }
  std::size_t size = 0;
  if (t.ltoir_size(program, &size) != NVRTC_SUCCESS || size == 0) throw error("GPU JIT: NVRTC produced no LTO-IR");
  std::string ir(size, '\0');
  t.ltoir(program, ir.data());
  return ir;
}

/// Problem LTO-IR + prebuilt kernels' fatbin → cubin, with nvjitlink_options. @throws error with nvJitLink's log.
std::string nvjitlink(const std::string& problem_ir, const std::string& kernels, const std::vector<std::string>& options) {
  const toolchain& t = toolchain::get();
  std::vector<const char*> argv;
  for (const std::string& o : options) argv.push_back(o.c_str());
  nvJitLinkHandle handle = nullptr;
  if (t.link_create(&handle, static_cast<std::uint32_t>(argv.size()), argv.data()) != NVJITLINK_SUCCESS)
    throw error("GPU JIT: nvJitLinkCreate failed (" + options[1] + ")");
  const std::unique_ptr<nvJitLinkHandle, void (*)(nvJitLinkHandle*)> guard(&handle,
                                                                           [](nvJitLinkHandle* h) { toolchain::get().link_destroy(h); });
  const auto fail = [&](const char* step) {
    std::size_t size = 0;
    t.link_log_size(handle, &size);
    std::string log(size, '\0');
    if (size) t.link_log(handle, log.data());
    throw error(std::string("GPU JIT: nvJitLink ") + step + " failed:\n" + log);
  };
  if (t.link_add(handle, NVJITLINK_INPUT_LTOIR, problem_ir.data(), problem_ir.size(), "problem") !=
      NVJITLINK_SUCCESS)
    fail("adding the problem");
  if (t.link_add(handle, NVJITLINK_INPUT_FATBIN, kernels.data(), kernels.size(), "kernels") != NVJITLINK_SUCCESS)
    fail("adding the prebuilt kernels");
  if (t.link_complete(handle) != NVJITLINK_SUCCESS) fail("linking");
  std::size_t size = 0;
  if (t.cubin_size(handle, &size) != NVJITLINK_SUCCESS || size == 0) fail("producing the cubin");
  std::string cubin(size, '\0');
  t.cubin(handle, cubin.data());
  return cubin;
}

std::vector<std::string> nvrtc_options(const std::vector<std::string>& includes) {
  // No FMA contraction in the problem: the CPU JIT (-ffp-contract=off, as the whole library) and the interpreter
  // round every operation, so the paths agree to the ulps of the math functions.
  std::vector<std::string> o{"--gpu-architecture=compute_" + std::to_string(FUSEDGA_LTO_ARCH), "-dlto",
                             "--relocatable-device-code=true", "--std=c++17", "--fmad=false"};
  for (const std::string& dir : includes) o.push_back("-I" + dir);
  return o;
}

/// Link time is nearly all optimizing and assembling kernels: keep only the three (four for islands mixing GA and
/// DE) the run launches (expr_kernels_used) of the ten prebuilt (4.5–5.8 s → about 0.5–1.2 s measured on the
/// development machine).
std::vector<std::string> nvjitlink_options(const program& p, int sm, const device_jit_options& options) {
  // -fma=0: with -lto the machine code is generated here, at link time, and nvJitLink contracts a*b+c into FMAs by
  // default whatever NVRTC's --fmad=false said (measured on an H100: the spring's ill-conditioned constraint then
  // differed from the interpreter by more than 1e-12 at 1 point in 10,000). Off, every operation rounds as on the CPU.
  std::vector<std::string> o{"-lto", "-arch=sm_" + std::to_string(sm), "-fma=0"};
  for (const std::string& name :
       fusedga::detail::expr_kernels_used(p, options.genetic_algorithm, options.differential_evolution))
    o.push_back("-kernels-used=" + name);
  return o;
}

}  // namespace

int device_jit_lto_arch() { return FUSEDGA_LTO_ARCH; }

std::string device_jit_identity() {
  const toolchain& t = toolchain::get();
  int rtc_major = 0, rtc_minor = 0;
  t.rtc_version(&rtc_major, &rtc_minor);
  unsigned link_major = 0, link_minor = 0;
  t.link_version(&link_major, &link_minor);
  return "NVRTC " + std::to_string(rtc_major) + "." + std::to_string(rtc_minor) + ", nvJitLink " +
         std::to_string(link_major) + "." + std::to_string(link_minor) + ", kernels LTO-IR for compute_" +
         std::to_string(FUSEDGA_LTO_ARCH);
}

template <class Real>
std::vector<char> device_jit_image(const program& p, int sm, const device_jit_options& options,
                                   device_jit_stats* stats) {
  static_assert(std::is_same_v<Real, float> || std::is_same_v<Real, double>, "Real must be float or double");
  if (sm < FUSEDGA_LTO_ARCH)
    throw error("GPU JIT: compute capability " + std::to_string(sm / 10) + "." + std::to_string(sm % 10) +
                " is older than the prebuilt kernels' (" + std::to_string(FUSEDGA_LTO_ARCH / 10) + "." +
                std::to_string(FUSEDGA_LTO_ARCH % 10) + "); rebuild with -DCMAKE_CUDA_ARCHITECTURES=" +
                std::to_string(sm));
  const std::vector<std::string> includes =
      options.include_dirs.empty() ? detail::default_include_dirs() : options.include_dirs;
  if (includes.empty())
    throw error(std::string("GPU JIT: FusedGA headers not found in ") + FUSEDGA_JIT_SOURCE_INCLUDE_DIR + " or " +
                FUSEDGA_JIT_INSTALL_INCLUDE_DIR);
  const std::string source =
      generate_device_source(p, std::is_same_v<Real, float> ? "float" : "double", options.jacobian);
  const std::string kernels = prebuilt_kernels<Real>();
  const std::vector<std::string> nvrtc = nvrtc_options(includes);
  const std::vector<std::string> link = nvjitlink_options(p, sm, options);

  std::string material = "fusedga-gpu-jit version " FUSEDGA_VERSION_STRING "\n" + device_jit_identity() +
                         "\nsm " + std::to_string(sm) + "\nkernels " + detail::sha256_hex(kernels) + "\n";
  for (const std::string& o : nvrtc) material += "option " + o + "\n";
  for (const std::string& o : link) material += "link option " + o + "\n";
  const std::string key = detail::sha256_hex(material + "source\n" + source);
  const std::string dir = detail::cache_directory(options.cache_dir);
  detail::ensure_private_directory(dir);
  const std::string image = dir + "/" + key + ".cubin", sidecar = dir + "/" + key + ".cubin.sha256";

  device_jit_stats s;
  s.image_path = image;
  const detail::notice_function notice = [&](const std::string& line) {
    s.notices.push_back(line);
    if (options.on_notice) options.on_notice(line);
  };
  // The CPU JIT's cache rules (links, foreign owners, directories refused; the digest of the very bytes loaded).
  const detail::cached_bytes cubin = detail::cached_or_build(image, sidecar, "", "GPU JIT", notice, [&] {
    const auto t0 = clock_type::now();
    const std::string ir = nvrtc_compile(source, nvrtc);
    s.compile_seconds = seconds_since(t0);
    const auto t1 = clock_type::now();
    std::string linked = nvjitlink(ir, kernels, link);
    s.link_seconds = seconds_since(t1);
    return linked;
  });
  s.cache_hit = cubin.hit;
  if (stats) *stats = s;
  return std::vector<char>(cubin.bytes.begin(), cubin.bytes.end());
}

template std::vector<char> device_jit_image<float>(const program&, int, const device_jit_options&, device_jit_stats*);
template std::vector<char> device_jit_image<double>(const program&, int, const device_jit_options&, device_jit_stats*);

}  // namespace fusedga::expr
