/*
 * fds[] maps a file descriptor to its file: build/targets/readfiles reads
 * 3 x 100 bytes of alpha.txt and 2 x 50 of beta.txt in /tmp/dscope-fds,
 * so read(2) asked for exactly 300 and 100 bytes of those two paths.
 * @@args: -c "$B/targets/readfiles /tmp/dscope-fds"
 * strsize 200: its two string keys then fit the 512 bytes the hash map
 * keys of older kernels (5.10) may have.
 */
#pragma D option quiet
#pragma D option strsize=200

syscall::read:entry
/pid == $target && dirname(fds[arg0].fi_pathname) == "/tmp/dscope-fds"/
{
	@[fds[arg0].fi_pathname, fds[arg0].fi_name] = sum(arg2);
}
