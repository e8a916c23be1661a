// SPDX-License-Identifier: GPL-2.0-only
/* What the workload's child execs: one getpid(), one line, exit HELPER_EXIT. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "workload.h"

int main(int argc, char **argv)
{
	char line[64];
	int n;

	if (getpid() <= 0)
		return 1;
	n = snprintf(line, sizeof(line), "helper: tag %s\n", argc > 1 ? argv[1] : "-");
	if (write(STDOUT_FILENO, line, n) != n)
		return 2;
	return HELPER_EXIT;
}
