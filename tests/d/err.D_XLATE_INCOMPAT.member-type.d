/*
 * A translator's members are checked when it is declared, over its
 * input's type: a char where a char * is wanted is incompatible, even
 * though no xlate uses the translator.
 */
struct in { char c; };
struct out { char *p; };

translator struct out < struct in *i >
{
	p = i->c;
};

BEGIN
{
	exit(0);
}
