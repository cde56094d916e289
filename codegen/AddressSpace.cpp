// Names of the OpenCL address spaces.
#include "codegen/AddressSpace.h"

namespace lift::codegen {

const char* toString(AddressSpace s) {
  switch (s) {
    case AddressSpace::Private:
      return "private";
    case AddressSpace::Local:
      return "local";
    case AddressSpace::Global:
      return "global";
  }
  return "?";
}

const char* qualifier(AddressSpace s) {
  switch (s) {
    case AddressSpace::Private:
      return "";
    case AddressSpace::Local:
      return "local";
    case AddressSpace::Global:
      return "global";
  }
  return "";
}

}  // namespace lift::codegen
