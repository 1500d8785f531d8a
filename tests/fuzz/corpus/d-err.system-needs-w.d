/* system() without -w: refused before anything is enabled. */
BEGIN { system("echo never"); exit(0); }
