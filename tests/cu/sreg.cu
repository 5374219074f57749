// sreg.cu -- lane special registers in warpsim's functional model.
// Each thread records %laneid, %lanemask_eq/lt/le/gt/ge and its rank among
// the threads with an odd index within its warp, by the usual idiom
// popc(ballot(pred) & lanemask_lt).  A PTX warp has at most 32 lanes, so
// with warp_size = 64 each 32-lane half behaves as one PTX warp.
// Compile: nvcc -arch=compute_75 -ptx -O3 tests/cu/sreg.cu -o tests/ptx/func/sreg.ptx
extern "C" __global__ void lane_sregs(unsigned *out)
{
	unsigned t = threadIdx.x, lane, eq, lt, le, gt, ge;
	asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
	asm volatile("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
	asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
	asm volatile("mov.u32 %0, %%lanemask_le;" : "=r"(le));
	asm volatile("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
	asm volatile("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
	unsigned odd = __ballot_sync(0xffffffffu, t & 1);
	unsigned *o = out + 7 * t;
	o[0] = lane;
	o[1] = eq;
	o[2] = lt;
	o[3] = le;
	o[4] = gt;
	o[5] = ge;
	o[6] = __popc(odd & lt);
}
