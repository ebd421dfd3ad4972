/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every part of ujail-keeper (watch.c, pid1.c, members.c, link.c)
 * shares, apart from main.c, which only dispatches to them.
 */
#ifndef UJAIL_KEEPER_MSG_H
#define UJAIL_KEEPER_MSG_H

/* "ujail: NAME: message" on stderr. */
__attribute__((format(printf, 2, 3)))
void keeper_msg(const char *name, const char *fmt, ...);

/* A signalfd for keeper_signals(), which it blocks; -1 after a message. */
int keeper_signalfd(const char *name);

#endif
