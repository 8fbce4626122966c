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
#include <stddef.h>
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

/* A command-line option: its letter, where it lands and how it scales. */
enum sim_opt_type { OPT_U32, OPT_U64, OPT_DBL, OPT_FLAG };

struct sim_opt {
	char letter;
	enum sim_opt_type type;
	double lo, hi, scale;	/* accepted range; stored as value * scale */
	size_t off;		/* in the command's configuration */
};

#define OPT(l, t, lo, hi, sc, cfg, f) \
	{ l, t, lo, hi, sc, offsetof(struct cfg, f) }

static const struct sim_opt disc_opts[] = {
	OPT('n', OPT_U32, 1, 1024, 1, sim_disc_cfg, nr),
	OPT('l', OPT_DBL, 0, 0.9, 1, sim_disc_cfg, loss),
	OPT('s', OPT_U64, 0, 1e15, 1, sim_disc_cfg, seed),
	OPT('d', OPT_U64, 0, 1e6, SIM_US, sim_disc_cfg, delay),
	OPT('j', OPT_U64, 0, 1e6, SIM_US, sim_disc_cfg, jitter),
	OPT('b', OPT_U64, 0, 1e6, SIM_MS, sim_disc_cfg, boot_spread),
	OPT('f', OPT_U32, 0, 1023, 1, sim_disc_cfg, fail),
	OPT('J', OPT_U32, 0, 1023, 1, sim_disc_cfg, join),
	OPT('r', OPT_FLAG, 0, 0, 0, sim_disc_cfg, back),
	OPT('D', OPT_FLAG, 0, 0, 0, sim_disc_cfg, dup_chip),
	OPT('H', OPT_U64, 0, 1e7, SIM_MS, sim_disc_cfg, hold),
	OPT('w', OPT_U64, 200, 1e5, SIM_MS, sim_disc_cfg, window),
	OPT('T', OPT_U64, 1000, 1e6, SIM_MS, sim_disc_cfg, hb_timeout),
	OPT('v', OPT_FLAG, 0, 0, 0, sim_disc_cfg, verbose),
};

static const struct sim_opt xport_opts[] = {
	OPT('p', OPT_U32, 1, 512, 1, sim_xport_cfg, pairs),
	OPT('l', OPT_DBL, 0, 0.9, 1, sim_xport_cfg, loss),
	OPT('s', OPT_U64, 0, 1e15, 1, sim_xport_cfg, seed),
	OPT('d', OPT_U64, 0, 1e6, SIM_US, sim_xport_cfg, delay),
	OPT('j', OPT_U64, 0, 1e6, SIM_US, sim_xport_cfg, jitter),
	OPT('r', OPT_U64, 0.001, 1000, 1e9, sim_xport_cfg, rate),
	OPT('m', OPT_U32, 576, 65535, 1, sim_xport_cfg, mtu),
	OPT('B', OPT_U64, 4, 1 << 20, 1024, sim_xport_cfg, bytes),
	OPT('R', OPT_U64, 0.01, 1000, SIM_MS, sim_xport_cfg, rto),
};

#define NR_OPTS(t)	(sizeof(t) / sizeof((t)[0]))

/* Parse @argv into @cfg by @tab; 0, or 2 (usage printed) on bad input. */
static int parse_opts(int argc, char **argv, const struct sim_opt *tab,
		      size_t n, void *cfg)
{
	char spec[2 * 32 + 1];
	size_t i, k = 0;
	double v;
	int opt;

	for (i = 0; i < n && k + 2 < sizeof(spec); i++) {
		spec[k++] = tab[i].letter;
		if (tab[i].type != OPT_FLAG)
			spec[k++] = ':';
	}
	spec[k] = '\0';
	while ((opt = getopt(argc, argv, spec)) != -1) {
		const struct sim_opt *o = NULL;
		char *dst;

		for (i = 0; i < n; i++)
			if (tab[i].letter == opt)
				o = &tab[i];
		if (!o)
			return help();
		dst = (char *)cfg + o->off;
		if (o->type == OPT_FLAG) {
			*(bool *)dst = true;
			continue;
		}
		if (num(optarg, o->lo, o->hi, &v))
			return 2;
		if (o->type == OPT_DBL)
			*(double *)dst = v * o->scale;
		else if (o->type == OPT_U32)
			*(uint32_t *)dst = (uint32_t)(v * o->scale);
		else
			*(uint64_t *)dst = (uint64_t)(v * o->scale);
	}
	return optind == argc ? 0 : help();
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
	printf(" %s_reply=%llu %s_probe=%llu %s_detect_ms=%.1f",
	       name, (unsigned long long)p->kind[SIM_REPLY],
	       name, (unsigned long long)p->kind[SIM_PROBE],
	       name, (double)p->detect / SIM_MS);
}

static int cmd_disc(int argc, char **argv)
{
	struct sim_disc_cfg c = {
		.nr = 64, .seed = 1, .loss = 0.01, .delay = 20 * SIM_US,
		.jitter = 10 * SIM_US, .boot_spread = 500 * SIM_MS,
		.hold = 5 * SIM_S, .limit = 120 * SIM_S,
	};
	struct sim_disc_result r;
	int ret;

	ret = parse_opts(argc, argv, disc_opts, NR_OPTS(disc_opts), &c);
	if (ret)
		return ret;
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
	printf(" hold_pool_sent_per_hb=%.1f hold_pool_rcvd_per_hb=%.1f",
	       (double)r.hold_pool_sent_milli / 1000,
	       (double)r.hold_pool_rcvd_milli / 1000);
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
	int ret;

	ret = parse_opts(argc, argv, xport_opts, NR_OPTS(xport_opts), &c);
	if (ret)
		return ret;
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
