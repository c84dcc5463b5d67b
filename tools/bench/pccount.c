// SPDX-License-Identifier: GPL-2.0
/*
 * tools/bench/pccount.c - a QEMU TCG plugin that counts the guest
 * kernel's executed instructions by the address of the translation block
 * they ran in: the cost meter's exact per-symbol count (scripts/bench
 * --cost --exact; Documentation/performance.rst, "Exact, per symbol").
 *
 *   qemu-system-x86_64 ... -plugin pccount.so,sock=PATH[,min=ADDR]
 *
 * Every translation block that starts at or above ADDR (default
 * 0xffff800000000000, the x86-64 kernel's half) gets an inline
 * "add its instruction count" on a counter kept per start address, so
 * a block translated again (after a flush, or split under -icount)
 * adds to the same counter.  No helper call per block: the counting
 * does not change what the guest executes, only how fast TCG runs it.
 * User-space blocks are not instrumented.
 *
 * PATH is a unix stream socket this plugin listens on.  A client sends
 * lines "dump FILE"; for each, FILE (written whole, then renamed) gets
 *
 *   pccount BLOCKS OVERFLOW
 *   ADDR COUNT            one line per start address whose count grew
 *                         since the previous dump: by COUNT instructions
 *
 * and the client gets "ok LINES" or "error: WHY".  BLOCKS is how many
 * start addresses have counters; past kMaxBlocks, new ones share one
 * overflow counter, whose growth is OVERFLOW (so a sum is never short).
 * A block that leaves early (a fault in its middle) was counted whole:
 * the counts are instructions translated into blocks that started,
 * within a few instructions per fault of those retired.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

enum { kMaxBlocks = 1 << 20, kHashSize = 1 << 21 };

struct block {
	uint64_t vaddr;
	struct qemu_plugin_scoreboard *count;
	uint64_t dumped; /* the count at the last dump */
};

static struct block *blocks;	 /* [kMaxBlocks]; blocks[0] is the overflow */
static uint32_t nblocks = 1;
static uint32_t *slots;		 /* open addressing: index into blocks, 0 free */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t min_vaddr = 0xffff800000000000ull;
static char sock_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
static int listen_fd = -1;

static uint32_t hash(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdull;
	v ^= v >> 33;
	return (uint32_t)v & (kHashSize - 1);
}

/* The counter of start address @vaddr, made on first sight; the
 * overflow counter once kMaxBlocks are in use.  Under the lock. */
static struct qemu_plugin_scoreboard *counter_of(uint64_t vaddr)
{
	uint32_t h = hash(vaddr);

	while (slots[h]) {
		if (blocks[slots[h]].vaddr == vaddr)
			return blocks[slots[h]].count;
		h = (h + 1) & (kHashSize - 1);
	}
	if (nblocks == kMaxBlocks)
		return blocks[0].count;
	blocks[nblocks].vaddr = vaddr;
	blocks[nblocks].count = qemu_plugin_scoreboard_new(sizeof(uint64_t));
	slots[h] = nblocks;
	return blocks[nblocks++].count;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	const uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	struct qemu_plugin_scoreboard *c;

	(void)id;
	if (vaddr < min_vaddr)
		return;
	pthread_mutex_lock(&lock);
	c = counter_of(vaddr);
	pthread_mutex_unlock(&lock);
	qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(tb, QEMU_PLUGIN_INLINE_ADD_U64,
							  qemu_plugin_scoreboard_u64(c),
							  qemu_plugin_tb_n_insns(tb));
}

/* Writes the counts grown since the last dump into @file; the reply
 * line into @reply. */
