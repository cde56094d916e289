#!/usr/bin/env bash
# Prints the derivation of a tiled, K-blocked, register-blocked matmul from
# resources/examples/matmul.lift (the shape the explorer's -local mappings give, step by step):
# TILE x TILE tiles of C, one work-group each; the reduction over K in tiles of KTILE outside the
# tile's maps (tile-reduction-blocked), BX x BY register blocks per work-item (BLOCKS strided or
# contiguous, strided blocks taking their columns in runs of W side by side); the result tile in private memory, written to global memory at the end; each step
# copies the pair of tiles to local memory (the tile of B's columns transposed, so that both
# copies read global memory coalesced).
#
# Usage: bench/gpu/tiled-derivation.sh TILE KTILE BX BY [strided|contiguous [W]] > FILE.derivation
set -euo pipefail
[[ $# -ge 4 ]] || { sed -n 2,10p "$0" >&2; exit 2; }
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tile=$1 kt=$2 bx=$3 by=$4 blocks=${5:-strided} w=${6:-1}
T=0.1.0.0.0.1.1.0.0.0.1                            # the map over a tile's rows after tiling
X=$T.1.1.1                                         # join o reduce: the result tile in blocks
[[ $blocks == strided ]] && X=$T.1.1.1.1           # (strided blocks put one more transpose above)
R=$X.1                                             # the loop over K tiles
I=$R.0.0.0.0.0.0.0.0.0.1                           # a work-item's loop over the K tile
cat <<EOD
# Matmul in ${tile} x ${tile} tiles, K tiles of ${kt}, ${bx} x ${by} register blocks ($blocks, runs of $w): made by
# bench/gpu/tiled-derivation.sh $*
program: $root/resources/examples/matmul.lift
1. size-multiple@0:var=M,k=$tile
2. size-multiple@0:var=N,k=$tile
3. size-multiple@0:var=K,k=$kt
4. tiling@0:x=$tile,y=$tile
5. tile-reduction-blocked@$T:k=$kt,x=$bx,y=$by,blocks=$blocks,w=$w
6. map-to-wrg@0.1:dim=1                   # a work-group per tile
7. map-to-wrg@0.1.0.0.0.1.1:dim=0
8. reduce-to-seq@$R                       # the work-group's loop over K tiles
9. map-to-lcl@$R.0.0.0:dim=1              # a work-item per block
10. map-to-lcl@$R.0.0.0.0.0.0:dim=0
11. reduce-to-seq@$I                      # the block's loop over the K tile
12. map-to-seq@$I.0.0.0
13. map-to-seq@$I.0.0.0.0.0.0
14. add-id@$R.1                           # the result tile starts as a copy of zeros ...
15. implement-id-deep@$R.1
16. map-to-lcl@$R.1:dim=1
17. map-to-lcl@$R.1.0.0.0:dim=0
18. map-to-seq@$R.1.0.0.0.0.0.0
19. map-to-seq@$R.1.0.0.0.0.0.0.0.0.0
20. to-private@$R.1                       # ... in private memory: a work-item's block in registers
21. add-id@$X                             # the result tile copied ...
22. implement-id-deep@$X
23. map-to-lcl@$X:dim=1
24. map-to-lcl@$X.0.0.0:dim=0
25. map-to-seq@$X.0.0.0.0.0.0
26. map-to-seq@$X.0.0.0.0.0.0.0.0.0
27. to-global@$X                          # ... to global memory at the end
28. add-id-for-current-value-in-reduce@$X.1.1   # each step copies its pair of tiles ...
29. implement-id-deep@$X.1.1.0.0.0.1
30. map-to-lcl@$X.1.1.0.0.0.1.1:dim=1     # ... the tile of A's rows, row-major ...
31. map-to-lcl@$X.1.1.0.0.0.1.1.0.0.0:dim=0
32. to-local@$X.1.1.0.0.0.1.1
33. map-map-transpose@$X.1.1.0.0.0.1.2    # ... and the tile of B's columns, transposed
34. map-to-lcl@$X.1.1.0.0.0.1.2.1:dim=1
35. map-to-lcl@$X.1.1.0.0.0.1.2.1.0.0.0:dim=0
36. to-local@$X.1.1.0.0.0.1.2.1
EOD
