# Sourced by the build scripts (build.sh, sanitize.sh, tsan.sh, fuzz.sh, test-python.sh) from the checkout's
# root: sets `launcher` to the CMake launcher flags for ccache where it is installed, else to nothing. Paths are
# hashed relative to the checkout (base_dir) and the build directory is left out of the hash (nohashdir), so
# another clone of the same commit at another path (CI's fresh clone on a machine that built it before) reuses
# the objects instead of compiling them again. Debug info of a reused object names the first clone's directory.
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
  : "${CCACHE_MAXSIZE:=20G}"  # release (CUDA), python, asan, tsan and fuzz builds together: more than the 5 GB default
  export CCACHE_MAXSIZE
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
fi
