// SPDX-License-Identifier: GPL-2.0
/*
 * tbprof: a QEMU TCG plugin that counts the guest instructions executed in
 * each translated block of kernel text, for bench/profile.sh.
 *
 *   qemu-system-x86_64 ... -plugin build/bench/tbprof.so,out=FILE
 *
 * At exit FILE gets one line per kernel block, "ADDR EXECS INSNS" (hex
 * start address; how many times the block ran and the instructions it
 * executed, in total), and a line "user EXECS INSNS" for everything below
 * the kernel half.  Counts are exact: two inline adds run before each
 * block.  A block that starts a function counts the calls of it.
 * profile.py maps the addresses to functions with System.map.
 *
 * Only the few entry points of QEMU's plugin API (version 1, QEMU 7.2)
 * that this uses are declared here: Debian ships no qemu-plugin.h.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef struct qemu_info_t qemu_info_t;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };

typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

#define KERNEL_HALF	0xffff800000000000ULL
#define NBUCKETS	(1 << 16)

struct block {
	uint64_t vaddr;
	uint64_t execs;		/* times the block ran */
	uint64_t insns;		/* instructions executed there, in total */
	struct block *next;
};

static struct block *buckets[NBUCKETS];
static struct block user;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char *out_path;

/* Blocks retranslated at the same address share one counter. */
static struct block *block_of(uint64_t vaddr)
{
	struct block **head = &buckets[(vaddr >> 2) & (NBUCKETS - 1)];
	struct block *b;

	for (b = *head; b; b = b->next)
		if (b->vaddr == vaddr)
			return b;
	b = calloc(1, sizeof(*b));
	if (!b) {
		perror("tbprof");
		exit(1);
	}
	b->vaddr = vaddr;
	b->next = *head;
	*head = b;
	return b;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	uint64_t n = qemu_plugin_tb_n_insns(tb);
	struct block *b = &user;

	if (vaddr >= KERNEL_HALF) {
		pthread_mutex_lock(&lock);
		b = block_of(vaddr);
		pthread_mutex_unlock(&lock);
	}
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->execs, 1);
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->insns, n);
}

static void at_exit(qemu_plugin_id_t id, void *userdata)
{
	FILE *f = fopen(out_path, "w");
	struct block *b;
	int i;

	if (!f) {
		perror(out_path);
		return;
	}
	fprintf(f, "user %" PRIu64 " %" PRIu64 "\n", user.execs, user.insns);
	for (i = 0; i < NBUCKETS; i++)
		for (b = buckets[i]; b; b = b->next)
			if (b->insns)
				fprintf(f, "%" PRIx64 " %" PRIu64 " %" PRIu64 "\n",
					b->vaddr, b->execs, b->insns);
	fclose(f);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "out=", 4))
			out_path = strdup(argv[i] + 4);
	if (!out_path) {
		fprintf(stderr, "tbprof: usage: -plugin tbprof.so,out=FILE\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
