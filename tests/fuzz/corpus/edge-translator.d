struct in { int a; };
struct out { int b; string s; };
translator struct out < struct in *p > { b = p->a; s = "x"; };
BEGIN { this->o = xlate <struct out> ((struct in *)0); trace(this->o.b); exit(0); }
