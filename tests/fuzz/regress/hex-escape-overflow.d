/* UBSan (fuzz_compile, run 7): a hex escape with more digits than an int
 * holds, \x123456789abcdef..., overflowed the lexer's accumulator.  Fixed: the
 * value's low byte is kept as the digits come, which is what the char gets. */
BEGIN { printf("%s\n", "\x123456789abcdef0123456789abcdef41"); exit(0); }
