// video.cu -- every CUDA SIMD video intrinsic (__vabsdiffu4, __vadd2, __vcmpgts4, ...)
// for warpsim's tests (issue 16): compiled for compute_75 (integer emulation and
// vabsdiff4) and compute_90 (add/min/max .s16x2/.u16x2), the two must agree.
// tests/ptx/func/video75.ptx: nvcc -arch=compute_75 -ptx -O3 video.cu; video90.ptx: -arch=compute_90
#define F(n) o[i++] = n(a, b);
#define F1(n) o[i++] = n(a);
extern "C" __global__ void video_all(unsigned *o, unsigned a, unsigned b) {
  int i = 0;
  F1(__vabs2) F1(__vabs4) F1(__vabsss2) F1(__vabsss4) F1(__vneg2) F1(__vneg4) F1(__vnegss2) F1(__vnegss4)
  F(__vabsdiffs2) F(__vabsdiffs4) F(__vabsdiffu2) F(__vabsdiffu4) F(__vadd2) F(__vadd4) F(__vaddss2) F(__vaddss4)
  F(__vaddus2) F(__vaddus4) F(__vavgs2) F(__vavgs4) F(__vavgu2) F(__vavgu4) F(__vcmpeq2) F(__vcmpeq4)
  F(__vcmpges2) F(__vcmpges4) F(__vcmpgeu2) F(__vcmpgeu4) F(__vcmpgts2) F(__vcmpgts4) F(__vcmpgtu2) F(__vcmpgtu4)
  F(__vcmples2) F(__vcmples4) F(__vcmpleu2) F(__vcmpleu4) F(__vcmplts2) F(__vcmplts4) F(__vcmpltu2) F(__vcmpltu4)
  F(__vcmpne2) F(__vcmpne4) F(__vhaddu2) F(__vhaddu4) F(__vmaxs2) F(__vmaxs4) F(__vmaxu2) F(__vmaxu4)
  F(__vmins2) F(__vmins4) F(__vminu2) F(__vminu4) F(__vsads2) F(__vsads4) F(__vsadu2) F(__vsadu4)
  F(__vseteq2) F(__vseteq4) F(__vsetges2) F(__vsetges4) F(__vsetgeu2) F(__vsetgeu4) F(__vsetgts2) F(__vsetgts4)
  F(__vsetgtu2) F(__vsetgtu4) F(__vsetles2) F(__vsetles4) F(__vsetleu2) F(__vsetleu4) F(__vsetlts2) F(__vsetlts4)
  F(__vsetltu2) F(__vsetltu4) F(__vsetne2) F(__vsetne4) F(__vsub2) F(__vsub4) F(__vsubss2) F(__vsubss4)
  F(__vsubus2) F(__vsubus4)
  o[i++] = __vimax3_s32(a, b, 5); o[i++] = __vimin_s16x2_relu(a, b); o[i++] = __viaddmax_s32(a, b, 3);
}
