/*
 * check_netbom.c - fat-tree bill of materials against Al-Fares et al. 2008
 * (reference/catalog.md 3.4) and the NVIDIA DGX SuperPOD compute-fabric
 * tables, plus invariants (monotone switch counts, finite extremes).
 */
#include <string.h>

#include "check_helpers.h"
#include "core/load.h"
#include "core/netbom.h"

/* A DGX H100 cluster on NDR InfiniBand (QM9700, radix 64).  Prices and
 * power are plausible round numbers, not catalog values. */
static void ndr_cluster(struct scenario *sc, uint64_t gpus)
{
    memset(sc, 0, sizeof(*sc));
    sc->gpus = gpus;
    sc->system.gpus_per_node = 8;
    sc->system.scaleup_domain = 8;
    sc->system.nodes_per_rack = 4;
    sc->fabric.switch_radix = 64;
    sc->fabric.switch_price_usd = 30000;
    sc->fabric.switch_power_w = 1000;
    sc->fabric.nic_price_usd = 1500;
    sc->fabric.nic_power_w = 25;
    sc->fabric.transceiver_price_usd = 800;
    sc->fabric.transceiver_power_w = 12;
    sc->fabric.cable_price_usd = 100;
    sc->oversubscription = 1;
}

/* clang-format off */
static const struct nb_case {
    const char *name;
    uint64_t gpus, gpn, domain, radix;
    double o;
    bool rail;
    uint64_t tiers, leaves, spines, cores, cables, xcvrs;
    const char *source;
} cases[] = {
    /* name, gpus, gpn, domain, k, o, rail,
     *   tiers, leaf, spine, core, cables, transceivers, source */
    {"2-tier full k=64", 2048, 8, 8, 64, 1, false,
     2, 64, 32, 0, 4096, 4096,
     "reference 3.4: 2,048 endpoints, 96 switches (k^2/2, 3k/2)"},
    {"3-tier full k=64", 65536, 8, 8, 64, 1, false,
     3, 2048, 2048, 1024, 196608, 262144,
     "reference 3.4: 65,536 endpoints, 5,120 switches (k^3/4, 5k^2/4)"},
    {"2-tier full k=128", 8192, 8, 8, 128, 1, false,
     2, 128, 64, 0, 16384, 16384,
     "reference 3.4: 128x400G, 8,192 endpoints, 192 switches"},
    {"H100 SuperPOD 1 SU", 248, 8, 8, 64, 1, true,
     2, 8, 4, 0, 248 + 256, 512,
     "reference 3.4 H100 SuperPOD table: 31 nodes, 8 leaf, 4 spine"},
    {"H100 SuperPOD 2 SU", 504, 8, 8, 64, 1, true,
     2, 16, 8, 0, 504 + 512, 1024,
     "reference 3.4 H100 SuperPOD table: 63 nodes, 16 leaf, 8 spine"},
    {"H100 SuperPOD 3 SU", 760, 8, 8, 64, 1, true,
     2, 24, 16, 0, 760 + 768, 1536,
     "reference 3.4 H100 SuperPOD table: 95 nodes, 24 leaf, 16 spine"},
    {"H100 SuperPOD 4 SU", 1016, 8, 8, 64, 1, true,
     2, 32, 16, 0, 1016 + 1024, 2048,
     "reference 3.4 H100 SuperPOD table: 127 nodes, 32 leaf, 16 spine"},
    {"B200 SuperPOD 2 SU", 512, 8, 8, 64, 1, true,
     2, 16, 8, 0, 1024, 1024, "reference 3.4 B200 SuperPOD table"},
    {"B200 SuperPOD 4 SU", 1024, 8, 8, 64, 1, true,
     2, 32, 16, 0, 2048, 2048, "reference 3.4 B200 SuperPOD table"},
    {"B200 SuperPOD 8 SU", 2048, 8, 8, 64, 1, true,
     2, 64, 32, 0, 4096, 4096, "reference 3.4 B200 SuperPOD table"},
    {"B200 SuperPOD 16 SU", 4096, 8, 8, 64, 1, true,
     3, 128, 128, 64, 4096 + 8192, 16384,
     "reference 3.4 B200 SuperPOD table: 128/128/64"},
    {"B200 SuperPOD 32 SU", 8192, 8, 8, 64, 1, true,
     3, 256, 256, 128, 8192 + 16384, 32768,
     "reference 3.4 B200 SuperPOD table: 256/256/128"},
    {"B200 SuperPOD 64 SU", 16384, 8, 8, 64, 1, true,
     3, 512, 512, 256, 16384 + 32768, 65536,
     "reference 3.4 B200 SuperPOD table: 512/512/256"},
    {"one switch", 64, 8, 8, 64, 1, true,
     1, 1, 0, 0, 64, 0, "derived: 64 endpoints <= radix 64"},
    {"single node", 8, 8, 8, 64, 1, true,
     0, 0, 0, 0, 0, 0, "derived: one DGX talks over NVLink only"},
    {"NVL72 rack", 72, 4, 72, 64, 1, false,
     0, 0, 0, 0, 0, 0, "derived: the job fits one NVLink domain"},
    {"NVL72 two racks", 144, 4, 72, 64, 1, false,
     2, 5, 4, 0, 144 + 160, 320,
     "derived: 5 leaves x 32 up; 3 spines by ports, 4 to divide 32"},
    {"oversubscribed 3:1", 1536, 8, 8, 64, 3, false,
     2, 32, 8, 0, 1536 + 512, 1024,
     "derived: 48 down / 16 up per leaf, 32 x 16 / 64 = 8 spines"},
    {"3-tier partial", 3000, 8, 8, 64, 1, false,
     3, 94, 96, 47, 3000 + 6016, 12032,
     "derived: 94 leaves in 3 pods x 32 agg, 94 x 32 / 64 cores"},
};
/* clang-format on */

