// SPDX-License-Identifier: GPL-2.0
/*
 * mpsim: command line.
 *
 *   mpsim disc  [-n N] [-l LOSS] [-s SEED] [-d DELAY_US] [-j JITTER_US]
 *               [-b SPREAD_MS] [-f FAIL] [-J JOIN] [-r] [-D] [-H HOLD_MS]
 *               [-w WINDOW_MS] [-T HB_TIMEOUT_MS] [-v]
 *   mpsim xport [-p PAIRS] [-l LOSS] [-s SEED] [-d DELAY_US] [-j JITTER_US]
 *               [-r GBIT] [-m MTU] [-B KIB] [-R RTO_MS]
 *
 * Prints one line of key=value results. Exit status: 0 when the run did
 * what it must (disc: every live device formed the same pool, or all
 * reported the duplicate with -D; xport: every byte read back was right),
 * 1 when not, 2 for bad arguments.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim.h"

static int help(void)
{
	fprintf(stderr,
		"usage: mpsim disc [-n N] [-l LOSS] [-s SEED] [-d DELAY_US] [-j JITTER_US]\n"
		"                  [-b SPREAD_MS] [-f FAIL] [-J JOIN] [-r] [-D] [-H HOLD_MS]\n"
		"                  [-w WINDOW_MS] [-T HB_TIMEOUT_MS] [-v]\n"
		"       mpsim xport [-p PAIRS] [-l LOSS] [-s SEED] [-d DELAY_US] [-j JITTER_US]\n"
		"                   [-r GBIT] [-m MTU] [-B KIB] [-R RTO_MS]\n");
	return 2;
}

static int num(const char *s, double lo, double hi, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || *end || *v < lo || *v > hi) {
		fprintf(stderr, "mpsim: '%s' is not a number in [%g, %g]\n", s,
			lo, hi);
		return -EINVAL;
	}
	return 0;
}

static void print_phase(const char *name, const struct sim_disc_phase *p,
			uint32_t live)
{
	printf(" %s_converged=%d %s_ms=%.1f %s_gen=%u %s_members=%u",
	       name, p->converged, name, (double)p->time / SIM_MS,
	       name, p->generation, name, p->members);
	printf(" %s_lost=%u %s_rounds=%llu %s_sent=%llu %s_sent_per_dev=%.1f",
	       name, p->lost, name, (unsigned long long)p->rounds,
	       name, (unsigned long long)p->sent,
	       name, (double)p->sent / live);
	printf(" %s_sent_max=%llu %s_rcvd_per_dev=%.1f",
	       name, (unsigned long long)p->sent_max,
	       name, (double)p->rcvd / live);
	printf(" %s_discover=%llu %s_heartbeat=%llu %s_proxy=%llu",
	       name, (unsigned long long)p->kind[SIM_DISCOVER],
	       name, (unsigned long long)p->kind[SIM_HEARTBEAT],
	       name, (unsigned long long)p->kind[SIM_PROXY]);
	printf(" %s_reply=%llu %s_probe=%llu",
	       name, (unsigned long long)p->kind[SIM_REPLY],
	       name, (unsigned long long)p->kind[SIM_PROBE]);
}

static int cmd_disc(int argc, char **argv)
{
	struct sim_disc_cfg c = {
		.nr = 64, .seed = 1, .loss = 0.01, .delay = 20 * SIM_US,
		.jitter = 10 * SIM_US, .boot_spread = 500 * SIM_MS,
		.hold = 5 * SIM_S, .limit = 120 * SIM_S,
	};
	struct sim_disc_result r;
	double v;
	int opt, ret;

	while ((opt = getopt(argc, argv, "n:l:s:d:j:b:f:J:rDH:w:T:v")) != -1) {
		switch (opt) {
		case 'n':
			if (num(optarg, 1, 1024, &v))
				return 2;
			c.nr = (uint32_t)v;
			break;
		case 'l':
			if (num(optarg, 0, 0.9, &c.loss))
				return 2;
			break;
		case 's':
			if (num(optarg, 0, 1e15, &v))
				return 2;
			c.seed = (uint64_t)v;
			break;
		case 'd':
			if (num(optarg, 0, 1e6, &v))
				return 2;
			c.delay = (uint64_t)(v * SIM_US);
			break;
		case 'j':
			if (num(optarg, 0, 1e6, &v))
				return 2;
			c.jitter = (uint64_t)(v * SIM_US);
			break;
		case 'b':
			if (num(optarg, 0, 1e6, &v))
				return 2;
			c.boot_spread = (uint64_t)(v * SIM_MS);
			break;
		case 'f':
			if (num(optarg, 0, 1023, &v))
				return 2;
			c.fail = (uint32_t)v;
			break;
		case 'J':
			if (num(optarg, 0, 1023, &v))
				return 2;
			c.join = (uint32_t)v;
			break;
		case 'r':
			c.back = true;
			break;
		case 'D':
			c.dup_chip = true;
			break;
		case 'H':
			if (num(optarg, 0, 1e7, &v))
				return 2;
			c.hold = (uint64_t)(v * SIM_MS);
			break;
		case 'w':
			if (num(optarg, 200, 1e5, &v))
				return 2;
			c.window = (uint64_t)(v * SIM_MS);
			break;
		case 'T':
			if (num(optarg, 1000, 1e6, &v))
				return 2;
			c.hb_timeout = (uint64_t)(v * SIM_MS);
			break;
		case 'v':
			c.verbose = true;
			break;
		default:
			return help();
		}
	}
	if (optind != argc)
		return help();
	ret = sim_disc_run(&c, &r);
	if (ret) {
		fprintf(stderr, "mpsim: disc: %s\n", strerror(-ret));
		return ret == -EINVAL ? 2 : 1;
	}
	printf("disc n=%u loss=%g seed=%llu fail=%u join=%u dup=%d", c.nr,
	       c.loss, (unsigned long long)c.seed, c.fail, c.join, c.dup_chip);
	print_phase("boot", &r.boot, c.nr);
	if (c.fail || c.join)
		print_phase("change", &r.change, c.nr - c.fail + c.join);
	if (c.fail && c.back)
		print_phase("back", &r.back, c.nr + c.join);
	printf(" hold_rounds=%llu hold_sent_per_dev_s=%.2f agree=%d",
	       (unsigned long long)r.hold_rounds,
	       (double)r.hold_sent_milli / 1000, r.agree);
	printf(" conflict=%d dropped=%llu events=%llu\n", r.conflict,
	       (unsigned long long)r.dropped, (unsigned long long)r.events);
	if (c.dup_chip)
		return r.conflict ? 0 : 1;
	return r.agree && r.boot.converged &&
	       (!(c.fail || c.join) || r.change.converged) &&
	       (!(c.fail && c.back) || r.back.converged) ? 0 : 1;
}

static int cmd_xport(int argc, char **argv)
{
	struct sim_xport_cfg c = {
		.pairs = 4, .seed = 1, .loss = 0.01, .delay = 20 * SIM_US,
		.jitter = 10 * SIM_US, .rate = 10000000000ULL, .mtu = 9000,
		.bytes = 8 << 20, .limit = 600 * SIM_S,
	};
	struct sim_xport_result r;
	double v;
	int opt, ret;

	while ((opt = getopt(argc, argv, "p:l:s:d:j:r:m:B:R:")) != -1) {
		switch (opt) {
		case 'p':
			if (num(optarg, 1, 512, &v))
				return 2;
			c.pairs = (uint32_t)v;
			break;
		case 'l':
			if (num(optarg, 0, 0.9, &c.loss))
				return 2;
			break;
		case 's':
			if (num(optarg, 0, 1e15, &v))
				return 2;
			c.seed = (uint64_t)v;
			break;
		case 'd':
			if (num(optarg, 0, 1e6, &v))
				return 2;
			c.delay = (uint64_t)(v * SIM_US);
			break;
		case 'j':
			if (num(optarg, 0, 1e6, &v))
				return 2;
			c.jitter = (uint64_t)(v * SIM_US);
			break;
		case 'r':
			if (num(optarg, 0.001, 1000, &v))
				return 2;
			c.rate = (uint64_t)(v * 1e9);
			break;
		case 'm':
			if (num(optarg, 576, 65535, &v))
				return 2;
			c.mtu = (uint32_t)v;
			break;
		case 'B':
			if (num(optarg, 4, 1 << 20, &v))
				return 2;
			c.bytes = (uint64_t)v << 10;
			break;
		case 'R':
			if (num(optarg, 0.01, 1000, &v))
				return 2;
			c.rto = (uint64_t)(v * SIM_MS);
			break;
		default:
			return help();
		}
	}
	if (optind != argc)
		return help();
	ret = sim_xport_run(&c, &r);
	if (ret) {
		fprintf(stderr, "mpsim: xport: %s\n", strerror(-ret));
		return ret == -EINVAL ? 2 : 1;
	}
	printf("xport pairs=%u loss=%g seed=%llu mtu=%u rate_gbit=%g",
	       c.pairs, c.loss, (unsigned long long)c.seed, c.mtu,
	       (double)c.rate / 1e9);
	printf(" rto_ms=%g time_ms=%.1f goodput_mbyte_s=%.1f",
	       c.rto ? (double)c.rto / SIM_MS : 50.0, (double)r.time / SIM_MS,
	       r.goodput / 1e6);
	printf(" per_pair_mbyte_s=%.1f requests=%llu failed=%llu",
	       r.goodput / 1e6 / c.pairs, (unsigned long long)r.requests,
	       (unsigned long long)r.failed);
	printf(" retransmits=%llu duplicates=%llu frames=%llu verified=%d\n",
	       (unsigned long long)r.retransmits,
	       (unsigned long long)r.duplicates,
	       (unsigned long long)r.frames, r.verified);
	return r.verified ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return help();
	if (!strcmp(argv[1], "disc"))
		return cmd_disc(argc - 1, argv + 1);
	if (!strcmp(argv[1], "xport"))
		return cmd_xport(argc - 1, argv + 1);
	return help();
}
