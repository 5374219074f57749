/*
 * registry.c -- the table of warp-scheduling and fetch policies, by name.
 *
 * Models no hardware.  Every policy lives in its own file under src/sched/
 * and declares itself there with WS_POLICY / WS_FETCH_POLICY (sched.h); the
 * build collects those declarations into the generated sched_registry.inc,
 * so adding a policy edits nothing here.  The simulator, `warpsim policies`
 * and config validation look policies up by name (docs/policies.md
 * describes each one), and resolve "WRAPPER:INNER" choices.
 */
#include <stdio.h>
#include <string.h>

#include "sched/sched.h"

/* The policies as the Makefile found them (WS_POLICY and WS_FETCH_POLICY
 * lines in the .c files of src/sched/, sched.h), in rank order. */
#define WS_REGISTER_POLICY(ident) extern const struct sched_policy sched_##ident;
#define WS_REGISTER_FETCH_POLICY(ident) extern const struct fetch_policy fetch_##ident;
#include "sched_registry.inc"
#undef WS_REGISTER_POLICY
#undef WS_REGISTER_FETCH_POLICY

#define WS_REGISTER_POLICY(ident) &sched_##ident,
#define WS_REGISTER_FETCH_POLICY(ident)
const struct sched_policy *const sched_policies[] = {
#include "sched_registry.inc"
	NULL,
};
#undef WS_REGISTER_POLICY
#undef WS_REGISTER_FETCH_POLICY

#define WS_REGISTER_POLICY(ident)
#define WS_REGISTER_FETCH_POLICY(ident) &fetch_##ident,
const struct fetch_policy *const fetch_policies[] = {
#include "sched_registry.inc"
	NULL,
};
#undef WS_REGISTER_POLICY
#undef WS_REGISTER_FETCH_POLICY

const struct sched_policy *sched_policy_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; sched_policies[i]; i++)
		if (strcmp(sched_policies[i]->name, name) == 0)
			return sched_policies[i];
	return NULL;
}

const struct fetch_policy *fetch_policy_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; fetch_policies[i]; i++)
		if (strcmp(fetch_policies[i]->name, name) == 0)
			return fetch_policies[i];
	return NULL;
}

/* Append " name name ..." of the policies in list that do (wraps) or do not wrap. */
static size_t list_names(const struct sched_policy *const *list, bool wraps, char *msg, size_t msgsz, size_t n)
{
	for (size_t i = 0; list[i] && n < msgsz; i++)
		if (list[i]->wraps == wraps)
			n += (size_t)snprintf(msg + n, msgsz - n, " %s", list[i]->name);
	return n;
}

static const struct sched_policy *find_in(const struct sched_policy *const *list, const char *name, size_t len)
{
	for (size_t i = 0; list[i]; i++)
		if (strlen(list[i]->name) == len && strncmp(list[i]->name, name, len) == 0)
			return list[i];
	return NULL;
}

bool sched_resolve_in(const struct sched_policy *const *list, const char *name, struct sched_choice *out, char *msg,
		      size_t msgsz)
{
	char dummy[8];
	if (!msg || !msgsz) {
		msg = dummy;
		msgsz = sizeof dummy;
	}
	msg[0] = 0;
	*out = (struct sched_choice){NULL, NULL};
	if (!name)
		name = "";
	const char *colon = strchr(name, ':');
	size_t olen = colon ? (size_t)(colon - name) : strlen(name);
	const struct sched_policy *p = find_in(list, name, olen);
	size_t n;
	if (!p) {
		n = (size_t)snprintf(msg, msgsz, "unknown warp-scheduling policy '%.*s' (known:", (int)olen, name);
		n = list_names(list, false, msg, msgsz, n);
		bool any_wrapper = false;
		for (size_t i = 0; list[i]; i++)
			any_wrapper |= list[i]->wraps;
		if (any_wrapper && n < msgsz) {
			n += (size_t)snprintf(msg + n, msgsz - n, "; wrappers, as WRAPPER:INNER:");
			n = list_names(list, true, msg, msgsz, n);
		}
		if (n < msgsz)
			snprintf(msg + n, msgsz - n, ")");
		return false;
	}
	if (!colon && p->wraps) {
		n = (size_t)snprintf(msg, msgsz,
				     "warp-scheduling policy '%s' wraps another: use %s:INNER with INNER one of", p->name,
				     p->name);
		n = list_names(list, false, msg, msgsz, n);
		return false;
	}
	if (colon && !p->wraps) {
		bool any_wrapper = false;
		for (size_t i = 0; list[i]; i++)
			any_wrapper |= list[i]->wraps;
		n = (size_t)snprintf(msg, msgsz, "warp-scheduling policy '%s' does not wrap another policy ('%s'); %s",
				     p->name, name, any_wrapper ? "wrappers:" : "no registered policy wraps another");
		n = list_names(list, true, msg, msgsz, n);
		return false;
	}
	const struct sched_policy *in = NULL;
	if (colon) {
		const char *iname = colon + 1;
		in = find_in(list, iname, strlen(iname));
		if (!in || in->wraps) {
			n = (size_t)snprintf(msg, msgsz, "unknown inner policy '%s' in '%s' (%s:INNER, INNER one of",
					     iname, name, p->name);
			n = list_names(list, false, msg, msgsz, n);
			if (n < msgsz)
				snprintf(msg + n, msgsz - n, ")");
			return false;
		}
	}
	out->pol = p;
	out->inner = in;
	return true;
}

bool sched_resolve(const char *name, struct sched_choice *out, char *msg, size_t msgsz)
{
	return sched_resolve_in(sched_policies, name, out, msg, msgsz);
}

uint32_t sched_choice_ncounters(const struct sched_choice *c)
{
	uint32_t n = 0;
	if (c->pol && c->pol->counters)
		n += c->pol->ncounters;
	if (c->inner && c->inner->counters)
		n += c->inner->ncounters;
	return n;
}

const struct sched_counter *sched_choice_counter(const struct sched_choice *c, uint32_t i, char *buf, size_t bufsz)
{
	const struct sched_policy *p = c->pol;
	uint32_t own = p && p->counters ? p->ncounters : 0;
	if (i >= own) {
		p = c->inner;
		i -= own;
	}
	if (!p || !p->counters || i >= p->ncounters)
		return NULL;
	if (buf && bufsz) {
		size_t n = (size_t)snprintf(buf, bufsz, "%s_%s", p->name, p->counters[i].name);
		for (size_t k = 0; k < n && k < bufsz; k++)
			if (buf[k] == '-' || buf[k] == ':')
				buf[k] = '_';
	}
	return &p->counters[i];
}

static bool can_sleep(const struct sched_policy *p)
{
	return p && (!p->on_cycle || (p->timers && p->timers->next_event));
}

bool sched_choice_can_sleep(const struct sched_choice *c)
{
	return can_sleep(c->pol) && (!c->inner || can_sleep(c->inner));
}

static bool preset_of(const struct sched_policy *p, const char *param, int64_t *value)
{
	for (const struct sched_preset *q = p ? p->presets : NULL; q && q->param; q++)
		if (strcmp(q->param, param) == 0) {
			*value = q->value;
			return true;
		}
	return false;
}

bool sched_choice_preset(const struct sched_choice *c, const char *param, int64_t *value)
{
	return preset_of(c->pol, param, value) || preset_of(c->inner, param, value);
}