START_TEST(test_cases)
{
    const struct nb_case *c = &cases[_i];
    struct scenario sc;
    struct result r;
    const struct network_result *n = &r.network;
    uint64_t fabric_nics;

    ndr_cluster(&sc, c->gpus);
    sc.system.gpus_per_node = c->gpn;
    sc.system.scaleup_domain = c->domain;
    sc.fabric.switch_radix = c->radix;
    sc.oversubscription = c->o;
    sc.fabric.rail_optimized = c->rail;
    memset(&r, 0, sizeof(r));
    load_train(&sc, &r);
    netbom_estimate(&sc, &r);

    ck_assert_msg(n->tiers == c->tiers, "%s: tiers %llu, want %llu (%s)",
                  c->name, (unsigned long long)n->tiers,
                  (unsigned long long)c->tiers, c->source);
    ck_assert_msg(
        n->leaf_switches == c->leaves && n->spine_switches == c->spines &&
            n->core_switches == c->cores,
        "%s: leaf/spine/core %llu/%llu/%llu, want %llu/%llu/%llu "
        "(%s)",
        c->name, (unsigned long long)n->leaf_switches,
        (unsigned long long)n->spine_switches,
        (unsigned long long)n->core_switches, (unsigned long long)c->leaves,
        (unsigned long long)c->spines, (unsigned long long)c->cores, c->source);
    ck_assert_msg(
        n->cables == c->cables && n->transceivers == c->xcvrs,
        "%s: cables %llu xcvrs %llu, want %llu %llu (%s)", c->name,
        (unsigned long long)n->cables, (unsigned long long)n->transceivers,
        (unsigned long long)c->cables, (unsigned long long)c->xcvrs, c->source);
    fabric_nics = c->tiers ? c->gpus : 0;
    ck_assert_uint_eq(n->nics, fabric_nics);
    ck_assert_uint_eq(n->nodes, (c->gpus + c->gpn - 1) / c->gpn);
}
END_TEST

