// threads.cu -- eight host threads use the runtime at once, each with its own stream,
// buffer and <<<>>> launches (the runtime serialises them): 5 launches each, or argv[1].
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>
__global__ void inc(int *x, int n) { int i = blockIdx.x*blockDim.x+threadIdx.x; if (i < n) x[i] += 1; }
int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 5;
  std::vector<std::thread> ts; int ok[8] = {0};
  for (int t = 0; t < 8; t++) ts.emplace_back([t, reps, &ok] {
    int n = 256, h[256], *d; cudaStream_t s; cudaStreamCreate(&s);
    cudaMalloc(&d, n*4); cudaMemset(d, 0, n*4);
    for (int k = 0; k < reps; k++) inc<<<2,128,0,s>>>(d, n);
    cudaMemcpy(h, d, n*4, cudaMemcpyDeviceToHost);
    ok[t] = h[0] == reps && h[255] == reps; cudaFree(d); cudaStreamDestroy(s); });
  for (auto &t : ts) t.join();
  int all = 1; for (int t = 0; t < 8; t++) all &= ok[t];
  printf("threads: %s\n", all ? "PASSED" : "FAILED");
}
