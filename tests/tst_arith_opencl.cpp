// toOpenCL's text is OpenCL C with the meaning of the expression: floor, ceiling, absolute
// value, if-then-else, lookup and pow (and the other forms around them), raw and simplified, are
// compiled into a kernel on the OpenCL CPU device (PoCL) and evaluated there at every point of
// a grid; each value must be the one `evaluate` gives on the host.
#include <QtTest/QtTest>

#include <fmt/format.h>

#include "codegen/runtime/Device.h"
#include "core/arith/ArithExpr.h"

using namespace lift;
using namespace lift::arith;

class TestArithOpenCL : public QObject {
  Q_OBJECT
 private slots:
  void openclTextComputesTheExpression() {
    std::map<std::string, Expr> vars{{"i", var("i", cst(-20), cst(21))}, {"j", var("j", cst(-20), cst(21))}};
    // divisors that are never zero, lookup indices inside their tables
    const char* texts[] = {
        "floor(i/4)",
        "ceil(i/4)",
        "floor(i/(-3)) + ceil(i/(-3))*100",
        "ceil((i + j)/(-5))",
        "floor(i/(j*j + 1))",
        "ceil(j/(i - 30))",
        "floor((i*j - 7)/(j - 25))",
        "ceil(i/(j + 21)) + floor((4*i + j + 9)/4)",
        "floor((i + j)/(N + 1)) - ceil((i - j)/N)",
        "abs(i - j) + abs(-3*i) + abs(i)*2",
        "i < j ? i - j : 2*j",
        "(i >= j ? 1 : 2) + (i == j ? 10 : 20) + (i != 3 ? 100 : 200) + (i <= -j ? 1000 : 0)",
        "lookup({3, -1, 4, 1, -5, 9}, (i%6 + 6)%6)*lookup({2, 7}, (j%2 + 2)%2)",
        "floor(ceil(i/3)/2) + (abs(j) <= 3 ? floor(j/2) : ceil(j/2))",
        "min(abs(i), j < 0 ? -j : j) + max(floor(i/7), lookup({5, 6, 7}, (j%3 + 3)%3))",
        // pow (OpenCL's takes floats): shifts for powers of two, pown otherwise
        "pow(2, (i%8 + 8)%8) + 256/pow(2, (j%8 + 8)%8)",
        "i*pow(4, (j%6 + 6)%6) - pow(2, N)*pow(8, (i < j ? 1 : 2))",
        "pow(3, (j%10 + 10)%10) + pow((i%3 + 3)%3 + 1, (j%5 + 5)%5)",
    };
    std::vector<Expr> exprs;
    for (const char* t : texts) {
      exprs.push_back(parse(t, vars, "<test>", /*raw=*/true));
      exprs.push_back(parse(t, vars));
    }
    std::string body;
    for (size_t k = 0; k < exprs.size(); ++k)
      body += fmt::format("  out[g*{} + {}] = (long)({});\n", exprs.size(), k, toOpenCL(exprs[k]));
    std::string source = fmt::format(
        "kernel void f(global const int* is, global const int* js, global long* out, int N) {{\n"
        "  int g = get_global_id(0);\n  int i = is[g], j = js[g];\n{}}}\n",
        body);
    std::vector<int> is, js;
    for (int i = -20; i <= 20; ++i)
      for (int j = -20; j <= 20; ++j) {
        is.push_back(i);
        js.push_back(j);
      }
    const int n = static_cast<int>(is.size()), kN = 5;
    runtime::DeviceContext ctx(runtime::Device::find("0"));
    cl::Program program(ctx.context(), source);
    try {
      program.build();
    } catch (const cl::Error&) {
      QFAIL(qPrintable(QString::fromStdString(
          program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(ctx.device().handle()) + "\n" + source)));
    }
    cl::Buffer bi(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(int), is.data());
    cl::Buffer bj(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(int), js.data());
    cl::Buffer bo(ctx.context(), CL_MEM_WRITE_ONLY, n * exprs.size() * sizeof(cl_long));
    cl::Kernel kernel(program, "f");
    kernel.setArg(0, bi);
    kernel.setArg(1, bj);
    kernel.setArg(2, bo);
    kernel.setArg(3, kN);
    ctx.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(static_cast<size_t>(n)));
    std::vector<cl_long> out(n * exprs.size());
    ctx.queue().enqueueReadBuffer(bo, CL_TRUE, 0, out.size() * sizeof(cl_long), out.data());
    int forms = 0;
    for (Expr e : exprs) forms += toOpenCL(e) != toString(e);
    QVERIFY(forms > 20);  // most texts differ from the parser's notation
    for (int p = 0; p < n; ++p) {
      Env env{{"i", is[p]}, {"j", js[p]}, {"N", kN}};
      for (size_t k = 0; k < exprs.size(); ++k)
        QVERIFY2(out[p * exprs.size() + k] == evaluate(exprs[k], env),
                 qPrintable(QString("%1 at i=%2 j=%3: device %4, host %5")
                                .arg(QString::fromStdString(toOpenCL(exprs[k])))
                                .arg(is[p])
                                .arg(js[p])
                                .arg(out[p * exprs.size() + k])
                                .arg(evaluate(exprs[k], env))));
    }
  }
};

QTEST_GUILESS_MAIN(TestArithOpenCL)
#include "tst_arith_opencl.moc"
