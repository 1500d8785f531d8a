/*
 * Ground truth: build/targets/loop calls getppid() exactly 12345 times,
 * so the count of its getppid entries is 12345, no more, no less.
 * @@args: -q -c "$B/targets/loop 12345"
 */
syscall::getppid:entry
/pid == $target/
{
	@calls = count();
}
