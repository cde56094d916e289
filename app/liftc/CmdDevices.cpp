// liftc devices: lists every OpenCL platform and device with its index (what --device takes)
// and properties.
#include <cstdio>

#include "app/liftc/Command.h"
#include "codegen/runtime/Device.h"

namespace lift::liftc {
namespace {

int runDevices(bool brief) {
  const auto& devices = runtime::Device::all();  // throws LiftError without a platform
  if (brief) {
    for (const auto& d : devices)
      std::printf("%d\t%s\t%s\t%s\n", d.info().index, d.info().type.c_str(), d.info().name.c_str(),
                  d.info().platformName.c_str());
    return kExitOk;
  }
  for (const auto& d : devices) {
    if (d.info().index > 0) std::printf("\n");
    std::printf("%s\n%s", d.info().label().c_str(), d.info().describe().c_str());
  }
  return kExitOk;
}

CommandRegistration reg({"devices", "list the OpenCL devices with the index --device takes",
                         [](CLI::App& cmd) {
                           auto brief = std::make_shared<bool>(false);
                           cmd.add_flag("--brief", *brief, "one line each: index, type, name, platform");
                           return [brief] { return runDevices(*brief); };
                         }});

}  // namespace
}  // namespace lift::liftc