/* capex and power are the priced BOM, item by item. */
START_TEST(test_capex_power)
{
    struct scenario sc;
    struct result r;
    double sw, want_capex, want_w;

    ndr_cluster(&sc, 2048);
    memset(&r, 0, sizeof(r));
    load_train(&sc, &r);
    netbom_estimate(&sc, &r);
    sw = 96;
    want_capex = 2048 * 1500.0 + sw * 30000 + 4096 * 800.0 + 4096 * 100.0;
    want_w = 2048 * 25.0 + sw * 1000 + 4096 * 12.0;
    ck_assert_rel(r.network.capex_usd, want_capex, 1e-12);
    ck_assert_rel(r.network.power_w, want_w, 1e-12);
    /* 256 nodes, 4 per rack (SuperPOD H100: 4 DGX per rack). */
    ck_assert_uint_eq(r.network.nodes, 256);
    ck_assert_uint_eq(r.network.racks, 64);
}
END_TEST

/* A node price that includes its NICs (DGX) buys and powers none here:
 * the same BOM less 2,048 NICs. */
START_TEST(test_nics_included)
{
    struct scenario sc;
    struct result r;

    ndr_cluster(&sc, 2048);
    sc.system.nics_included = true;
    memset(&r, 0, sizeof(r));
    load_train(&sc, &r);
    netbom_estimate(&sc, &r);
    ck_assert_uint_eq(r.network.nics, 2048);
    ck_assert_rel(r.network.capex_usd,
                  96 * 30000.0 + 4096 * 800.0 + 4096 * 100.0, 1e-12);
    ck_assert_rel(r.network.power_w, 96 * 1000.0 + 4096 * 12.0, 1e-12);
}
END_TEST

/* Rail-optimized and plain trees agree when nodes fill whole scalable
 * units (the documented first-order equivalence). */
START_TEST(test_rail_equivalence)
{
    static const uint64_t gpus[] = {256, 512, 2048, 4096, 16384, 65536};
    size_t i;

    for (i = 0; i < sizeof(gpus) / sizeof(gpus[0]); i++) {
        struct scenario sc;
        struct result a, b;

        ndr_cluster(&sc, gpus[i]);
        memset(&a, 0, sizeof(a));
        memset(&b, 0, sizeof(b));
        sc.fabric.rail_optimized = false;
        load_train(&sc, &a);
        netbom_estimate(&sc, &a);
        sc.fabric.rail_optimized = true;
        load_train(&sc, &b);
        netbom_estimate(&sc, &b);
        ck_assert_uint_eq(a.network.leaf_switches, b.network.leaf_switches);
        ck_assert_uint_eq(a.network.spine_switches, b.network.spine_switches);
        ck_assert_uint_eq(a.network.core_switches, b.network.core_switches);
    }
}
END_TEST

static uint64_t switches(const struct result *r)
{
    return r->network.leaf_switches + r->network.spine_switches +
           r->network.core_switches;
}

/* More GPUs never need fewer switches, cables or transceivers, across
 * the 1->2->3 tier transitions, for several radices, oversubscriptions
 * and both layouts. */
