/* udp:::send and receive between netpair's two sockets: the server's port
 * is where the target's first datagram goes */
udp:::send
/pid == $target && !port/
{
	port = args[4]->udp_dport;
}
udp:::send, udp:::receive
/port && (args[4]->udp_sport == port || args[4]->udp_dport == port)/
{
	this->dir = args[4]->udp_dport == port ? "c2s" : "s2c";
	@data[probename, this->dir] = count();
	@bytes[probename, this->dir] = sum(args[4]->udp_length - 8);
	@plen[probename, this->dir] = sum(args[2]->ip_plength - 8);
	@tuple[probename, this->dir, args[3]->udps_laddr, args[3]->udps_lport,
	    args[3]->udps_raddr, args[3]->udps_rport, args[2]->ip_saddr,
	    args[2]->ip_daddr] = count();
}
ip:::send, ip:::receive
/port/
{
	this->v4 = args[2]->ip_ver == 4;
	this->uh = (struct udphdr *)(this->v4 ?
	    (uint8_t *)args[4]->ipv4_hdr + args[4]->ipv4_ihl :
	    (uint8_t *)args[5]->ipv6_hdr + 40);
	this->udp = (this->v4 ? args[4]->ipv4_protocol : args[5]->ipv6_nexthdr) ==
	    IPPROTO_UDP;
}
ip:::send, ip:::receive
/port && this->udp && (ntohs(this->uh->source) == port ||
    ntohs(this->uh->dest) == port)/
{
	@ip[probename] = count();
}
END
{
	printa("data %s %s %@d\n", @data);
	printa("bytes %s %s %@d\n", @bytes);
	printa("plen %s %s %@d\n", @plen);
	printa("tuple %s %s %s %d %s %d %s %s %@d\n", @tuple);
	printa("all ip %s %@d\n", @ip);
}
