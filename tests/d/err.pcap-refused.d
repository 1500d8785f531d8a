/* a function DTrace defines and dscope does not compile: its arguments
 * checked, then the sentence of its row (dscope -vV) */
BEGIN
{
	pcap(0, 1);
}
