/*
 * -xempty lets a program be empty (no D_EMPTY), and then, as any program
 * that enables nothing without -Z, it matched no probes: dtrace(1) says
 * so and fails.
 * @@args: -xempty
 */
