BEGIN { if (1) { x = 1; } else if (2) x = 2; else { y = 3; } exit(0); }
