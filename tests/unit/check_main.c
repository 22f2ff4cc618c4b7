/*
 * check_main.c - the Check runner.  Built twice: with SUITES naming the
 * generated list of core suites (linked against libcore.a alone) or of the
 * application suites.  CK_RUN_SUITE=name filters (Check's own variable);
 * TAP goes to $CK_TAP_LOG_FILE_NAME when set.
 */
#include <check.h>
#include <stdlib.h>

#define X(fn) Suite *fn(void);
#include SUITES
#undef X

int main(void)
{
    SRunner *sr = srunner_create(NULL);
    int failed;

#define X(fn) srunner_add_suite(sr, fn());
#include SUITES
#undef X
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
