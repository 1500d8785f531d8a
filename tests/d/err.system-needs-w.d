/*
 * system() without -w: refused before anything is enabled.
 * @@stage: enable
 */
BEGIN { system("echo never"); exit(0); }