static void dump(const char *file, char *reply, size_t len)
{
	char tmp[4200];
	uint64_t overflow;
	unsigned long lines = 0;
	FILE *f;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", file) >= (int)sizeof(tmp)) {
		snprintf(reply, len, "error: path too long\n");
		return;
	}
	f = fopen(tmp, "w");
	if (!f) {
		snprintf(reply, len, "error: %s: %s\n", tmp, strerror(errno));
		return;
	}
	pthread_mutex_lock(&lock);
	overflow = qemu_plugin_u64_sum(qemu_plugin_scoreboard_u64(blocks[0].count));
	fprintf(f, "pccount %" PRIu32 " %" PRIu64 "\n", nblocks - 1, overflow - blocks[0].dumped);
	blocks[0].dumped = overflow;
	for (uint32_t i = 1; i < nblocks; i++) {
		const uint64_t n = qemu_plugin_u64_sum(qemu_plugin_scoreboard_u64(blocks[i].count));

		if (n == blocks[i].dumped)
			continue;
		fprintf(f, "%" PRIx64 " %" PRIu64 "\n", blocks[i].vaddr, n - blocks[i].dumped);
		blocks[i].dumped = n;
		lines++;
	}
	pthread_mutex_unlock(&lock);
	if (fclose(f) != 0 || rename(tmp, file) != 0) {
		snprintf(reply, len, "error: %s: %s\n", file, strerror(errno));
		unlink(tmp);
		return;
	}
	snprintf(reply, len, "ok %lu\n", lines);
}

/* One client at a time, one request per line. */
static void *serve(void *arg)
{
	(void)arg;
	for (;;) {
		int fd = accept(listen_fd, NULL, NULL);
		char line[4200], reply[4400];
		size_t have = 0;
		FILE *in;

		if (fd < 0) {
			if (errno == EINTR)
				continue;
			return NULL;
		}
		in = fdopen(fd, "r");
		if (!in) {
			close(fd);
			continue;
		}
		while (fgets(line, sizeof(line), in)) {
			have = strlen(line);
			if (have && line[have - 1] == '\n')
				line[--have] = 0;
			if (!strncmp(line, "dump ", 5) && line[5])
				dump(line + 5, reply, sizeof(reply));
			else
				snprintf(reply, sizeof(reply), "error: unknown request (want: dump FILE)\n");
			if (write(fd, reply, strlen(reply)) < 0)
				break;
		}
		fclose(in);
	}
}

static void on_exit_cb(qemu_plugin_id_t id, void *data)
{
	(void)id;
	(void)data;
	if (sock_path[0])
		unlink(sock_path);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	pthread_t t;

	if (!info->system_emulation) {
		fprintf(stderr, "pccount: for system emulation only\n");
		return -1;
	}
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "sock=", 5)) {
			if (strlen(argv[i] + 5) >= sizeof(sock_path)) {
				fprintf(stderr, "pccount: sock=%s: path too long\n", argv[i] + 5);
				return -1;
			}
			strcpy(sock_path, argv[i] + 5);
		} else if (!strncmp(argv[i], "min=", 4)) {
			char *end;

			errno = 0;
			min_vaddr = strtoull(argv[i] + 4, &end, 0);
			if (errno || end == argv[i] + 4 || *end) {
				fprintf(stderr, "pccount: min=%s: not an address\n", argv[i] + 4);
				return -1;
			}
		} else {
			fprintf(stderr, "pccount: unknown argument '%s' (sock=PATH, min=ADDR)\n", argv[i]);
			return -1;
		}
	}
	if (!sock_path[0]) {
		fprintf(stderr, "pccount: needs sock=PATH\n");
		return -1;
	}
	blocks = calloc(kMaxBlocks, sizeof(*blocks));
	slots = calloc(kHashSize, sizeof(*slots));
	if (!blocks || !slots) {
		fprintf(stderr, "pccount: out of memory\n");
		return -1;
	}
	blocks[0].count = qemu_plugin_scoreboard_new(sizeof(uint64_t));
	strcpy(a.sun_path, sock_path);
	unlink(sock_path);
	listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (listen_fd < 0 || bind(listen_fd, (struct sockaddr *)&a, sizeof(a)) != 0 ||
	    listen(listen_fd, 1) != 0) {
		fprintf(stderr, "pccount: %s: %s\n", sock_path, strerror(errno));
		return -1;
	}
	if (pthread_create(&t, NULL, serve, NULL) != 0) {
		fprintf(stderr, "pccount: cannot start its thread\n");
		return -1;
	}
	pthread_detach(t);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
	return 0;
}
