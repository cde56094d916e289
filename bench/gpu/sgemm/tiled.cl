// A hand-written SGEMM in the shape the code generator should reach for matmul_tiled_gpu_8x8.lift
// (same kernel name, parameters and groups: one work-group per 128 x 128 tile of C; M, N count
// tiles of 128 and K tiles of 16): 16 x TY work-items (TY = 16: 8 x 8 results each; TY = 8:
// 16 x 8, CLBlast's tuned H100 shape), the A tile stored transposed in local memory and both
// tiles read from it as float4 (RPT / 4 + 2 vector loads per k for 8 RPT multiply-adds), fma, K
// tiles of TK, and with PREFETCH the next K tile loaded into registers while the current one is
// computed. bench/gpu/sgemm-shapes.sh runs it through `liftc run --kernel`, validated like any
// kernel.
#ifndef TY
#define TY 16
#endif
#ifndef TK
#define TK 16
#endif
#ifndef PADA
#define PADA 0
#endif
#ifndef PREFETCH
#define PREFETCH 0
#endif
#define THREADS (16 * TY)
#define RPT (128 / TY)               // rows of C per work-item
#define NA (128 * TK / 4 / THREADS)  // float4 of A each work-item loads per K tile
#define NB (TK * 32 / THREADS)       // float4 of B

kernel __attribute__((reqd_work_group_size(16, TY, 1))) void matmulTiledGpu8x8(const global float* restrict A,
                                                                                const global float* restrict B,
                                                                                global float* restrict out,
                                                                                int M, int N, int K) {
  const int l0 = get_local_id(0), l1 = get_local_id(1), t = 16 * l1 + l0;
  const int cols = N * 128, depth = K * 16;
  const int row0 = get_group_id(1) * 128, col0 = get_group_id(0) * 128;
  local float As[TK][128 + PADA];  // the A tile, transposed: As[k][m]
  local float4 Bs[TK][32];         // the B tile: Bs[k][n / 4]
  float acc[RPT][8];
  for (int i = 0; i < RPT; ++i)
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;
  float4 ra[NA], rb[NB];
  // Global loads of K tile kt into registers: A as float4 along k (rows r, float4 c4 of the row),
  // B as float4 along n.
#define LOAD(kt)                                                       \
  for (int p = 0; p < NA; ++p) {                                       \
    int f = t + THREADS * p, r = f / (TK / 4), c4 = f % (TK / 4);      \
    ra[p] = vload4(0, A + (size_t)(row0 + r) * depth + (kt) + 4 * c4); \
  }                                                                    \
  for (int p = 0; p < NB; ++p) {                                       \
    int f = t + THREADS * p, k = f / 32, c4 = f % 32;                  \
    rb[p] = vload4(0, B + (size_t)((kt) + k) * cols + col0 + 4 * c4);  \
  }
#define STORE()                                                   \
  for (int p = 0; p < NA; ++p) {                                  \
    int f = t + THREADS * p, r = f / (TK / 4), c4 = f % (TK / 4); \
    As[4 * c4 + 0][r] = ra[p].x;                                  \
    As[4 * c4 + 1][r] = ra[p].y;                                  \
    As[4 * c4 + 2][r] = ra[p].z;                                  \
    As[4 * c4 + 3][r] = ra[p].w;                                  \
  }                                                               \
  for (int p = 0; p < NB; ++p) {                                  \
    int f = t + THREADS * p, k = f / 32, c4 = f % 32;             \
    Bs[k][c4] = rb[p];                                            \
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
      float a[RPT];
#pragma unroll
      for (int g = 0; g < RPT / 4; ++g) {
        float4 v = vload4(0, &As[k][4 * TY * g + 4 * l1]);
        a[4 * g] = v.x, a[4 * g + 1] = v.y, a[4 * g + 2] = v.z, a[4 * g + 3] = v.w;
      }
      float4 b0 = Bs[k][l0], b1 = Bs[k][16 + l0];
      float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < RPT; ++i)
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
  // Row 4 l1 + 4 TY (i / 4) + i % 4, columns 4 l0 + 64 (j / 4) + j % 4: float4 stores, a warp
  // writing 256 consecutive bytes of a row.
  for (int i = 0; i < RPT; ++i) {
    size_t row = row0 + 4 * l1 + 4 * TY * (i / 4) + i % 4;
    vstore4((float4)(acc[i][0], acc[i][1], acc[i][2], acc[i][3]), 0, out + row * cols + col0 + 4 * l0);
    vstore4((float4)(acc[i][4], acc[i][5], acc[i][6], acc[i][7]), 0, out + row * cols + col0 + 64 + 4 * l0);
  }
}
