/* Declarations alone enable nothing: no probes matched, an error without -Z. */
int x;
self string name;
