/*
 * fileinfo_t's fi_mount is where the file's file system is mounted:
 * readfiles reads alpha.txt and beta.txt in /dev/shm/dscope-mount, on
 * the tmpfs mounted at /dev/shm, and libc.so.6 from the root file system
 * (the test needs both to be so, as stat -c %m says).
 * @@needs: [ "$(stat -c %m /dev/shm)" = /dev/shm ] && [ "$(stat -c %m /usr/lib)" = / ]
 * @@args: -c "$B/targets/readfiles /dev/shm/dscope-mount"
 * strsize 200: its two string keys then fit the 512 bytes the hash map
 * keys of older kernels (5.10) may have.
 */
#pragma D option quiet
#pragma D option strsize=200

syscall::read:entry
/pid == $target/
{
	@[fds[arg0].fi_name, fds[arg0].fi_mount] = count();
}

END
{
	printa("%s on %s: %@d reads\n", @);
}
