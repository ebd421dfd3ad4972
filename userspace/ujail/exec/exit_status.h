/* SPDX-License-Identifier: GPL-2.0 */
/* ujail's exit statuses (ujail.8), of each process of the jail. */
#ifndef UJAIL_EXIT_STATUS_H
#define UJAIL_EXIT_STATUS_H

#define JAIL_EXIT_SETUP		1
#define JAIL_EXIT_USAGE		2
#define JAIL_EXIT_NOT_STARTED	127

#endif
