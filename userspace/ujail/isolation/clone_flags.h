/* SPDX-License-Identifier: GPL-2.0 */
/* CLONE_* flags that older C libraries' <sched.h> lack. */
#ifndef UJAIL_CLONE_FLAGS_H
#define UJAIL_CLONE_FLAGS_H

#include <sched.h>

#ifndef CLONE_NEWCGROUP
#define CLONE_NEWCGROUP 0x02000000
#endif
#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

#endif
