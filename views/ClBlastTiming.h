// The time CLBlast takes, with its default (database) parameters, for the BLAS routine a program
// computes, on one OpenCL device at the program's sizes: the performance plot's "CLBlast
// (defaults) on <device>" line. Buffers of the program's shapes on the device, one warm-up call
// (CLBlast builds its kernels then), then the median of timed calls, each a host clock around
// the call and clFinish (CLBlast may launch several kernels, so a kernel's profiling event
// would not do). sdot and sasum are timed over the whole vector: a program that computes their
// partial sums of chunks does part of that work, CLBlast all of it.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "codegen/BlasDims.h"
#include "codegen/BlasReference.h"
#include "codegen/runtime/Device.h"
#include "views/ClBlastLibrary.h"

namespace lift::views {

// The call as text, for the plot's notes ("sgemm m=512 n=512 k=512").
std::string describeClBlastCall(const codegen::BlasBinding& binding, const codegen::BlasDims& dims);

// Median milliseconds of `repetitions` calls (blocking: call it in the background); nullopt once
// `cancelled` says so (checked between calls). Throws LiftError with a sentence when CLBlast
// returns an error or the device refuses the buffers.
std::optional<double> clblastMedianMs(const ClBlastLibrary& clblast, const runtime::Device& device,
                                      const codegen::BlasBinding& binding, const codegen::BlasDims& dims,
                                      int repetitions, const std::function<bool()>& cancelled);

}  // namespace lift::views