START_TEST(test_monotone)
{
    static const struct {
        uint64_t k;
        double o;
        bool rail;
    } fab[] = {{64, 1, false},  {64, 1, true}, {48, 2, false},
               {40, 1.5, true}, {8, 1, false}, {128, 4, true}};
    size_t f;

    for (f = 0; f < sizeof(fab) / sizeof(fab[0]); f++) {
        struct scenario sc;
        struct result r;
        uint64_t g, prev_sw = 0, prev_cables = 0, prev_x = 0;

        for (g = 1; g < 3000000; g += g < 20000 ? 1 : g / 500) {
            ndr_cluster(&sc, g);
            sc.fabric.switch_radix = fab[f].k;
            sc.oversubscription = fab[f].o;
            sc.fabric.rail_optimized = fab[f].rail;
            memset(&r, 0, sizeof(r));
            load_train(&sc, &r);
            netbom_estimate(&sc, &r);
            ck_assert_msg(
                switches(&r) >= prev_sw,
                "k=%llu o=%g: %llu GPUs %llu switches < %llu",
                (unsigned long long)fab[f].k, fab[f].o, (unsigned long long)g,
                (unsigned long long)switches(&r), (unsigned long long)prev_sw);
            ck_assert(r.network.cables >= prev_cables);
            ck_assert(r.network.transceivers >= prev_x);
            prev_sw = switches(&r);
            prev_cables = r.network.cables;
            prev_x = r.network.transceivers;
        }
    }
}
END_TEST

/* Absurd but validated inputs: counts saturate, money stays finite. */
START_TEST(test_extremes)
{
    static const struct {
        uint64_t gpus, gpn, k, npr;
        double o;
    } ex[] = {
        {1, 1, 64, 1, 1},
        {10000000, 8, 64, 4, 1},
        {10000000, 1, 2, 1, 1},
        {10000000, 1, 1, 1, 1e6},
        {UINT64_MAX / 2, 1, 3, 1, 1},
        {12345, 7, 1000000, 1000, 1},
        {2, 1, 0, 0, 0},
    };
    size_t i;

    for (i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
        struct scenario sc;
        struct result r;

        ndr_cluster(&sc, ex[i].gpus);
        sc.system.gpus_per_node = ex[i].gpn;
        sc.system.scaleup_domain = ex[i].gpn;
        sc.fabric.switch_radix = ex[i].k;
        sc.system.nodes_per_rack = ex[i].npr;
        sc.oversubscription = ex[i].o;
        memset(&r, 0, sizeof(r));
        load_train(&sc, &r);
        netbom_estimate(&sc, &r);
        ck_assert_finite_nonneg(r.network.capex_usd);
        ck_assert_finite_nonneg(r.network.power_w);
        ck_assert(r.network.tiers <= 3);
        ck_assert(r.network.nodes >= 1);
        ck_assert(r.network.racks >= 1);
    }
}
END_TEST

/* Past k^3/4 endpoints the counts are extrapolated with a warning. */
START_TEST(test_beyond_three_tiers)
{
    struct scenario sc;
    struct result r;

    ndr_cluster(&sc, 100000);
    memset(&r, 0, sizeof(r));
    load_train(&sc, &r);
    netbom_estimate(&sc, &r);
    ck_assert_uint_eq(r.network.tiers, 3);
    ck_assert_uint_eq(r.nwarnings, 1);
    ck_assert_ptr_nonnull(strstr(r.warnings[0], "3-tier"));

    ndr_cluster(&sc, 65536);
    memset(&r, 0, sizeof(r));
    load_train(&sc, &r);
    netbom_estimate(&sc, &r);
    ck_assert_uint_eq(r.nwarnings, 0);
}
END_TEST

Suite *suite_netbom(void); /* listed by the Makefile */

Suite *suite_netbom(void)
{
    Suite *s = suite_create("netbom");
    TCase *core = tcase_create("core");
    TCase *inv = tcase_create("invariants");
    TCase *lim = tcase_create("limits");

    tcase_add_loop_test(core, test_cases, 0,
                        (int)(sizeof(cases) / sizeof(cases[0])));
    tcase_add_test(core, test_capex_power);
    tcase_add_test(core, test_nics_included);
    tcase_add_test(inv, test_rail_equivalence);
    tcase_add_test(inv, test_monotone);
    tcase_set_timeout(inv, 60);
    tcase_add_test(lim, test_extremes);
    tcase_add_test(lim, test_beyond_three_tiers);
    suite_add_tcase(s, core);
    suite_add_tcase(s, inv);
    suite_add_tcase(s, lim);
    return s;
}
