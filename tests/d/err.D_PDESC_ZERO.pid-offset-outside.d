/*
 * An offset past the end of the function names no probe (DTrace:
 * "offset 0x10000 outside of function").
 * @@args: -c "$B/targets/mallocs"
 */
pid$target::count_me:10000
{
}
