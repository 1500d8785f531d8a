# -x oformat=svg -o FILE: dscope's own flame graph of mallocs' malloc
# stacks (alloc_small 300 calls, alloc_big 7).
# 1. The file is one valid XML document (xmllint), even though -o
#    appends: what the file held before is replaced.
# 2. Headless Chromium loads it and runs its script (the root element's
#    data-ready counts the frames it set up); the DOM has the frames by
#    name, alloc_small's width 300/7 of alloc_big's; "#z=alloc_big"
#    zooms (alloc_big spans the width, alloc_small is hidden) and
#    "#s=^malloc$" searches (Matched: 100.0%).
# 3. A screenshot shows alloc_small's rectangle in its own colour.
# And examples/offcpu-flamegraph.d on sleeper: do_nanosleep's width is
# at least nine of the ten 20 ms sleeps (below).
# Chromium is Debian's chromium package; without it the test skips.
. tests/sh/lib.sh
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

echo "an older output" >"$dir/m.svg"
$D -q -x oformat=svg -o "$dir/m.svg" -n 'pid$target::malloc:entry { @[ustack()] = count(); }' \
	-c $B/targets/mallocs >/dev/null 2>"$dir/err" || fail "exit $?: $(cat "$dir/err")"
xmllint --noout "$dir/m.svg" || fail "not valid XML"
grep -q 'older output' "$dir/m.svg" && fail "the file's old content was kept"
grep -q 'http://[^"]*\.\(js\|css\)\|https:' "$dir/m.svg" && fail "the SVG loads something"

# examples/offcpu-flamegraph.d: widths are nanoseconds asleep; sleeper's
# ten 20 ms nanosleeps make at least 200 ms under do_nanosleep
$D -qs examples/offcpu-flamegraph.d -o "$dir/off.svg" -c $B/targets/sleeper \
	>/dev/null 2>"$dir/err" || fail "offcpu-flamegraph.d: exit $?: $(cat "$dir/err")"
xmllint --noout "$dir/off.svg" || fail "off-CPU graph: not valid XML"
# (summed over every do_nanosleep frame: a stack caught with another
# frame below it is the same time under another parent).  At least nine
# of the ten: under load, 6.18's sched_switch tracepoint was seen once in
# some 60 runs not to report one of sleeper's returns to a CPU to any of
# its BPF programs (the raw sdt probe's counts missed it too), and that
# sleep's time is then not counted.
ns=$(sed -n 's/.*<title>do_nanosleep (sum \([0-9]*\), .*/\1/p' "$dir/off.svg" |
     awk '{ s += $1 } END { print s + 0 }')
[ "$ns" -ge 180000000 ] ||
	fail "do_nanosleep off CPU for '$ns' ns, want >= 180000000; the graph's frames: $(grep -o '<title>[^<]*' "$dir/off.svg" | head -40)"
grep -q '<title>main (sum ' "$dir/off.svg" ||
	fail "no user frame main in the off-CPU graph: $(grep -o '<title>[^<]*' "$dir/off.svg" | head -30)"

# The browser is the user's, not the kernel's: in the test guest
# (tests/vm), where TCG takes minutes to start Chromium, the SVG's
# checks above are the kernel-facing part; the host runs the rest.
[ -n "$DSCOPE_TEST_VM" ] && exit 0
command -v chromium >/dev/null || { echo "SKIP: chromium is not installed (apt-get install chromium)"; exit 77; }
chrome() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$dir/profile" "$@" 2>>"$dir/chromium.err"
}
chrome --dump-dom "file://$dir/m.svg" >"$dir/dom" || fail "chromium: $(tail -3 "$dir/chromium.err")"
chrome --dump-dom "file://$dir/m.svg#z=alloc_big" >"$dir/zoom" || fail "chromium (zoom)"
chrome --dump-dom "file://$dir/m.svg#s=%5Emalloc%24" >"$dir/search" || fail "chromium (search)"
chrome --window-size=1200,400 --screenshot="$dir/m.png" "file://$dir/m.svg" >/dev/null ||
	fail "chromium (screenshot)"
python3 - "$dir" <<'PY' || fail "the flame graph is not drawn as it should be (above)"
import re, sys, struct, zlib
d = sys.argv[1]
def frames(path):
    dom = open(path).read()
    assert re.search(r'<svg[^>]* data-ready="9"', dom), "the script did not run: " + dom[:300]
    out = {}
    for g in re.findall(r'<g class="f[^"]*"[^>]*>.*?</g>', dom):
        name = re.search(r"<title>(.*?) \(count", g).group(1)
        rect = re.search(r'<rect x="([\d.]+)" y="(\d+)" width="([\d.]+)" height="(\d+)" fill="rgb\((\d+),(\d+),(\d+)\)"', g)
        out.setdefault(name, []).append((tuple(float(v) for v in rect.groups()), "display: none" in g, g))
    return out
f = frames(d + "/dom")
for name in ("all", "_start", "main", "alloc_small", "alloc_big", "malloc"):
    assert name in f, (name, sorted(f))
small, big = f["alloc_small"][0][0], f["alloc_big"][0][0]
assert abs(small[2] / big[2] - 300 / 7) < 0.5, (small, big)
assert "<text" in f["alloc_small"][0][2] and ">alloc_small</text>" in f["alloc_small"][0][2]
z = frames(d + "/zoom")
assert z["alloc_big"][0][0][2] == 1180 and not z["alloc_big"][0][1], z["alloc_big"]
assert z["alloc_small"][0][1], "alloc_small not hidden when zoomed on alloc_big"
s = open(d + "/search").read()
assert ">Matched: 100.0%<" in s, re.findall(r'id="matched"[^<]*<', s)
assert s.count('fill="rgb(230,0,230)"') == 2, "want both malloc frames highlighted"

# the screenshot: decode the PNG (8-bit RGB or RGBA, not interlaced)
png = open(d + "/m.png", "rb").read()
pos, idat, w = 8, b"", 0
while pos < len(png):
    n, kind = struct.unpack(">I4s", png[pos:pos + 8])
    body = png[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        assert depth == 8 and ctype in (2, 6), (depth, ctype)
        bpp = 3 if ctype == 2 else 4
    elif kind == b"IDAT":
        idat += body
    pos += n + 12
raw, rows, prev = zlib.decompress(idat), [], bytearray(w * bpp)
for y in range(h):
    line = raw[y * (w * bpp + 1):(y + 1) * (w * bpp + 1)]
    ft, cur = line[0], bytearray(line[1:])
    for i in range(len(cur)):
        a = cur[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        p = a + b - c
        pred = [0, a, b, (a + b) // 2,
                a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else b if abs(p - b) <= abs(p - c) else c][ft]
        cur[i] = (cur[i] + pred) & 0xff
    rows.append(cur)
    prev = cur
x, y, wd, ht, r, g, b = small
px = rows[int(y + ht / 2)][int(x + wd - 4) * bpp:int(x + wd - 4) * bpp + 3]
assert abs(px[0] - r) + abs(px[1] - g) + abs(px[2] - b) < 12, ("alloc_small's pixel", tuple(px), (r, g, b))
PY
exit 0
