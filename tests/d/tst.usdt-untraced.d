/*
 * An is-enabled probe is off unless traced: this script traces other
 * probes of build/targets/usdtprog (neg-arg, named in its dashed
 * spelling, through a.out), never gated, so gated's semaphore stays 0 and
 * the target prints "gated 0".
 * @@args: -q -c "$B/targets/usdtprog 100"
 */
usdtprog$target:a.out::neg-arg
{
	@[probeprov == strjoin("usdtprog", lltostr($target)), probename] = count();
}

END
{
	printa("%d %s %@d\n", @);
}
