/*
 * outfile.c -- output files of the warpsim command that are written whole
 * or not at all.
 *
 * Models no hardware.  An output file (--stats, --timeline, --trace, a
 * report) is opened before the work starts, as a temporary file beside its
 * final name, so an unwritable path fails at once with the system's reason
 * instead of after a long simulation; at the end it is flushed, closed and
 * renamed into place.  Readers never see a half-written file, and two
 * commands writing the same file at once each leave a complete file (the
 * last rename wins) instead of an interleaving of both.  A path that exists
 * and is not a regular file (/dev/stdout, a FIFO) is written directly.
 * Where the file system allows it (Linux O_TMPFILE), the temporary has no
 * name until the commit, so a command that is killed leaves nothing behind;
 * elsewhere it is PATH.tmp.XXXXXX, linked in at once.
 */
#define _GNU_SOURCE /* O_TMPFILE */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

int cli_out_open(struct cli_out *o, const char *path, char *err, size_t errsz)
{
	memset(o, 0, sizeof *o);
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errsz, "%s: is a directory", path);
		errno = EISDIR;
		return -1;
	}
	o->path = strdup(path);
	if (!o->path) {
		snprintf(err, errsz, "%s: out of memory", path);
		return -1;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* a device or FIFO: there is nothing to replace atomically */
		o->f = fopen(path, "w");
		if (!o->f) {
			snprintf(err, errsz, "%s: cannot open for writing: %s", path, strerror(errno));
			cli_out_abort(o);
			return -1;
		}
		return 0;
	}
	size_t n = strlen(path) + 16;
	o->tmp = malloc(n);
	if (!o->tmp) {
		snprintf(err, errsz, "%s: out of memory", path);
		cli_out_abort(o);
		return -1;
	}
	int fd = -1;
#ifdef O_TMPFILE
	{
		/* an unnamed file in the target's directory: nothing is left if we die */
		const char *slash = strrchr(path, '/');
		size_t dl = slash ? (size_t)(slash - path) : 0;
		char *d = malloc(dl + 2);
		if (d) {
			if (slash)
				snprintf(d, dl + 2, "%.*s", (int)(slash == path ? 1 : dl), path);
			else
				snprintf(d, dl + 2, ".");
			fd = open(d, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
			free(d);
			if (fd >= 0)
				o->unnamed = 1;
			else if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL && errno != ENOENT) {
				/* the directory itself is the problem (missing, not a directory, not writable) */
				snprintf(err, errsz, "%s: cannot create: %s", path, strerror(errno));
				free(o->tmp);
				o->tmp = NULL;
				cli_out_abort(o);
				return -1;
			}
		}
	}
#endif
	snprintf(o->tmp, n, "%s.tmp.XXXXXX", path);
	if (fd < 0) {
		fd = mkstemp(o->tmp);
		if (fd < 0) {
			snprintf(err, errsz, "%s: cannot create: %s", path, strerror(errno));
			free(o->tmp);
			o->tmp = NULL;
			cli_out_abort(o);
			return -1;
		}
		/* mkstemp creates 0600; give the file the mode a plain fopen would */
		mode_t mask = umask(0);
		umask(mask);
		(void)fchmod(fd, 0666 & ~mask);
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		snprintf(err, errsz, "%s: cannot open for writing: %s", path, strerror(errno));
		close(fd);
		cli_out_abort(o);
		return -1;
	}
	return 0;
}

int cli_out_commit(struct cli_out *o, char *err, size_t errsz)
{
	if (!o->f)
		return -1;
	errno = 0;
	int bad = fflush(o->f) != 0 || ferror(o->f);
	int e = errno;
	if (!bad && o->unnamed) {
		/* give the unnamed file its temporary name, then rename it into place */
		char proc[64];
		snprintf(proc, sizeof proc, "/proc/self/fd/%d", fileno(o->f));
		int tries = 0;
		while (tries++ < 100) {
			/* a fresh name beside the target (mkstemp's pattern, created by linkat) */
			snprintf(o->tmp + strlen(o->path), 16, ".tmp.%06x", (unsigned)((uintptr_t)o ^ (unsigned)getpid() ^
			                                                            (unsigned)tries * 2654435761u) & 0xffffffu);
			if (linkat(AT_FDCWD, proc, AT_FDCWD, o->tmp, AT_SYMLINK_FOLLOW) == 0)
				break;
			if (errno != EEXIST) {
				bad = 1;
				e = errno;
				break;
			}
		}
		o->unnamed = 0; /* from here on the temporary has a name to remove on failure */
	}
	if (fclose(o->f) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	o->f = NULL;
	if (!bad && o->tmp && rename(o->tmp, o->path) != 0) {
		bad = 1;
		e = errno;
	}
	if (bad)
		snprintf(err, errsz, "%s: writing failed: %s", o->path, e ? strerror(e) : "I/O error");
	cli_out_abort(o);
	if (bad)
		errno = e ? e : EIO;
	return bad ? -1 : 0;
}

void cli_out_abort(struct cli_out *o)
{
	int e = errno; /* the caller's reason, not the clean-up's */
	if (o->f)
		fclose(o->f);
	if (o->tmp && !o->unnamed)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof *o);
	errno = e;
}

/* The absolute form of path with its directory resolved (symbolic links,
 * "." and ".."), the last component as given; NULL if the directory does not
 * exist. */
static char *resolved_path(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	char *rd = dir ? realpath(dir, NULL) : NULL;
	free(dir);
	if (!rd)
		return NULL;
	size_t n = strlen(rd) + strlen(base) + 2;
	char *r = malloc(n);
	if (r)
		snprintf(r, n, "%s/%s", strcmp(rd, "/") ? rd : "", base);
	free(rd);
	return r;
}

int cli_same_file(const char *a, const char *b)
{
	if (strcmp(a, b) == 0)
		return 1;
	struct stat sa, sb;
	if (stat(a, &sa) == 0 && stat(b, &sb) == 0) /* both exist: the same inode (links included) */
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	char *ra = resolved_path(a), *rb = resolved_path(b);
	int same = ra && rb && strcmp(ra, rb) == 0;
	free(ra);
	free(rb);
	return same;
}
