/* a provider declaring one probe twice, in a script not given -h or -G
 * (dt_cook_provider) */
provider twice {
	probe request__start(int);
	probe request__done();
	probe request__start(int);
};

BEGIN
{
	exit(0);
}
