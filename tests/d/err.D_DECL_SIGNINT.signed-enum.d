/* "signed" belongs to integers, not to an enum. */
signed enum colour { RED, GREEN };

BEGIN { exit(0); }
