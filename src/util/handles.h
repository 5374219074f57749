/*
 * handles.h -- the process-wide registry of the public API's live handles
 * (handles.c).
 *
 * Models no hardware.  Every object the API hands out by pointer (ws_config,
 * ws_sim, ws_module, ws_function, ws_array) is registered with its type when
 * it is made and marked destroyed when it is freed; each entry point looks its
 * handle arguments up before it touches them, so a NULL, destroyed or foreign
 * handle (a ws_config * passed as a ws_sim *, a stray pointer) is an error
 * instead of a read of freed or unrelated memory.  A lookup reads only the
 * registry, never the memory the handle points to.
 *
 * Entries of destroyed objects are kept (with the simulator that owned them)
 * so that the error can say what happened: "the module was unloaded" rather
 * than "not a handle".  A handle is an address: once a destroyed object's
 * memory is reused for a new object of the same type, the old handle names
 * the new object.  The simulator keeps its unloaded modules, their functions
 * and its destroyed arrays allocated until it is destroyed, so their handles
 * never alias while it lives; simulators and configurations are freed at
 * once (include/warpsim.h, "Handles").
 */
#ifndef WARPSIM_UTIL_HANDLES_H
#define WARPSIM_UTIL_HANDLES_H

#include <stdbool.h>
#include <stddef.h>

enum handle_type { HANDLE_CONFIG, HANDLE_SIM, HANDLE_MODULE, HANDLE_FUNCTION, HANDLE_ARRAY, HANDLE_TYPE_COUNT };

enum handle_state {
	HANDLE_LIVE,    /* a live handle of the type asked for */
	HANDLE_NULL,    /* NULL */
	HANDLE_DEAD,    /* a handle of that type, destroyed */
	HANDLE_FOREIGN, /* a handle (live or destroyed) of another type */
	HANDLE_UNKNOWN, /* never a handle */
};

/* The public type name of t ("ws_sim"). */
const char *handle_type_name(enum handle_type t);

/* Register h as a live handle of type t whose errors go to simulator `owner`
 * (NULL: none, e.g. for a simulator or a configuration); it replaces any
 * entry of a destroyed object at the same address.  false if out of memory. */
bool handle_add(const void *h, enum handle_type t, void *owner);

/* What h is for a call that wants a handle of type t.  *owner (may be NULL)
 * receives the owning simulator of the entry found (live or destroyed),
 * *found (may be NULL) its type. */
enum handle_state handle_lookup(const void *h, enum handle_type t, void **owner, enum handle_type *found);

/* Mark h destroyed if it is a live handle of type t, in one step (of two
 * threads destroying the same handle, one wins); returns what h was before,
 * as handle_lookup. */
enum handle_state handle_kill(const void *h, enum handle_type t, void **owner);

/* "call: why" for a handle argument of `call` that is not a live handle of
 * type want (st and found as handle_lookup gave them), e.g. "wsLaunchKernel:
 * the module was unloaded (wsModuleUnload)". */
void handle_describe(enum handle_state st, enum handle_type want, enum handle_type found, const char *call, char *buf,
		     size_t bufsz);

/* Forget every entry (live or destroyed) owned by simulator `owner`, when its
 * memory is freed. */
void handle_forget_owned(const void *owner);

#endif
