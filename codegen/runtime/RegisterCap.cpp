// RegisterCap: `.maxnreg N` in each kernel entry of NVIDIA's PTX.
#include "codegen/runtime/RegisterCap.h"

#include <fmt/format.h>

namespace lift::runtime {

bool takesRegisterCap(const DeviceInfo& device) { return device.isNvidia(); }

std::string entryDirectiveFor(const KernelLaunch& launch, const DeviceInfo& device) {
  if (launch.maxRegisters <= 0 || !takesRegisterCap(device)) return "";
  return fmt::format(".maxnreg {}", launch.maxRegisters);
}

std::string withEntryDirective(const std::string& ptx, const std::string& directive) {
  std::string out;
  size_t from = 0;
  bool added = false;
  // An entry: `.entry name(\n params\n)\n[.reqntid ...\n]{` — the directive goes before the `{`
  // that opens its body, after any performance directives the driver wrote.
  for (size_t at = ptx.find(".entry"); at != std::string::npos; at = ptx.find(".entry", at + 1)) {
    size_t body = ptx.find("\n{", at);
    if (body == std::string::npos) break;
    out.append(ptx, from, body + 1 - from);
    out += directive + "\n";
    from = body + 1;
    at = body;
    added = true;
  }
  if (!added) return "";
  out.append(ptx, from);
  return out;
}

}  // namespace lift::runtime
