// CLBlast, loaded at run time for the performance plot's "CLBlast (defaults) on <device>" line:
// dlopen of libclblast.so.1 (Debian's libclblast1; LIFT_CLBLAST_LIBRARY names another file),
// and its C API's single-precision routines that the plot compares with (CLBlastSgemm, Sgemv,
// Sdot, Sasum, Sscal). Nothing links CLBlast: without it the app runs and says why the line is
// missing. The declarations are those of CLBlast 1.5's clblast_c.h, repeated here so that
// building the app needs no CLBlast headers.
#pragma once

#include <CL/cl.h>

#include <string>

namespace lift::views {

struct ClBlastLibrary {
  // clblast_c.h's enums, with its values.
  enum Layout : int { RowMajor = 101 };
  enum Transpose : int { No = 111, Yes = 112 };
  using Status = int;  // CLBlastStatusCode: 0 is success, negative an error

  using Sgemm = Status (*)(Layout, Transpose, Transpose, size_t m, size_t n, size_t k, float alpha, cl_mem a,
                           size_t aOffset, size_t aLd, cl_mem b, size_t bOffset, size_t bLd, float beta,
                           cl_mem c, size_t cOffset, size_t cLd, cl_command_queue* queue, cl_event* event);
  using Sgemv = Status (*)(Layout, Transpose, size_t m, size_t n, float alpha, cl_mem a, size_t aOffset,
                           size_t aLd, cl_mem x, size_t xOffset, size_t xInc, float beta, cl_mem y,
                           size_t yOffset, size_t yInc, cl_command_queue* queue, cl_event* event);
  using Sdot = Status (*)(size_t n, cl_mem dot, size_t dotOffset, cl_mem x, size_t xOffset, size_t xInc,
                          cl_mem y, size_t yOffset, size_t yInc, cl_command_queue* queue, cl_event* event);
  using Sasum = Status (*)(size_t n, cl_mem asum, size_t asumOffset, cl_mem x, size_t xOffset, size_t xInc,
                           cl_command_queue* queue, cl_event* event);
  using Sscal = Status (*)(size_t n, float alpha, cl_mem x, size_t xOffset, size_t xInc,
                           cl_command_queue* queue, cl_event* event);

  Sgemm sgemm = nullptr;
  Sgemv sgemv = nullptr;
  Sdot sdot = nullptr;
  Sasum sasum = nullptr;
  Sscal sscal = nullptr;
  std::string file;  // what was loaded, or tried
  std::string why;   // empty when loaded; else why not, in words

  bool ok() const { return why.empty(); }

  // Loads the library (LIFT_CLBLAST_LIBRARY, else libclblast.so.1). The handle is kept for the
  // process's life (CLBlast caches the programs it built): loading again is cheap.
  static ClBlastLibrary load();
  // A sentence for a CLBlast status code ("CLBlast status -2041: no parameters for this device").
  static std::string describeStatus(Status status);
};

}  // namespace lift::views
