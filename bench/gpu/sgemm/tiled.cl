// A hand-written SGEMM in the shape the code generator should reach for matmul_tiled_gpu_8x8.lift
// (same kernel name, parameters and NDRange: one work-group of 16 x 16 per 128 x 128 tile of C;
// M, N count tiles of 128 and K tiles of 16): the A tile stored transposed in local memory and
// both tiles read from it as float4 (4 vector loads per k for 64 multiply-adds), fma, K tiles of
// TK, and with PREFETCH the next K tile loaded into registers while the current one is computed.
// bench/gpu/sgemm-shapes.sh runs it through `liftc run --kernel`, validated like any kernel.
#ifndef TK
#define TK 16
#endif
#ifndef PADA
#define PADA 0
#endif
#ifndef PREFETCH
#define PREFETCH 0
#endif
#define NA (TK / 8)  // float4 of A each work-item loads per K tile
#define NB (TK / 8)  // float4 of B

kernel __attribute__((reqd_work_group_size(16, 16, 1))) void matmulTiledGpu8x8(const global float* restrict A,
                                                                                const global float* restrict B,
                                                                                global float* restrict out,
                                                                                int M, int N, int K) {
  const int l0 = get_local_id(0), l1 = get_local_id(1), t = 16 * l1 + l0;
  const int cols = N * 128, depth = K * 16;
  const int row0 = get_group_id(1) * 128, col0 = get_group_id(0) * 128;
  local float As[TK][128 + PADA];  // the A tile, transposed: As[k][m]
  local float4 Bs[TK][32];         // the B tile: Bs[k][n / 4]
  float acc[8][8];
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;
  float4 ra[NA], rb[NB];
  // Global loads of K tile kt into registers: A as float4 along k (rows r, float4 c4 of the row),
  // B as float4 along n.
#define LOAD(kt)                                                             \
  for (int p = 0; p < NA; ++p) {                                             \
    int f = t + 256 * p, r = f / (TK / 4), c4 = f % (TK / 4);                \
    ra[p] = vload4(0, A + (size_t)(row0 + r) * depth + (kt) + 4 * c4);       \
  }                                                                          \
  for (int p = 0; p < NB; ++p) {                                             \
    int f = t + 256 * p, k = f / 32, c4 = f % 32;                            \
    rb[p] = vload4(0, B + (size_t)((kt) + k) * cols + col0 + 4 * c4);        \
  }
#define STORE()                                                              \
  for (int p = 0; p < NA; ++p) {                                             \
    int f = t + 256 * p, r = f / (TK / 4), c4 = f % (TK / 4);                \
    As[4 * c4 + 0][r] = ra[p].x;                                             \
    As[4 * c4 + 1][r] = ra[p].y;                                             \
    As[4 * c4 + 2][r] = ra[p].z;                                             \
    As[4 * c4 + 3][r] = ra[p].w;                                             \
  }                                                                          \
  for (int p = 0; p < NB; ++p) {                                             \
    int f = t + 256 * p, k = f / 32, c4 = f % 32;                            \
    Bs[k][c4] = rb[p];                                                       \
  }
  LOAD(0)
  for (int kt = 0; kt < depth; kt += TK) {
    STORE()
    barrier(CLK_LOCAL_MEM_FENCE);
#if PREFETCH
    if (kt + TK < depth) {
      LOAD(kt + TK)
    }
#endif
#pragma unroll
    for (int k = 0; k < TK; ++k) {
      float4 a0 = vload4(0, &As[k][4 * l1]), a1 = vload4(0, &As[k][64 + 4 * l1]);
      float4 b0 = Bs[k][l0], b1 = Bs[k][16 + l0];
      float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = fma(a[i], b[j], acc[i][j]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#if !PREFETCH
    if (kt + TK < depth) {
      LOAD(kt + TK)
    }
#endif
  }
  // Row 4 l1 + 64 (i / 4) + i % 4, columns 4 l0 + 64 (j / 4) + j % 4: float4 stores, a warp
  // writing 256 consecutive bytes of a row.
  for (int i = 0; i < 8; ++i) {
    size_t row = row0 + 4 * l1 + 64 * (i / 4) + i % 4;
    vstore4((float4)(acc[i][0], acc[i][1], acc[i][2], acc[i][3]), 0, out + row * cols + col0 + 4 * l0);
    vstore4((float4)(acc[i][4], acc[i][5], acc[i][6], acc[i][7]), 0, out + row * cols + col0 + 64 + 4 * l0);
  }
}
