// devrt.cu -- printf and assert in device code (tests/test_func.c: func_devrt_*).
#include <cstdio>
#include <cassert>
__global__ void pf(int *a, float x) {
  int t = threadIdx.x;
  if (t < 3) printf("t=%d a=%d x=%f s=%s c=%c u=%u ll=%lld hex=%x p=%5.2f%%\n", t, a[t], x * t, "hi", 'A' + t, 7u, -5ll, 255, 3.14159);
  assert(a[t] >= 0);
}
