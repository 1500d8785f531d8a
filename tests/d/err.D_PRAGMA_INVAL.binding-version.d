/* #pragma D binding's version is major[.minor[.micro]] (dt_version_str2num). */
#pragma D binding "1.x" myvar

BEGIN
{
	exit(0);
}
