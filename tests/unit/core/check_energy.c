/*
 * check_energy.c - power, energy, emissions and cooling.
 */
#include <string.h>

#include "check_helpers.h"
#include "core/load.h"
#include "core/energy.h"
#include "core/netbom.h"
#include "core/reliability.h"
#include "core/storage.h"
#include "fixture.h"

static void chain(const struct scenario *sc, struct result *r)
{
    load_train(sc, r);
    netbom_estimate(sc, r);
    storage_estimate(sc, r);
    reliability_estimate(sc, r);
    load_train(sc, r);
    energy_estimate(sc, r);
}

/* clang-format off */
static const struct en_case {
    const char *name;
    uint64_t gpus, gpn, npr;
    double tdp_w, power_frac, host_w, network_w, storage_tb, w_per_tb;
    double pue, kgco2, days, air_kw, liquid_kw;
    double gpu_kw, host_kw, it_kw, facility_kw, it_mwh, tco2e, rack_kw;
    enum cooling cooling;
    const char *source;
} cases[] = {
    /* 8 x 0.525 = 4.2; 4.6 x 0.75 = 3.45; 100 TB x 10 W = 1 kW;
     * 8.65 x 1.3 = 11.245 kW; 240 h; 2.6988 MWh x 0.367. */
    {"single DGX H100", 8, 8, 4, 700, 0.75, 4600, 0, 100, 10,
     1.3, 0.367, 10, 30, 0,
     4.2, 3.45, 8.65, 11.245, 2.076, 11.245 * 0.24 * 0.367, 10.2,
     COOLING_AIR, "derived; DGX H100 10.2 kW max (reference 2)"},
    {"default power frac", 8, 8, 4, 700, 0, 4600, 0, 100, 10,
     1.3, 0.367, 10, 30, 0,
     4.2, 3.45, 8.65, 11.245, 2.076, 11.245 * 0.24 * 0.367, 10.2,
     COOLING_AIR, "Epoch: mean draw 0.75 of max (reference 8)"},
    /* 32 nodes: 134.4 + 110.4 + 20 = 264.8 kW; rack 4 x 10.2. */
    {"H100 SuperPOD SU", 256, 8, 4, 700, 0.75, 4600, 20000, 0, 10,
     1.2, 0.4, 1, 30, 100,
     134.4, 110.4, 264.8, 317.76, 6.3552, 317.76 * 0.024 * 0.4, 40.8,
     COOLING_LIQUID, "reference 5.1: 4 x 10.2 = 40.8 kW per rack"},
    /* Model-card convention: GPU-hours x TDP, PUE 1.  Llama 2 70B:
     * 1,720,320 A100-hours at 400 W, 291.42 tCO2eq (Touvron et al. 2023,
     * Table 2; implies 0.4235 kg/kWh). */
    {"Llama 2 70B model card", 2048, 8, 4, 400, 1, 0, 0, 0, 0,
     1, 0.4235, 35, 0, 0,
     819.2, 0, 819.2, 819.2, 688.128, 291.42, 12.8,
     COOLING_AIR, "Touvron et al. 2023 (Llama 2) Table 2"},
    /* GB200 NVL72: 72 x 1.2 kW + 33.6 kW host = 120 kW per rack. */
    {"GB200 NVL72 rack", 72, 72, 1, 1200, 0.8, 33600, 0, 0, 0,
     1.15, 0.3, 1, 30, 140,
     69.12, 25.2, 94.32, 108.468, 2.26368, 108.468 * 0.024 * 0.3, 120,
     COOLING_LIQUID, "reference 2 and 5.1: ~120 kW per NVL72 rack"},
};
/* clang-format on */

START_TEST(test_cases)
{
    const struct en_case *c = &cases[_i];
    struct scenario sc;
    struct result r;
    const struct energy_result *e = &r.energy;

    fixture_cluster(&sc, &r, c->gpus);
    sc.system.gpus_per_node = c->gpn;
    sc.system.nodes_per_rack = c->npr;
    sc.accel.tdp_w = c->tdp_w;
    sc.accel.power_frac = c->power_frac;
    sc.system.host_power_w = c->host_w;
    r.network.power_w = c->network_w;
    sc.storage.capacity_tb = c->storage_tb;
    sc.storage.watts_per_tb = c->w_per_tb;
    sc.site.pue = c->pue;
    sc.site.kgco2_per_kwh = c->kgco2;
    r.reliability.effective_train_days = c->days;
    sc.site.air_kw_per_rack = c->air_kw;
    sc.site.liquid_kw_per_rack = c->liquid_kw;
    load_train(&sc, &r);
    energy_estimate(&sc, &r);
    ck_assert_rel(e->gpu_kw, c->gpu_kw, 1e-12);
    ck_assert_rel(e->host_kw, c->host_kw, 1e-12);
    ck_assert_rel(e->it_kw, c->it_kw, 1e-12);
    ck_assert_rel(e->facility_kw, c->facility_kw, 1e-12);
    ck_assert_rel(e->it_mwh, c->it_mwh, 1e-12);
    ck_assert_rel(e->tco2e, c->tco2e, 1e-4);
    ck_assert_rel(e->rack_kw, c->rack_kw, 1e-12);
    ck_assert_int_eq(e->cooling, c->cooling);
}
END_TEST

