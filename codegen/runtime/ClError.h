// Names of OpenCL error codes, so that a failed launch says CL_INVALID_WORK_GROUP_SIZE and not -54.
#pragma once

#include <string>

namespace lift::runtime {

// The symbolic name of an OpenCL error code ("CL_INVALID_WORK_GROUP_SIZE"), or
// "CL_UNKNOWN_ERROR" for a code not in the table.
const char* clErrorName(int code);

// "CL_INVALID_WORK_GROUP_SIZE (-54)".
std::string describeClError(int code);

// True for the codes that mean the device ran out of memory or another resource, as opposed
// to an invalid request.
bool isOutOfResources(int code);

}  // namespace lift::runtime
