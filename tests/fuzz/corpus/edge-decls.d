typedef struct point { int x, y; char name[8]; } point_t;
union u { uint64_t q; uint8_t b[8]; };
enum color { RED, GREEN = 5, BLUE };
inline int MAX = 10;
int g; string s; point_t pts[4];
struct bits { unsigned a : 3, b : 5; int : 0; } bf;
self int tv; this int tl;
BEGIN { pts[1].x = MAX; bf.a = 7; this->p = &pts[0]; g = sizeof (point_t) + offsetof(point_t, y); exit(0); }
