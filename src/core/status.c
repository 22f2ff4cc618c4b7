/* status.c - messages and exit classes of enum cp_status. */
#include "status.h"

static const char *const messages[CP_STATUS_COUNT] = {
#define CP_STATUS_MSG(name, msg) msg,
    CP_STATUS_LIST(CP_STATUS_MSG)
#undef CP_STATUS_MSG
};

const char *cp_status_str(enum cp_status st)
{
    if ((unsigned)st >= CP_STATUS_COUNT)
        return "unknown status";
    return messages[st];
}

int cp_status_exit(enum cp_status st)
{
    switch (st) {
    case CP_OK:
        return 0;
    case CP_ERR_RANGE:
    case CP_ERR_LAYOUT:
    case CP_ERR_NOT_FOUND:
    case CP_ERR_PARSE:
    case CP_ERR_USAGE:
    case CP_ERR_EXISTS:
        return 2;
    case CP_ERR_CONFLICT: /* someone else changed it: try again */
    case CP_ERR_BUSY:
        return 1;
    default:
        return 1;
    }
}
