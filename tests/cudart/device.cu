// device.cu -- what a program asks of the device before it runs anything:
// every cudaDeviceGetAttribute of CUDA 13 (as helper_cuda.h's findCudaDevice
// asks cudaDevAttrComputeMode first), cudaGetDeviceProperties agreeing with
// the attributes, a launch with cudaLaunchKernelExC and attributes (as CUB
// launches), and stream handles that are not streams refused, not crashed on.
#include <cstdio>
#include <cstdlib>

__global__ void iota(int *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = i;
}

static int fails = 0;
#define EXPECT(c, ...)                                                                                                 \
	do {                                                                                                           \
		if (!(c)) {                                                                                            \
			printf("FAIL line %d: ", __LINE__);                                                            \
			printf(__VA_ARGS__);                                                                           \
			printf("\n");                                                                                  \
			fails++;                                                                                       \
		}                                                                                                      \
	} while (0)

int main()
{
	int v = -1;
	// findCudaDevice's first question
	EXPECT(cudaDeviceGetAttribute(&v, cudaDevAttrComputeMode, 0) == cudaSuccess && v == cudaComputeModeDefault,
	       "compute mode %d", v);
	int answered = 0, refused = 0;
	for (int a = 0; a <= 160; a++) {
		cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)a, 0);
		if (e == cudaSuccess)
			answered++;
		else if (e == cudaErrorInvalidValue)
			refused++;
		else
			EXPECT(0, "attribute %d: %s", a, cudaGetErrorString(e));
	}
	cudaGetLastError();
	printf("attributes: %d answered, %d invalid\n", answered, refused);
	EXPECT(answered == 124, "answered %d", answered); // every entry of warpsim's device_attrs.def
	cudaDeviceProp p;
	EXPECT(cudaGetDeviceProperties(&p, 0) == cudaSuccess, "properties");
	int sms, ws, l2, major, ck, tex2d;
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
	cudaDeviceGetAttribute(&ws, cudaDevAttrWarpSize, 0);
	cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
	cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
	cudaDeviceGetAttribute(&ck, cudaDevAttrConcurrentKernels, 0);
	cudaDeviceGetAttribute(&tex2d, cudaDevAttrMaxTexture2DWidth, 0);
	EXPECT(p.multiProcessorCount == sms && p.warpSize == ws && p.l2CacheSize == l2 && p.major == major &&
	           p.concurrentKernels == ck && p.maxTexture2D[0] == tex2d,
	       "properties disagree with attributes");
	printf("device: %d SMs, warp %d, L2 %d bytes, cc %d.%d\n", sms, ws, l2, p.major, p.minor);

	// cudaLaunchKernelExC with a scheduling hint (CUB) and the cooperative attribute
	const int n = 1000;
	int *d;
	cudaMalloc(&d, n * sizeof(int));
	cudaLaunchAttribute at[2];
	at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
	at[0].val.programmaticStreamSerializationAllowed = 1;
	at[1].id = cudaLaunchAttributePriority;
	at[1].val.priority = 0;
	cudaLaunchConfig_t cfg = {};
	cfg.gridDim = dim3((n + 127) / 128);
	cfg.blockDim = dim3(128);
	cfg.attrs = at;
	cfg.numAttrs = 2;
	EXPECT(cudaLaunchKernelEx(&cfg, iota, d, n) == cudaSuccess, "cudaLaunchKernelEx: %s",
	       cudaGetErrorString(cudaGetLastError()));
	int h[n];
	cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad += h[i] != i;
	EXPECT(bad == 0, "cudaLaunchKernelEx result: %d wrong", bad);
	at[0].id = cudaLaunchAttributeClusterDimension;
	at[0].val.clusterDim.x = 2;
	at[0].val.clusterDim.y = 1;
	at[0].val.clusterDim.z = 1;
	cfg.numAttrs = 1;
	EXPECT(cudaLaunchKernelEx(&cfg, iota, d, n) == cudaErrorNotSupported, "a 2-CTA cluster was accepted");
	cudaGetLastError();

	// handles that are not streams: an error, not a crash
	cudaStream_t s;
	cudaStreamCreate(&s);
	cudaStreamDestroy(s);
	EXPECT(cudaStreamSynchronize(s) == cudaErrorInvalidResourceHandle, "synchronize on a destroyed stream");
	cudaStream_t junk = (cudaStream_t)(void *)h;
	EXPECT(cudaStreamQuery(junk) == cudaErrorInvalidResourceHandle, "query on a foreign pointer");
	iota<<<1, 32, 0, junk>>>(d, n);
	EXPECT(cudaGetLastError() == cudaErrorInvalidResourceHandle, "launch on a foreign pointer");
	EXPECT(cudaStreamDestroy(s) == cudaErrorInvalidResourceHandle, "a second destroy");
	cudaFree(d);
	printf("device: %s\n", fails ? "FAILED" : "PASSED");
	return fails ? 1 : 0;
}
