/*
 * net.c -- DTrace's network providers, tcp, udp and ip, on kernel
 * tracepoints, built as stable.c builds sched, proc and io: each probe is
 * a tracepoint, a guard choosing its firings, and args[] made by D
 * library inlines and translators (dlib.c) from one tracepoint argument.
 *
 * Packets are seen where every one of them passes, once per direction:
 *  - outbound at net:net_dev_queue, when IP hands the packet to a device
 *    (loopback included), after fragmentation and netfilter; the IP
 *    header is at skb->network_header and skb->sk is the sending socket
 *    (a request sock for a SYN-ACK, the per-netns control sock for a RST
 *    or an ACK sent for a time-wait connection);
 *  - inbound at net:netif_receive_skb, where the stack takes a packet
 *    from a device; the IP header is at skb->data, before the stack has
 *    set network_header, and no socket is known yet.
 * The guard reads skb->protocol and the IP header's protocol byte, so
 * ip:::send, tcp:::send and udp:::send share a tracepoint.  A segment
 * LSO/GSO sends as one is one firing, as DTrace's (the payload is the
 * whole of it).  Which direction a probe is for is the builtin
 * __net_inbound, a constant per program, so the translators are the same
 * for send and receive and a clause naming both stays right.
 *
 * Connections are seen through their sockets:
 *  - tcp:::state-change is sock:inet_sock_set_state for TCP sockets (its
 *    old and new states are Linux's TCP_*, which are the values of the D
 *    library's TCP_STATE_*).  Linux has no transition to TIME_WAIT on the
 *    socket (a separate time-wait sock takes over): a closing connection
 *    goes FIN-WAIT-2 -> CLOSED;
 *  - tcp:::connect-established and accept-established are its
 *    SYN-SENT -> ESTABLISHED and SYN-RECEIVED -> ESTABLISHED;
 *  - tcp:::connect-refused is its SYN-SENT -> CLOSED with the socket's
 *    error ECONNREFUSED: tcp_reset() sets it before closing, for a RST
 *    answering the SYN (a timeout leaves ETIMEDOUT);
 *  - tcp:::connect-request is the outbound SYN without ACK.
 * The socket probes have no packet in hand: args[2] and args[4] describe
 * the connection, from the socket (the packet's direction taken from
 * __net_inbound: the SYN-ACK or ACK that made it established comes in),
 * and tcps_state is the new state, inet_sock_set_state's argument 2 (the
 * socket's own still holds the old one).
 *
 * tcp:::accept-refused is derived.c's: the RST refusing a SYN is built by
 * tcp_v4_send_reset from the SYN alone and sent through the control
 * socket, so at net_dev_queue nothing tells it from any other RST; it is
 * seen where it is decided, tcp:tcp_send_reset with no socket (the form
 * with a reason argument fires there) or fbt on tcp_v4_send_reset and
 * tcp_v6_send_reset, and described from the SYN it answers.
 */
#include "sdt.h"

#include <stdbool.h>
#include <string.h>

#include "net.h"
#include "derived.h"

#define SKB "struct sk_buff *"
#define SOCK "struct sock *"

#define FROM(type, native, via) { type, "", native, via, 0 }

/* the args of the packet probes: one skb, its headers and its socket */
static const struct probe_arg tcp_pkt_args[] = {
	FROM("pktinfo_t *", SKB, "__pktinfo"),
	FROM("csinfo_t *", SKB, "__csinfo"),
	FROM("ipinfo_t *", SKB, "__ipinfo"),
	FROM("tcpsinfo_t *", SKB, "__tcpsinfo"),
	FROM("tcpinfo_t *", SKB, "__tcpinfo"),
};
static const struct probe_arg udp_pkt_args[] = {
	FROM("pktinfo_t *", SKB, "__pktinfo"),
	FROM("csinfo_t *", SKB, "__csinfo"),
	FROM("ipinfo_t *", SKB, "__ipinfo"),
	FROM("udpsinfo_t *", SKB, "__udpsinfo"),
	FROM("udpinfo_t *", SKB, "__udpinfo"),
};
static const struct probe_arg ip_pkt_args[] = {
	FROM("pktinfo_t *", SKB, "__pktinfo"),
	FROM("csinfo_t *", SKB, "__csinfo"),
	FROM("ipinfo_t *", SKB, "__ipinfo"),
	FROM("ifinfo_t *", SKB, "__ifinfo"),
	FROM("ipv4info_t *", SKB, "__ipv4info"),
	FROM("ipv6info_t *", SKB, "__ipv6info"),
};
/* the connection probes: a socket; state-change's args[5] is the old
 * state, inet_sock_set_state's argument 1 */