/* The sanity check: an owned DGX H100 cluster on NDR draws
 * 0.9-1.6 kW of IT power per H100, host and network included. */
START_TEST(test_h100_kw_per_gpu)
{
    static const uint64_t gpus[] = {8, 256, 1024, 4096, 16384, 65536};
    size_t i;

    for (i = 0; i < sizeof(gpus) / sizeof(gpus[0]); i++) {
        struct scenario sc;
        struct result r;
        double kw;

        fixture_cluster(&sc, &r, gpus[i]);
        chain(&sc, &r);
        kw = r.energy.it_kw / (double)gpus[i];
        ck_assert_msg(kw >= 0.9 && kw <= 1.6,
                      "%llu H100: %.3f kW of IT power per GPU",
                      (unsigned long long)gpus[i], kw);
        ck_assert(r.energy.network_kw > 0 || gpus[i] <= 8);
    }
}
END_TEST

/* Energy runs over the failure-inclusive days, not the steady ones. */
START_TEST(test_effective_days)
{
    struct scenario sc;
    struct result r;

    fixture_cluster(&sc, &r, 1024);
    chain(&sc, &r);
    ck_assert(r.reliability.effective_train_days > r.time.train_days);
    ck_assert_rel(
        r.energy.it_mwh,
        r.energy.it_kw * r.reliability.effective_train_days * 24 / 1000, 1e-12);

    /* Without a reliability result the steady days are used. */
    r.reliability.effective_train_days = 0;
    load_train(&sc, &r);
    energy_estimate(&sc, &r);
    ck_assert_rel(r.energy.it_mwh, r.energy.it_kw * 30 * 24 / 1000, 1e-12);
}
END_TEST

START_TEST(test_cooling_warnings)
{
    struct scenario sc;
    struct result r;

    /* 40.8 kW racks at a 30 kW air / 100 kW liquid site: liquid, quiet. */
    fixture_cluster(&sc, &r, 256);
    load_train(&sc, &r);
    energy_estimate(&sc, &r);
    ck_assert_int_eq(r.energy.cooling, COOLING_LIQUID);
    ck_assert_uint_eq(r.nwarnings, 0);

    /* Same racks where there is no liquid cooling. */
    fixture_cluster(&sc, &r, 256);
    sc.site.liquid_kw_per_rack = 0;
    load_train(&sc, &r);
    energy_estimate(&sc, &r);
    ck_assert_uint_eq(r.nwarnings, 1);
    ck_assert_ptr_nonnull(strstr(r.warnings[0], "no liquid"));

    /* Above the liquid limit too. */
    fixture_cluster(&sc, &r, 256);
    sc.site.liquid_kw_per_rack = 35;
    load_train(&sc, &r);
    energy_estimate(&sc, &r);
    ck_assert_uint_eq(r.nwarnings, 1);
    ck_assert_ptr_nonnull(strstr(r.warnings[0], "liquid-cooling limit"));

    /* Two nodes fill half a rack: 20.4 kW, air. */
    fixture_cluster(&sc, &r, 16);
    load_train(&sc, &r);
    energy_estimate(&sc, &r);
    ck_assert_rel(r.energy.rack_kw, 20.4, 1e-12);
    ck_assert_int_eq(r.energy.cooling, COOLING_AIR);
}
END_TEST

/* A deterministic spread of inputs (no rand(): core tests are
 * reproducible). */
static double spread(unsigned i, unsigned salt, double lo, double hi)
{
    unsigned x = ((i + 1) * 2654435761u) ^ (salt * 40503u);
    double t = (double)(x % 10007) / 10006;

    return lo * pow(hi / lo, t);
}

/* Cooling by rack density (issue 12): 4 DGX H100 (40.8 kW, air-cooled
 * servers) sit behind rear doors, not liquid; an NVL72 rack (120 kW) is
 * direct liquid at the site's liquid PUE; the hall is sized on nameplate
 * (128 x 10.2 kW of nodes), and idle draw is 0.3 of it. */
