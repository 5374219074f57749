// texture.cu -- CUDA arrays, texture and surface objects through the runtime
// (cudaMallocArray, cudaMalloc3DArray, cudaMemcpy2DToArray/FromArray,
// cudaMemcpy3D, cudaCreateTextureObject on arrays and linear memory,
// cudaCreateSurfaceObject), each result checked against a CPU reference.
#include <cmath>
#include <cstdio>

__global__ void blur(cudaTextureObject_t t, float *o, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
	if (x < w)  // bilinear sample half a texel right and down of the texel centre
		o[y * w + x] = tex2D<float>(t, x + 1.0f, y + 1.0f);
}

__global__ void scale(cudaSurfaceObject_t s, int w, float k)
{
	int x = threadIdx.x, y = blockIdx.x;
	float v = surf2Dread<float>(s, x * 4, y);
	surf2Dwrite(v * k, s, x * 4, y);
}

__global__ void fetch(cudaTextureObject_t t, cudaTextureObject_t t3, float *o, int n)
{
	int i = threadIdx.x;
	if (i < n)
		o[i] = tex1Dfetch<float>(t, i) + tex3D<float>(t3, i % 4 + 0.5f, 1.5f, 1.5f);
}

static float tap(const float *a, int w, int h, int x, int y)
{
	x = x < 0 ? 0 : x >= w ? w - 1 : x;
	y = y < 0 ? 0 : y >= h ? h - 1 : y;
	return a[y * w + x];
}

int main()
{
	const int W = 37, H = 5;
	float host[W * H], out[W * H];
	for (int i = 0; i < W * H; i++)
		host[i] = (float)((i * 37) % 101);
	cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
	cudaArray_t arr;
	cudaMallocArray(&arr, &f, W, H, cudaArraySurfaceLoadStore);
	cudaMemcpy2DToArray(arr, 0, 0, host, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice);
	cudaResourceDesc rd = {};
	rd.resType = cudaResourceTypeArray;
	rd.res.array.array = arr;
	cudaTextureDesc td = {};
	td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
	td.filterMode = cudaFilterModeLinear;
	td.readMode = cudaReadModeElementType;
	cudaTextureObject_t tex;
	cudaError_t e = cudaCreateTextureObject(&tex, &rd, &td, NULL);
	float *d;
	cudaMalloc(&d, sizeof out);
	blur<<<dim3(2, H), 32>>>(tex, d, W, H);
	cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost);
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {  // (x+1, y+1) - 0.5: the 2x2 at (x, y) with weights 1/2
			float want = 0.25f * (tap(host, W, H, x, y) + tap(host, W, H, x + 1, y) + tap(host, W, H, x, y + 1) +
			                      tap(host, W, H, x + 1, y + 1));
			bad += fabsf(out[y * W + x] - want) > 1e-4f;
		}
	printf("texture: create %s, bilinear %s\n", cudaGetErrorName(e), bad ? "FAILED" : "ok");

	cudaSurfaceObject_t surf;
	e = cudaCreateSurfaceObject(&surf, &rd);
	scale<<<H, W>>>(surf, W, 3.0f);
	float back[W * H];
	cudaMemcpy2DFromArray(back, W * sizeof(float), arr, 0, 0, W * sizeof(float), H, cudaMemcpyDeviceToHost);
	bad = 0;
	for (int i = 0; i < W * H; i++)
		bad += back[i] != 3.0f * host[i];
	printf("texture: surface %s, scaled %s\n", cudaGetErrorName(e), bad ? "FAILED" : "ok");

	// linear memory (tex1Dfetch) and a 3D array filled with cudaMemcpy3D
	float lin[8], vol[4 * 3 * 2];
	for (int i = 0; i < 8; i++)
		lin[i] = 0.5f * i;
	for (int i = 0; i < 24; i++)
		vol[i] = (float)(100 * i);
	float *dl;
	cudaMalloc(&dl, sizeof lin);
	cudaMemcpy(dl, lin, sizeof lin, cudaMemcpyHostToDevice);
	cudaResourceDesc rl = {};
	rl.resType = cudaResourceTypeLinear;
	rl.res.linear.devPtr = dl;
	rl.res.linear.desc = f;
	rl.res.linear.sizeInBytes = sizeof lin;
	cudaTextureDesc tp = {};
	cudaTextureObject_t tl, t3;
	cudaCreateTextureObject(&tl, &rl, &tp, NULL);
	cudaArray_t a3;
	cudaMalloc3DArray(&a3, &f, make_cudaExtent(4, 3, 2));
	cudaMemcpy3DParms p = {};
	p.srcPtr = make_cudaPitchedPtr(vol, 4 * sizeof(float), 4, 3);
	p.dstArray = a3;
	p.extent = make_cudaExtent(4, 3, 2);
	p.kind = cudaMemcpyHostToDevice;
	e = cudaMemcpy3D(&p);
	cudaResourceDesc r3 = {};
	r3.resType = cudaResourceTypeArray;
	r3.res.array.array = a3;
	td.filterMode = cudaFilterModePoint;
	cudaCreateTextureObject(&t3, &r3, &td, NULL);
	fetch<<<1, 8>>>(tl, t3, d, 8);
	cudaMemcpy(out, d, 8 * sizeof(float), cudaMemcpyDeviceToHost);
	bad = 0;
	for (int i = 0; i < 8; i++)
		bad += out[i] != lin[i] + vol[(1 * 3 + 1) * 4 + i % 4];
	printf("texture: memcpy3D %s, fetch and 3D %s\n", cudaGetErrorName(e), bad ? "FAILED" : "ok");
	cudaDestroyTextureObject(tex);
	cudaDestroyTextureObject(tl);
	cudaDestroyTextureObject(t3);
	cudaDestroySurfaceObject(surf);
	cudaFreeArray(arr);
	cudaFreeArray(a3);
	e = cudaGetLastError();
	printf("texture: %s\n", e == cudaSuccess ? "PASSED" : cudaGetErrorName(e));
	return 0;
}
