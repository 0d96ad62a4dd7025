#pragma once
// Shared `main` wrapper of the apps: every exception becomes a message and an exit code.
#include <cstdio>
#include <exception>

#include "fusedga/core/error.hpp"

namespace fusedga::apps {

/// Runs `body()` and returns its exit code; usage/config errors (an
/// unavailable backend and malformed expressions included) exit 2, an interruption (fusedga::interrupted) 130,
/// any other failure 1, each with a one-line message.
template <class Body>
int guarded_main(const char* app, Body&& body) {
  try {
    return body();
  } catch (const config_error& e) {
    std::fprintf(stderr, "%s: %s\n", app, e.what());
    return 2;
  } catch (const backend_unavailable& e) {
    std::fprintf(stderr, "%s: %s\n", app, e.what());
    return 2;
  } catch (const expression_error& e) {  // a malformed expression problem is a config error
    std::fprintf(stderr, "%s: %s\n", app, e.what());
    return 2;
  } catch (const interrupted& e) {  // Ctrl-C before the run began (during a JIT compile): the shell's 128 + SIGINT
    std::fprintf(stderr, "%s: %s; nothing was run or written\n", app, e.what());
    return 130;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", app, e.what());
    return 1;
  } catch (...) {
    std::fprintf(stderr, "%s: error: unknown exception\n", app);
    return 1;
  }
}

}  // namespace fusedga::apps
