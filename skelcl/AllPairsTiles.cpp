// Deriving AllPairs' tiled zip-reduce kernel from its high-level program.
#include "skelcl/AllPairsTiles.h"

#include "codegen/Compiler.h"
#include "core/support/Diagnostic.h"
#include "rewrite/Derivation.h"

namespace lift::skelcl {

namespace {

// resources/derivations/matmul_tiled_local.derivation on the AllPairs program (sizes N, M, D for
// matmul.lift's M, N, K), with the two local maps of B's tile copy swapped (steps 19 and 20), so
// that work-items next to each other read neighbouring elements of a row of B.
const char* const kDerivation = R"(program: AllPairs
size-multiple@0:var=N,k=16
size-multiple@0:var=M,k=16
size-multiple@0:var=D,k=16
tiling@0:x=16,y=16
tile-reduction@0.1.0.0.0.1.1.0.0.0.1:k=16
map-to-wrg@0.1:dim=1
map-to-wrg@0.1.0.0.0.1.1:dim=0
reduce-to-seq@0.1.0.0.0.1.1.0.0.0.1.1
map-to-lcl@0.1.0.0.0.1.1.0.0.0.1.1.0.0.0:dim=1
map-to-lcl@0.1.0.0.0.1.1.0.0.0.1.1.0.0.0.0.0.0:dim=0
map-to-seq@0.1.0.0.0.1.1.0.0.0.1.1.0.0.0.0.0.0.0.0.0.1
reduce-map-fusion@0.1.0.0.0.1.1.0.0.0.1.1.0.0.0.0.0.0.0.0.0.1.0.0.0
reduce-to-seq@0.1.0.0.0.1.1.0.0.0.1.1.0.0.0.0.0.0.0.0.0.1.0.0.0
add-id-for-current-value-in-reduce@0.1.0.0.0.1.1.0.0.0.1.1
implement-id-deep@0.1.0.0.0.1.1.0.0.0.1.1.0.0.0.1
map-to-lcl@0.1.0.0.0.1.1.0.0.0.1.1.0.0.0.1.1:dim=1
map-to-lcl@0.1.0.0.0.1.1.0.0.0.1.1.0.0.0.1.1.0.0.0:dim=0
to-local@0.1.0.0.0.1.1.0.0.0.1.1.0.0.0.1.1
map-to-lcl@0.1.0.0.0.1.1.0.0.0.1.1.0.0.0.1.2:dim=0
map-to-lcl@0.1.0.0.0.1.1.0.0.0.1.1.0.0.0.1.2.0.0.0:dim=1
to-local@0.1.0.0.0.1.1.0.0.0.1.1.0.0.0.1.2
add-id@0.1.0.0.0.1.1.0.0.0.1
implement-id-deep@0.1.0.0.0.1.1.0.0.0.1
map-to-lcl@0.1.0.0.0.1.1.0.0.0.1:dim=1
map-to-lcl@0.1.0.0.0.1.1.0.0.0.1.0.0.0:dim=0
map-to-seq@0.1.0.0.0.1.1.0.0.0.1.0.0.0.0.0.0
to-global@0.1.0.0.0.1.1.0.0.0.1
add-id@0.1.0.0.0.1.1.0.0.0.1.1.1.1
implement-id-deep@0.1.0.0.0.1.1.0.0.0.1.1.1.1
map-to-lcl@0.1.0.0.0.1.1.0.0.0.1.1.1.1:dim=1
map-to-lcl@0.1.0.0.0.1.1.0.0.0.1.1.1.1.0.0.0:dim=0
map-to-seq@0.1.0.0.0.1.1.0.0.0.1.1.1.1.0.0.0.0.0.0
to-private@0.1.0.0.0.1.1.0.0.0.1.1.1.1
)";

}  // namespace

std::optional<AllPairsTiledKernel> tiledZipReduceKernel(const ir::Program& searchProgram) {
  try {
    static const rewrite::Derivation derivation = rewrite::Derivation::parse(kDerivation, "AllPairs tiles");
    const rewrite::ReplayResult replayed =
        rewrite::replay(derivation, rewrite::TypedProgram::check(searchProgram));
    AllPairsTiledKernel out;
    out.program = replayed.result.program;
    codegen::CompileOptions options;
    options.localPadding = 1;
    out.compiled = codegen::compileKernel(out.program, options);
    return out;
  } catch (const LiftError&) {
    return std::nullopt;  // another row function: the skeleton's own kernel serves it
  }
}

}  // namespace lift::skelcl
