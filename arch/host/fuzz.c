// SPDX-License-Identifier: GPL-2.0
/*
 * Files for the fuzz driver (fuzz/fuzz.c), with plain libc.
 *
 * arch_fuzz_input() writes each input over the file named by the
 * environment variable CRAM_FUZZ_SAVE (nothing if it is unset), through
 * a descriptor kept open: pwrite() then ftruncate(), two system calls and
 * no buffering, so whatever kills the process afterwards, the input that
 * was running is on disk. arch_read_file() reads a saved input back.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "arch/arch.h"

static int save_fd = -1;
static bool save_checked;

void arch_fuzz_input(const u8 *data, size_t len)
{
	if (!save_checked) {
		const char *path = getenv("CRAM_FUZZ_SAVE");

		save_checked = true;
		if (path && *path) {
			save_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
			if (save_fd < 0)
				perror("host: CRAM_FUZZ_SAVE");
			else
				fprintf(stderr, "host: each fuzz input is written to %s before it runs\n",
					path);
		}
	}
	if (save_fd < 0)
		return;
	if (pwrite(save_fd, data, len, 0) != (ssize_t)len ||
	    ftruncate(save_fd, (off_t)len)) {
		perror("host: CRAM_FUZZ_SAVE");
		close(save_fd);
		save_fd = -1;
	}
}

long arch_read_file(const char *path, void *buf, size_t size)
{
	size_t len = 0;
	long ret;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n = read(fd, (char *)buf + len, size - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (n == 0) {
			ret = (long)len;
			break;
		}
		len += (size_t)n;
		if (len == size) {
			char extra;

			n = read(fd, &extra, 1);
			ret = n > 0 ? -E2BIG : n < 0 ? -errno : (long)len;
			break;
		}
	}
	close(fd);
	return ret;
}
