// tensor90.cu -- sm_90 tensor-core data movement for warpsim (issue 16):
// stmatrix (.x4 and .x1.trans) writes registers back as 8x8 b16 matrices.
// nvcc -arch=compute_90 -ptx -> tests/ptx/func/tensor90.ptx; checked in
// tests/test_tensor.c against the CPU reference.
#include <stdint.h>

extern "C" __global__ void stmatrix_b16(const uint32_t *in, unsigned short *out, unsigned short *outt)
{
	__shared__ unsigned short s[32 * 8], t[8 * 8];
	unsigned l = threadIdx.x;
	uint32_t r0 = in[l * 4], r1 = in[l * 4 + 1], r2 = in[l * 4 + 2], r3 = in[l * 4 + 3];
	unsigned addr = (unsigned)__cvta_generic_to_shared(&s[l * 8]);
	unsigned taddr = (unsigned)__cvta_generic_to_shared(&t[(l & 7) * 8]);
	asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};"
		     :: "r"(addr), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory");
	asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" :: "r"(taddr), "r"(r0) : "memory");
	__syncwarp();
	for (int i = l; i < 32 * 8; i += 32)
		out[i] = s[i];
	for (int i = l; i < 8 * 8; i += 32)
		outt[i] = t[i];
}