static const struct probe_arg tcp_sock_args[] = {
	FROM("pktinfo_t *", SOCK, "__sk_pktinfo"),
	FROM("csinfo_t *", SOCK, "__sk_csinfo"),
	FROM("ipinfo_t *", SOCK, "__sk_ipinfo"),
	FROM("tcpsinfo_t *", SOCK, "__sk_tcpsinfo"),
	FROM("tcpinfo_t *", SOCK, "__sk_tcpinfo"),
	{ "tcplsinfo_t *", "", "int", "__tcplsinfo", 1 },
};

#define ARGS(v) v, (int)(sizeof(v) / sizeof(v[0]))

static const struct {
	const char *prov, *name, *tp_group, *tp_event;
	int tp_nargs;		/* TP_PROTO's, written down for no BTF */
	const struct probe_arg *args;
	int nargs;
	int guard;
	bool inbound;		/* __net_inbound */
} net_probes[] = {	/* in DTrace's listing order: by provider, name */
	{ "ip", "receive", "net", "netif_receive_skb", 1, ARGS(ip_pkt_args),
	  GUARD_NET_IP, true },
	{ "ip", "send", "net", "net_dev_queue", 1, ARGS(ip_pkt_args),
	  GUARD_NET_IP, false },
	{ "tcp", "accept-established", "sock", "inet_sock_set_state", 3,
	  tcp_sock_args, 5, GUARD_TCP_ACCEPTED, true },
	{ "tcp", "connect-established", "sock", "inet_sock_set_state", 3,
	  tcp_sock_args, 5, GUARD_TCP_CONNECTED, true },
	{ "tcp", "connect-refused", "sock", "inet_sock_set_state", 3,
	  tcp_sock_args, 5, GUARD_TCP_REFUSED, true },
	{ "tcp", "connect-request", "net", "net_dev_queue", 1,
	  ARGS(tcp_pkt_args), GUARD_NET_SYN, false },
	{ "tcp", "receive", "net", "netif_receive_skb", 1, ARGS(tcp_pkt_args),
	  GUARD_NET_TCP, true },
	{ "tcp", "send", "net", "net_dev_queue", 1, ARGS(tcp_pkt_args),
	  GUARD_NET_TCP, false },
	{ "tcp", "state-change", "sock", "inet_sock_set_state", 3,
	  ARGS(tcp_sock_args), GUARD_TCP_SOCK, false },
	{ "udp", "receive", "net", "netif_receive_skb", 1, ARGS(udp_pkt_args),
	  GUARD_NET_UDP, true },
	{ "udp", "send", "net", "net_dev_queue", 1, ARGS(udp_pkt_args),
	  GUARD_NET_UDP, false },
};

#define NNET (sizeof(net_probes) / sizeof(net_probes[0]))

static int find(const struct probe *p)
{
	for (size_t i = 0; i < NNET; i++)
		if (strcmp(net_probes[i].prov, p->prov) == 0 &&
		    strcmp(net_probes[i].name, p->name) == 0)
			return (int)i;
	return -1;
}

void net_populate(struct catalog *cat)
{
	for (size_t i = 0; i < NNET; i++)
		catalog_add(cat, &(struct probe){ .kind = PROV_NET,
			    .prov = net_probes[i].prov, .mod = "vmlinux",
			    .func = "", .name = net_probes[i].name, .sysnr = -1,
			    .tp_group = net_probes[i].tp_group,
			    .tp_event = net_probes[i].tp_event,
			    .tp_nargs = net_probes[i].tp_nargs,
			    .guard = net_probes[i].guard });
}

int net_load_args(struct catalog *cat, struct probe *p)
{
	int tp_nargs = sdt_tp_nargs(p->tp_event), i = find(p);

	(void)cat;
	if (tp_nargs >= 0)
		p->tp_nargs = tp_nargs;
	if (i < 0)
		return derived_load_args(cat, p);
	p->args = net_probes[i].args;
	return p->nargs = net_probes[i].nargs;
}

bool net_inbound(const struct probe *p)
{
	int i = p && p->kind == PROV_NET ? find(p) : -1;

	return i >= 0 && net_probes[i].inbound;
}
