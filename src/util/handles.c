/*
 * handles.c -- the process-wide registry of the public API's live handles
 * (handles.h): a hash table from an object's address to its type, whether it
 * is alive, and the simulator that owns it.
 *
 * Models no hardware.  This registry is the one piece of process-wide
 * mutable state in the library (docs/design.md, "Who owns which state"): a
 * handle passed to the API may be stale or foreign, so whether it is a live
 * object cannot be asked of the object itself without reading memory that
 * may have been freed.  A mutex guards the table; the API may be called from
 * several threads on different simulators at once.  The table lives as long
 * as the process (it is reachable from a static, so leak checkers keep quiet).
 * Open addressing with linear probing; removed entries leave a marker that
 * later inserts reuse and that a rehash drops.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/handles.h"

enum { SLOT_EMPTY, SLOT_LIVE, SLOT_DEAD, SLOT_REMOVED };

struct handle_slot {
	uintptr_t key;
	void *owner;
	uint8_t type;  /* enum handle_type */
	uint8_t state; /* SLOT_* */
};

static struct {
	pthread_mutex_t lock;
	struct handle_slot *tab;
	size_t cap;  /* a power of two, or 0 */
	size_t used; /* slots not EMPTY */
} reg = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0};

static const char *const type_names[HANDLE_TYPE_COUNT] = {"ws_config", "ws_sim", "ws_module", "ws_function",
							  "ws_array"};

const char *handle_type_name(enum handle_type t) { return (unsigned)t < HANDLE_TYPE_COUNT ? type_names[t] : "?"; }

/* What destroyed a handle of each type. */
static const char *const dead_why[HANDLE_TYPE_COUNT] = {
	"the configuration was destroyed (wsConfigDestroy)",
	"the simulator was destroyed (wsSimDestroy)",
	"the module was unloaded (wsModuleUnload)",
	"the module was unloaded (wsModuleUnload), and its functions with it",
	"the array was destroyed (wsArrayDestroy)",
};

void handle_describe(enum handle_state st, enum handle_type want, enum handle_type found, const char *call, char *buf,
		     size_t bufsz)
{
	if (!buf || !bufsz)
		return;
	switch (st) {
	case HANDLE_LIVE: snprintf(buf, bufsz, "%s: no error", call); break;
	case HANDLE_NULL: snprintf(buf, bufsz, "%s: NULL %s handle", call, handle_type_name(want)); break;
	case HANDLE_DEAD: snprintf(buf, bufsz, "%s: %s", call, dead_why[want < HANDLE_TYPE_COUNT ? want : 0]); break;
	case HANDLE_FOREIGN:
		snprintf(buf, bufsz, "%s: the handle is a %s, not a %s", call, handle_type_name(found), handle_type_name(want));
		break;
	case HANDLE_UNKNOWN:
		snprintf(buf, bufsz, "%s: not a %s handle (not made by the API, or freed with its simulator)", call,
			 handle_type_name(want));
		break;
	}
}

static size_t slot_of(uintptr_t key, size_t cap)
{
	return (size_t)(((uint64_t)key >> 4) * 0x9E3779B97F4A7C15ull >> 17) & (cap - 1);
}

/* The slot holding key (LIVE or DEAD), or NULL.  Lock held. */
static struct handle_slot *find(uintptr_t key)
{
	if (!reg.cap)
		return NULL;
	for (size_t i = slot_of(key, reg.cap);; i = (i + 1) & (reg.cap - 1)) {
		struct handle_slot *s = &reg.tab[i];
		if (s->state == SLOT_EMPTY)
			return NULL;
		if (s->key == key && (s->state == SLOT_LIVE || s->state == SLOT_DEAD))
			return s;
	}
}

/* Make room for one more entry.  Lock held; false if out of memory. */
static bool grow(void)
{
	if (reg.cap && (reg.used + 1) * 4 < reg.cap * 3)
		return true;
	size_t kept = 0;
	for (size_t i = 0; i < reg.cap; i++)
		kept += reg.tab[i].state == SLOT_LIVE || reg.tab[i].state == SLOT_DEAD;
	size_t cap = 64;
	while (cap < (kept + 1) * 2)
		cap *= 2;
	struct handle_slot *t = calloc(cap, sizeof *t);
	if (!t)
		return false;
	for (size_t i = 0; i < reg.cap; i++) {
		const struct handle_slot *s = &reg.tab[i];
		if (s->state != SLOT_LIVE && s->state != SLOT_DEAD)
			continue;
		size_t k = slot_of(s->key, cap);
		while (t[k].state != SLOT_EMPTY)
			k = (k + 1) & (cap - 1);
		t[k] = *s;
	}
	free(reg.tab);
	reg.tab = t;
	reg.cap = cap;
	reg.used = kept;
	return true;
}

bool handle_add(const void *h, enum handle_type t, void *owner)
{
	uintptr_t key = (uintptr_t)h;
	pthread_mutex_lock(&reg.lock);
	struct handle_slot *s = find(key);
	bool ok = true;
	if (!s && (ok = grow())) {
		size_t i = slot_of(key, reg.cap);
		while (reg.tab[i].state == SLOT_LIVE || reg.tab[i].state == SLOT_DEAD)
			i = (i + 1) & (reg.cap - 1);
		s = &reg.tab[i];
		reg.used += s->state == SLOT_EMPTY;
	}
	if (ok)
		*s = (struct handle_slot){key, owner, (uint8_t)t, SLOT_LIVE};
	pthread_mutex_unlock(&reg.lock);
	return ok;
}

/* What slot s is for a call that wants type t.  Lock held. */
static enum handle_state state_of(const struct handle_slot *s, enum handle_type t)
{
	if (!s)
		return HANDLE_UNKNOWN;
	if (s->type != t)
		return HANDLE_FOREIGN;
	return s->state == SLOT_LIVE ? HANDLE_LIVE : HANDLE_DEAD;
}

static enum handle_state lookup(const void *h, enum handle_type t, void **owner, enum handle_type *found, bool kill)
{
	if (owner)
		*owner = NULL;
	if (!h)
		return HANDLE_NULL;
	pthread_mutex_lock(&reg.lock);
	struct handle_slot *s = find((uintptr_t)h);
	enum handle_state st = state_of(s, t);
	if (s && owner)
		*owner = s->owner;
	if (s && found)
		*found = (enum handle_type)s->type;
	if (st == HANDLE_LIVE && kill)
		s->state = SLOT_DEAD;
	pthread_mutex_unlock(&reg.lock);
	return st;
}

enum handle_state handle_lookup(const void *h, enum handle_type t, void **owner, enum handle_type *found)
{
	return lookup(h, t, owner, found, false);
}

enum handle_state handle_kill(const void *h, enum handle_type t, void **owner)
{
	return lookup(h, t, owner, NULL, true);
}

void handle_forget_owned(const void *owner)
{
	if (!owner)
		return;
	pthread_mutex_lock(&reg.lock);
	for (size_t i = 0; i < reg.cap; i++) {
		struct handle_slot *s = &reg.tab[i];
		if ((s->state == SLOT_LIVE || s->state == SLOT_DEAD) && s->owner == owner)
			s->state = SLOT_REMOVED;
	}
	pthread_mutex_unlock(&reg.lock);
}
