# Sourced by the SGEMM scripts (sgemm-blocks, sgemm-profile, sgemm-hand-variants, sgemm-waves):
#   derive_vectorized_local M N K TX:TY:K:X:Y:W OUT.lift
# writes matmul.lift specialised to M x N x K (OUT.lift.matmul.lift), the derivation of
# vectorized-local.derivation.in at those tile, K-tile, block and run sizes (OUT.lift.derivation),
# and the derived program OUT.lift (`liftc derive`, its output where the caller sends it).
# Expects $root (the project root) and $liftc.
derive_vectorized_local() {
  local m=$1 n=$2 k=$3 out=$5 tx ty kt x y w
  IFS=: read -r tx ty kt x y w <<<"$4"
  sed -e 's/^size M.*$//' -e "s/\[\[float\]K\]M/[[float]$k]$m/; s/\[\[float\]N\]K/[[float]$n]$k/" \
    "$root/resources/examples/matmul.lift" >"$out.matmul.lift"
  sed -e "s|@PROGRAM@|$out.matmul.lift|; s/@TX@/$tx/; s/@TY@/$ty/; s/@K@/$kt/; s/@X@/$x/; s/@Y@/$y/; s/@W@/$w/" \
    "$root/bench/gpu/derived/vectorized-local.derivation.in" >"$out.derivation"
  "$liftc" derive "$out.derivation" -o "$out"
}
