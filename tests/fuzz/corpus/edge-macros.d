BEGIN { a = $1; b = $$1; c = $0; d = $pid; e = $target; f = $ppid; g = $uid; printf("%d %s %s\n", a, b, c); exit(0); }
