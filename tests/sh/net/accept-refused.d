/* accept-refused for netpair's connects to a closed port: the RST the
 * kernel answers each SYN with, from the closed port to the port the SYN
 * came from, acknowledging it; learned from the target's SYNs */
tcp:::connect-request
/pid == $target/
{
	port = args[4]->tcp_dport;
	syn[args[4]->tcp_sport] = args[4]->tcp_seq + 1;
}
tcp:::accept-refused
/port && args[4]->tcp_sport == port/
{
	@refused[args[2]->ip_saddr, args[2]->ip_daddr, args[3]->tcps_laddr,
	    tcp_state_string[args[3]->tcps_state],
	    syn[args[4]->tcp_dport] == args[4]->tcp_ack &&
	    args[3]->tcps_lport == port &&
	    args[3]->tcps_rport == args[4]->tcp_dport &&
	    args[4]->tcp_flags == (TH_RST | TH_ACK) ? "to-syn" : "astray"] =
	    count();
}
END
{
	printa("accept-refused %s %s %s %s %s %@d\n", @refused);
}
