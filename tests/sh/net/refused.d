/* connect-refused for netpair's connects to a closed port, learned from
 * the target's first SYN */
tcp:::connect-request
/pid == $target/
{
	port = args[4]->tcp_dport;
	asked[args[4]->tcp_sport] = 1;
}
tcp:::connect-refused
/port && args[3]->tcps_rport == port/
{
	@refused[args[3]->tcps_raddr, args[2]->ip_saddr,
	    tcp_state_string[args[3]->tcps_state]] = count();
	/* args[4] is the RST: from the closed port to the port a SYN
	 * came from, the socket's local port */
	@rst[args[4]->tcp_sport == port && asked[args[4]->tcp_dport] &&
	    args[4]->tcp_dport == args[3]->tcps_lport ? "to-syn" : "astray"] =
	    count();
}
END
{
	printa("refused %s %s %s %@d\n", @refused);
	printa("rst %s %@d\n", @rst);
}
