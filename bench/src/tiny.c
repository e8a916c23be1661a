// SPDX-License-Identifier: GPL-2.0
/*
 * tiny: the smallest static program we can exec, for the execve benchmark.
 *
 *	tiny N		execs itself with N-1 until N is 0, then exits 0
 *
 * No libc (-nostdlib): the cost measured is the kernel's execve, not the
 * C library's start-up.
 */
static long sys3(long nr, long a, long b, long c)
{
	long ret;

	asm volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c)
		     : "rcx", "r11", "memory");
	return ret;
}

#define SYS_execve 59
#define SYS_exit 60

void cmain(long *sp)
{
	long argc = sp[0];
	char **argv = (char **)(sp + 1);
	char **envp = argv + argc + 1;
	char buf[24], *p = buf + sizeof(buf) - 1;
	unsigned long n = 0;
	const char *s;

	if (argc < 2)
		sys3(SYS_exit, 2, 0, 0);
	for (s = argv[1]; *s >= '0' && *s <= '9'; s++)
		n = n * 10 + (*s - '0');
	if (n == 0)
		sys3(SYS_exit, 0, 0, 0);
	n--;
	*p = 0;
	do {
		*--p = '0' + n % 10;
		n /= 10;
	} while (n);
	{
		char *nargv[] = { argv[0], p, 0 };

		sys3(SYS_execve, (long)argv[0], (long)nargv, (long)envp);
	}
	sys3(SYS_exit, 3, 0, 0);
}

asm(".globl _start\n"
    "_start:\n"
    "	mov %rsp, %rdi\n"
    "	and $-16, %rsp\n"
    "	call cmain\n"
    "	hlt\n");
