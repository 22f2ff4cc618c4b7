/*
 * status.h - the status codes every fallible llmplan function returns.
 *
 * CP_STATUS_LIST is the one table of outcomes.  It expands to enum
 * cp_status (CP_OK is 0, so "if (st) return st;" works) and to the message
 * table behind cp_status_str().  The CLI maps a status to an exit code with
 * cp_status_exit(): input problems exit 2, runtime failures exit 1.
 *
 * CHECKLIST: a new entry needs its exit class in cp_status_exit().
 */
#ifndef LLMPLAN_CORE_STATUS_H
#define LLMPLAN_CORE_STATUS_H

#define CP_STATUS_LIST(X)                                                      \
    X(OK, "ok")                                                                \
    X(ERR_RANGE, "value out of range")                                         \
    X(ERR_LAYOUT, "invalid parallel layout")                                   \
    X(ERR_NOT_FOUND, "not found")                                              \
    X(ERR_PARSE, "cannot parse")                                               \
    X(ERR_USAGE, "invalid usage")                                              \
    X(ERR_EXISTS, "already exists")                                            \
    X(ERR_IO, "input/output error")                                            \
    X(ERR_DB, "catalog error")                                                 \
    X(ERR_NOMEM, "out of memory")                                              \
    X(ERR_CANCELLED, "cancelled")                                              \
    X(ERR_CONFLICT, "changed since it was read")                               \
    X(ERR_BUSY, "locked by another writer")

enum cp_status {
#define CP_STATUS_ENUM(name, msg) CP_##name,
    CP_STATUS_LIST(CP_STATUS_ENUM)
#undef CP_STATUS_ENUM
        CP_STATUS_COUNT
};

/* Static message for st; never NULL. */
const char *cp_status_str(enum cp_status st);

/* Process exit code for st: 0 for CP_OK, 2 for invalid input or usage
 * (range, layout, not found, parse, usage, exists), 1 for runtime failures
 * (I/O, catalog, memory, cancelled). */
int cp_status_exit(enum cp_status st);

#endif
