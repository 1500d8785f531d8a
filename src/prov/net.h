/*
 * net.h -- DTrace's tcp, udp and ip providers on kernel tracepoints
 * (net.c); their translators are in the D library (dlib.c).
 */
#ifndef DSCOPE_NET_H
#define DSCOPE_NET_H

#include <stdbool.h>

#include "catalog.h"

void net_populate(struct catalog *cat);
int net_load_args(struct catalog *cat, struct probe *p);

/* The D library's __net_inbound for p: true when p fires for packets
 * coming in (their IP header is at skb->data, their local end is the
 * destination); false for sending probes and probes of other providers. */
bool net_inbound(const struct probe *p);

#endif /* DSCOPE_NET_H */
