// See ClBlastLibrary.h.
#include "views/ClBlastLibrary.h"

#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <type_traits>

namespace lift::views {

ClBlastLibrary ClBlastLibrary::load() {
  ClBlastLibrary l;
  const char* chosen = std::getenv("LIFT_CLBLAST_LIBRARY");
  l.file = chosen && *chosen ? chosen : "libclblast.so.1";
  // Never closed: CLBlast keeps the programs it built for the process, and a second dlopen of the
  // same file returns the same handle.
  void* h = ::dlopen(l.file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* error = ::dlerror();
    l.why = l.file + " cannot be loaded (" + (error ? error : "no reason given") +
            "; Debian's package is libclblast1)";
    return l;
  }
  std::string missing;
  auto sym = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(h, name));
    if (!fn) missing += std::string(missing.empty() ? "" : ", ") + name;
  };
  sym(l.sgemm, "CLBlastSgemm");
  sym(l.sgemv, "CLBlastSgemv");
  sym(l.sdot, "CLBlastSdot");
  sym(l.sasum, "CLBlastSasum");
  sym(l.sscal, "CLBlastSscal");
  if (!missing.empty()) l.why = l.file + " lacks " + missing + " (not CLBlast's C API?)";
  return l;
}

std::string ClBlastLibrary::describeStatus(Status status) {
  const char* what = nullptr;
  switch (status) {
    case -3:
      what = "the device has no OpenCL compiler";
      break;
    case -4:
    case -5:
    case -6:
      what = "the device or host ran out of memory";
      break;
    case -11:
      what = "its kernels did not build for this device";
      break;
    case -54:
    case -55:
      what = "its work-group size is too large for this device";
      break;
    case -1024:
      what = "CLBlast has no kernel for this routine with these arguments (kNotImplemented)";
      break;
    case -1017:
      what = "a dimension is zero";
      break;
    case -2046:
      what = "not enough local memory on this device";
      break;
    case -2041:
      what = "no parameters for this device in its database";
      break;
    case -2040:
    case -2039:
      what = "an unexpected error";
      break;
    default:
      break;
  }
  std::string out = "CLBlast status " + std::to_string(status);
  return what ? out + ": " + what : out;
}

}  // namespace lift::views
