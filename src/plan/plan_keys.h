/*
 * plan_keys.h - the plan keys (README "Plans"): one per field of the
 * field table in core/fields.h, PK_<id> == FLD_<id>.  A key is added by
 * adding its row there (see the recipe at the top of core/fields.h).
 */
#ifndef LLMPLAN_PLAN_PLAN_KEYS_H
#define LLMPLAN_PLAN_PLAN_KEYS_H

#include "core/fields.h"

enum plan_key {
#define PLAN_KEY_ENUM(id, ...) PK_##id = FLD_##id,
    FIELD_LIST(PLAN_KEY_ENUM)
#undef PLAN_KEY_ENUM
        PLAN_KEY_COUNT = FIELD_COUNT
};

#endif