START_TEST(test_cooling_tiers)
{
    struct scenario sc;
    struct result r;

    fixture_cluster(&sc, &r, 1024);
    sc.site.rear_door_kw_per_rack = 50;
    sc.site.liquid_pue = 1.15;
    chain(&sc, &r);
    ck_assert_int_eq(r.energy.cooling, COOLING_REAR_DOOR);
    ck_assert_str_eq(cooling_name(r.energy.cooling), "rear_door");
    ck_assert_rel(r.energy.pue, 1.3, 0);
    ck_assert_rel(r.energy.nameplate_it_kw,
                  128 * 10.2 + r.energy.network_kw + r.energy.storage_kw,
                  1e-12);
    ck_assert_rel(r.energy.idle_it_kw, 0.3 * r.energy.nameplate_it_kw, 1e-12);

    fixture_cluster(&sc, &r, 72);
    sc.system.gpus_per_node = 72;
    sc.system.nodes_per_rack = 1;
    sc.accel.tdp_w = 1200;
    sc.system.host_power_w = 33600;
    sc.site.rear_door_kw_per_rack = 50;
    sc.site.liquid_kw_per_rack = 140;
    sc.site.liquid_pue = 1.15;
    chain(&sc, &r);
    ck_assert_int_eq(r.energy.cooling, COOLING_LIQUID);
    ck_assert_rel(r.energy.pue, 1.15, 0);
    ck_assert_rel(r.energy.facility_kw, r.energy.it_kw * 1.15, 1e-15);
}
END_TEST

/* facility = IT x PUE exactly, components sum to IT, all >= 0. */
START_TEST(test_invariants)
{
    unsigned i;

    for (i = 0; i < 500; i++) {
        struct scenario sc;
        struct result r;
        const struct energy_result *e = &r.energy;

        fixture_cluster(&sc, &r, (uint64_t)spread(i, 1, 1, 1e6));
        sc.site.pue = spread(i, 2, 1, 3);
        sc.accel.tdp_w = spread(i, 3, 10, 2000);
        sc.system.host_power_w = spread(i, 4, 1, 40000);
        sc.storage.watts_per_tb = spread(i, 5, 0.1, 50);
        r.time.train_days = spread(i, 6, 1e-3, 1e3);
        chain(&sc, &r);
        ck_assert(e->facility_kw == e->it_kw * e->pue);
        ck_assert(e->pue == sc.site.pue || e->cooling == COOLING_LIQUID);
        ck_assert(e->nameplate_it_kw >= e->it_kw);
        ck_assert(e->idle_it_kw <= e->it_kw);
        ck_assert_rel(e->gpu_kw + e->host_kw + e->network_kw + e->storage_kw,
                      e->it_kw, 1e-12);
        ck_assert_rel(e->facility_mwh, e->it_mwh * e->pue, 1e-12);
        ck_assert_finite_nonneg(e->tco2e);
        ck_assert_finite_nonneg(e->rack_kw);
    }
}
END_TEST

START_TEST(test_extremes)
{
    static const uint64_t gpus[] = {1, 10000000, UINT64_MAX / 4};
    static const double big[] = {0, 1e-300, 1, 1e300};
    size_t i, j;

    for (i = 0; i < sizeof(gpus) / sizeof(gpus[0]); i++)
        for (j = 0; j < sizeof(big) / sizeof(big[0]); j++) {
            struct scenario sc;
            struct result r;
            const struct energy_result *e = &r.energy;

            fixture_cluster(&sc, &r, gpus[i]);
            sc.accel.tdp_w = big[j];
            sc.system.host_power_w = big[j];
            sc.site.pue = big[j];
            sc.site.kgco2_per_kwh = big[j];
            sc.storage.watts_per_tb = big[j];
            r.time.train_days = big[j];
            r.time.tokens_per_s = big[j];
            r.model.params = big[j];
            chain(&sc, &r);
            ck_assert_finite_nonneg(e->gpu_kw);
            ck_assert_finite_nonneg(e->host_kw);
            ck_assert_finite_nonneg(e->network_kw);
            ck_assert_finite_nonneg(e->storage_kw);
            ck_assert_finite_nonneg(e->it_kw);
            ck_assert_finite_nonneg(e->facility_kw);
            ck_assert_finite_nonneg(e->it_mwh);
            ck_assert_finite_nonneg(e->facility_mwh);
            ck_assert_finite_nonneg(e->tco2e);
            ck_assert_finite_nonneg(e->rack_kw);
        }
}
END_TEST

Suite *suite_energy(void); /* listed by the Makefile */

Suite *suite_energy(void)
{
    Suite *s = suite_create("energy");
    TCase *core = tcase_create("core");
    TCase *inv = tcase_create("invariants");
    TCase *lim = tcase_create("limits");

    tcase_add_loop_test(core, test_cases, 0,
                        (int)(sizeof(cases) / sizeof(cases[0])));
    tcase_add_test(core, test_h100_kw_per_gpu);
    tcase_add_test(core, test_effective_days);
    tcase_add_test(core, test_cooling_warnings);
    tcase_add_test(core, test_cooling_tiers);
    tcase_add_test(inv, test_invariants);
    tcase_add_test(lim, test_extremes);
    suite_add_tcase(s, core);
    suite_add_tcase(s, inv);
    suite_add_tcase(s, lim);
    return s;
}
