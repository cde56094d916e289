// A kernel that never terminates: the worker test checks that it is killed at the timeout.
// The volatile flag keeps the compiler from proving the loop infinite and removing it.
__kernel void hang(__global float* out, int n) {
  volatile int spin = 1;
  int i = get_global_id(0);
  while (spin) {
    if (i < n) out[i] += 1.0f;
  }
}
