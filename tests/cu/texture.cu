// texture.cu -- texture and surface objects (tests/test_texture.c).
// Compiled with: nvcc -arch=compute_75 -ptx tests/cu/texture.cu -o tests/ptx/func/texture.ptx
// Every kernel reads coordinates from a buffer so that the host can check
// any coordinate, addressing mode and filter against its CPU reference.
#include <cuda_runtime.h>

// tex1Dfetch on linear memory: integer index, out of range reads zero
__global__ void fetch1d(cudaTextureObject_t t, const int *idx, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex1Dfetch<float>(t, idx[i]);
}
// 1D float coordinates
__global__ void tex1d(cudaTextureObject_t t, const float *c, float4 *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex1D<float4>(t, c[i]);
}
// 2D float coordinates, 4 channels
__global__ void tex2d(cudaTextureObject_t t, const float2 *c, float4 *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2D<float4>(t, c[i].x, c[i].y);
}
// 2D, integer result (element-type read of an integer texture)
__global__ void tex2di(cudaTextureObject_t t, const float2 *c, int *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2D<int>(t, c[i].x, c[i].y);
}
// 3D
__global__ void tex3d(cudaTextureObject_t t, const float4 *c, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex3D<float>(t, c[i].x, c[i].y, c[i].z);
}
// layered 1D and 2D (layer in c.w)
__global__ void tex1dlayered(cudaTextureObject_t t, const float4 *c, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex1DLayered<float>(t, c[i].x, (int)c[i].w);
}
__global__ void tex2dlayered(cudaTextureObject_t t, const float4 *c, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2DLayered<float>(t, c[i].x, c[i].y, (int)c[i].w);
}
// cube maps (direction in c.xyz, layer in c.w)
__global__ void texcube(cudaTextureObject_t t, const float4 *c, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = texCubemap<float>(t, c[i].x, c[i].y, c[i].z);
}
__global__ void texcubelayered(cudaTextureObject_t t, const float4 *c, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = texCubemapLayered<float>(t, c[i].x, c[i].y, c[i].z, (int)c[i].w);
}
// explicit level of detail and gradients (one level: both read level 0)
__global__ void tex2dlod(cudaTextureObject_t t, const float2 *c, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2DLod<float>(t, c[i].x, c[i].y, 0.0f) +
                    10.0f * tex2DGrad<float>(t, c[i].x, c[i].y, make_float2(1, 0), make_float2(0, 1));
}
// tld4: the 2x2 footprint, components 0 and 1
__global__ void gather(cudaTextureObject_t t, const float2 *c, float4 *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    o[2 * i] = tex2Dgather<float4>(t, c[i].x, c[i].y, 0);
    o[2 * i + 1] = tex2Dgather<float4>(t, c[i].x, c[i].y, 1);
  }
}
// surfaces: out(x, y) = 2 * in(x, y) + 1, with a border of `pad` elements read through each boundary mode
__global__ void surf2d(cudaSurfaceObject_t in, cudaSurfaceObject_t out, int w, int h, int pad, int mode) {
  int x = blockIdx.x * blockDim.x + threadIdx.x - pad, y = blockIdx.y - pad;
  float v;
  if (mode == 0) v = surf2Dread<float>(in, x * 4, y, cudaBoundaryModeZero);
  else if (mode == 1) v = surf2Dread<float>(in, x * 4, y, cudaBoundaryModeClamp);
  else v = surf2Dread<float>(in, x * 4, y, cudaBoundaryModeTrap);
  surf2Dwrite(2.0f * v + 1.0f, out, x * 4, y, cudaBoundaryModeZero);
}
// surfaces: 4-channel bytes, 3D and layered 2D
__global__ void surfmix(cudaSurfaceObject_t s4, cudaSurfaceObject_t s3d, cudaSurfaceObject_t sl, int w) {
  int x = threadIdx.x, y = blockIdx.x;
  uchar4 c = surf2Dread<uchar4>(s4, x * 4, y);
  surf2Dwrite(make_uchar4(c.w, c.z, c.y, c.x), s4, x * 4, y);
  short v = surf3Dread<short>(s3d, x * 2, y, 1);
  surf3Dwrite((short)(v * 3), s3d, x * 2, y, 1);
  int l = surf2DLayeredread<int>(sl, x * 4, y, 2);
  surf2DLayeredwrite(l + 1000, sl, x * 4, y, 2);
}
// sparse-texture form: tex.2d ... {...}|%p (every texel is resident in warpsim)
__global__ void resident(cudaTextureObject_t t, const float2 *c, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    bool r;
    float v = tex2D<float>(t, c[i].x, c[i].y, &r);
    o[i] = r ? v : -1.0f;
  }
}
