/*
 * types.c -- the element types the `warpsim exec` argument specs understand
 * (u8..u64, s8..s64, b8..b64, f32, f64): one table, plus parsing a value of
 * a type from text and printing one as decimal text or as hex bits.
 *
 * Models no hardware.  Values are stored in host byte order, which equals
 * the simulated device's little-endian layout on the hosts warpsim targets.
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "cli.h"

static const struct cli_type types[] = {
    {"u8", 1, CLI_K_UNSIGNED}, {"u16", 2, CLI_K_UNSIGNED}, {"u32", 4, CLI_K_UNSIGNED}, {"u64", 8, CLI_K_UNSIGNED},
    {"s8", 1, CLI_K_SIGNED},   {"s16", 2, CLI_K_SIGNED},   {"s32", 4, CLI_K_SIGNED},   {"s64", 8, CLI_K_SIGNED},
    {"b8", 1, CLI_K_UNSIGNED}, {"b16", 2, CLI_K_UNSIGNED}, {"b32", 4, CLI_K_UNSIGNED}, {"b64", 8, CLI_K_UNSIGNED},
    {"f32", 4, CLI_K_FLOAT},   {"f64", 8, CLI_K_FLOAT},
};

const struct cli_type *cli_type_find(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if (strlen(types[i].name) == len && strncmp(types[i].name, name, len) == 0)
			return &types[i];
	return NULL;
}

const char *cli_type_names(void)
{
	return "u8, u16, u32, u64, s8, s16, s32, s64, b8, b16, b32, b64, f32, f64";
}

static void store_int(unsigned size, uint64_t bits, void *dst)
{
	switch (size) {
	case 1: {
		uint8_t v = (uint8_t)bits;
		memcpy(dst, &v, 1);
		break;
	}
	case 2: {
		uint16_t v = (uint16_t)bits;
		memcpy(dst, &v, 2);
		break;
	}
	case 4: {
		uint32_t v = (uint32_t)bits;
		memcpy(dst, &v, 4);
		break;
	}
	default: memcpy(dst, &bits, 8); break;
	}
}

static uint64_t load_int(unsigned size, const void *src)
{
	switch (size) {
	case 1: {
		uint8_t v;
		memcpy(&v, src, 1);
		return v;
	}
	case 2: {
		uint16_t v;
		memcpy(&v, src, 2);
		return v;
	}
	case 4: {
		uint32_t v;
		memcpy(&v, src, 4);
		return v;
	}
	default: {
		uint64_t v;
		memcpy(&v, src, 8);
		return v;
	}
	}
}

int cli_value_parse(const struct cli_type *t, const char *s, void *dst, char *err, size_t errsz)
{
	unsigned bits = 8 * t->size;
	if (t->kind == CLI_K_UNSIGNED) {
		uint64_t max = bits == 64 ? UINT64_MAX : (1ull << bits) - 1, v;
		if (cli_parse_u64(s, max, &v, err, errsz))
			return -1;
		store_int(t->size, v, dst);
		return 0;
	}
	if (t->kind == CLI_K_SIGNED) {
		int64_t max = bits == 64 ? INT64_MAX : (int64_t)((1ull << (bits - 1)) - 1);
		int64_t min = -max - 1, v;
		if (cli_parse_s64(s, min, max, &v, err, errsz))
			return -1;
		store_int(t->size, (uint64_t)v, dst);
		return 0;
	}
	double d;
	if (cli_parse_f64(s, &d, err, errsz))
		return -1;
	if (t->size == 4) {
		/* values from FLT_MAX + half an ulp upwards would round to infinity */
		if (isfinite(d) && fabs(d) >= (double)FLT_MAX + ldexp(1.0, 103)) {
			snprintf(err, errsz, "'%s' is out of range for f32", s);
			return -1;
		}
		float f = (float)d;
		memcpy(dst, &f, 4);
	} else {
		memcpy(dst, &d, 8);
	}
	return 0;
}

void cli_value_print(const struct cli_type *t, const void *src, FILE *out)
{
	if (t->kind == CLI_K_FLOAT) {
		if (t->size == 4) {
			float f;
			memcpy(&f, src, 4);
			fprintf(out, "%.9g", (double)f);
		} else {
			double d;
			memcpy(&d, src, 8);
			fprintf(out, "%.17g", d);
		}
		return;
	}
	uint64_t v = cli_value_get_bits(t, src);
	if (t->kind == CLI_K_SIGNED) {
		fprintf(out, "%" PRId64, (int64_t)v);
	} else {
		fprintf(out, "%" PRIu64, v);
	}
}

void cli_value_print_hex(const struct cli_type *t, const void *src, FILE *out)
{
	fprintf(out, "%0*" PRIx64, (int)(2 * t->size), load_int(t->size, src));
}

uint64_t cli_value_get_bits(const struct cli_type *t, const void *src)
{
	uint64_t v = load_int(t->size, src);
	unsigned bits = 8 * t->size;
	if (t->kind == CLI_K_SIGNED && bits < 64 && ((v >> (bits - 1)) & 1))
		v |= ~0ull << bits;
	return v;
}

double cli_value_get_f64(const struct cli_type *t, const void *src)
{
	if (t->kind == CLI_K_FLOAT) {
		if (t->size == 4) {
			float f;
			memcpy(&f, src, 4);
			return f;
		}
		double d;
		memcpy(&d, src, 8);
		return d;
	}
	uint64_t v = cli_value_get_bits(t, src);
	return t->kind == CLI_K_SIGNED ? (double)(int64_t)v : (double)v;
}

void cli_value_set_bits(const struct cli_type *t, uint64_t bits, void *dst)
{
	store_int(t->size, bits, dst);
}

void cli_value_set_f64(const struct cli_type *t, double v, void *dst)
{
	if (t->size == 4) {
		float f = (float)v;
		memcpy(dst, &f, 4);
	} else {
		memcpy(dst, &v, 8);
	}
}
