tcp:::state-change
/pid == $target && args[3]->tcps_state == TCP_STATE_LISTEN/
{
	port = args[3]->tcps_lport;
}
tcp:::state-change
/port && (args[3]->tcps_lport == port || args[3]->tcps_rport == port)/
{
	printf("%d state %s %s %s\n", timestamp,
	    args[3]->tcps_rport == port ? "client" : "server",
	    tcp_state_string[args[5]->tcps_state],
	    tcp_state_string[args[3]->tcps_state]);
}
tcp:::send, tcp:::receive
/port && (args[4]->tcp_sport == port || args[4]->tcp_dport == port)/
{
	this->dir = args[4]->tcp_dport == port ? "c2s" : "s2c";
	this->len = args[2]->ip_plength - args[4]->tcp_offset;
	@data[probename, this->dir] = sum(this->len > 0);
	@bytes[probename, this->dir] = sum(this->len);
	@syn[probename, this->dir] = sum(args[4]->tcp_flags & TH_SYN ? 1 : 0);
	@fin[probename, this->dir] = sum(args[4]->tcp_flags & TH_FIN ? 1 : 0);
	@all[probename] = count();
	@tuple[probename, this->dir, args[3]->tcps_laddr, args[3]->tcps_lport,
	    args[3]->tcps_raddr, args[3]->tcps_rport, args[2]->ip_saddr,
	    args[2]->ip_daddr] = count();
}
ip:::send, ip:::receive
/port/
{
	this->v4 = args[2]->ip_ver == 4;
	this->th = (struct tcphdr *)(this->v4 ?
	    (uint8_t *)args[4]->ipv4_hdr + args[4]->ipv4_ihl :
	    (uint8_t *)args[5]->ipv6_hdr + 40);
	this->tcp = (this->v4 ? args[4]->ipv4_protocol : args[5]->ipv6_nexthdr) ==
	    IPPROTO_TCP;
}
ip:::send, ip:::receive
/port && this->tcp && (ntohs(this->th->source) == port ||
    ntohs(this->th->dest) == port)/
{
	@ip[probename] = count();
}
END
{
	printa("data %s %s %@d\n", @data);
	printa("bytes %s %s %@d\n", @bytes);
	printa("syn %s %s %@d\n", @syn);
	printa("fin %s %s %@d\n", @fin);
	printa("tuple %s %s %s %d %s %d %s %s %@d\n", @tuple);
	printa("all tcp %s %@d\n", @all);
	printa("all ip %s %@d\n", @ip);
}
tcp:::connect-request
/port && args[4]->tcp_dport == port/
{
	@conn["request", pid == $target, args[2]->ip_daddr, args[3]->tcps_state] =
	    count();
}
tcp:::connect-established
/port && args[3]->tcps_rport == port/
{
	@conn["established", 1, args[2]->ip_saddr, args[3]->tcps_state] = count();
}
tcp:::accept-established
/port && args[3]->tcps_lport == port/
{
	@conn["accepted", 1, args[2]->ip_daddr, args[3]->tcps_state] = count();
}
/* one clause over a packet probe and two socket probes: each probe's
 * args[] are its own (issue 27) */
tcp:::connect-request, tcp:::connect-established, tcp:::accept-established
/port && (args[4]->tcp_dport == port || args[4]->tcp_sport == port)/
{
	@ends[probename, args[2]->ip_saddr, args[4]->tcp_sport,
	    args[2]->ip_daddr, args[4]->tcp_dport] = count();
}
END
{
	printa("conn %s %d %s %d %@d\n", @conn);
	printa("ends %s %s %d %s %d %@d\n", @ends);
}
