/*
 * curcpu describes the CPU the probe fires on: cpu_id is the cpu
 * builtin, on every CPU a tick lands on; Linux has no processor sets
 * (cpu_pset is -1, as in Oracle's port).
 * @@args: -q
 */
profile-997hz
/n++ < 20/
{
	@ok[curcpu->cpu_id == cpu, curcpu->cpu_pset] = count();
}

profile-997hz
/n > 20/
{
	exit(0);
}

END
{
	printa("cpu_id is cpu: %d, cpu_pset %d\n", @ok);
}
