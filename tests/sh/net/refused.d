/* connect-refused for netpair's connects to a closed port, learned from
 * the target's first SYN */
tcp:::connect-request
/pid == $target && !port/
{
	port = args[4]->tcp_dport;
}
tcp:::connect-refused
/port && args[3]->tcps_rport == port/
{
	@refused[args[3]->tcps_raddr, args[2]->ip_saddr,
	    tcp_state_string[args[3]->tcps_state]] = count();
}
END
{
	printa("refused %s %s %s %@d\n", @refused);
}
