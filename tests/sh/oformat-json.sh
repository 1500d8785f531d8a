# -x oformat=json: one JSON object a line, whose values are the text's.
# 1. tests/sh/oformat/allaggs.d (every aggregating function and a printf,
#    over mallocs' known calls) run as text and as JSON: every line
#    parses, the values are mallocs' (300 x 24 bytes, 7 x 70000), and
#    each aggregation's rows and non-empty buckets equal the text's.
# 2. oddbytes' chdir path (quote, backslash, newline, control byte,
#    UTF-8, bytes that are not UTF-8) comes back byte for byte from
#    printf, trace() and an aggregation key.
# 3. A run-time error and dynamic variable drops are objects too.
. tests/sh/lib.sh
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

$D -q -s tests/sh/oformat/allaggs.d -c $B/targets/mallocs >"$dir/text" 2>"$dir/err" ||
	fail "text run: exit $?: $(cat "$dir/err")"
$D -q -x oformat=json -s tests/sh/oformat/allaggs.d -c $B/targets/mallocs \
	>"$dir/json" 2>"$dir/err" || fail "json run: exit $?: $(cat "$dir/err")"
python3 - "$dir/text" "$dir/json" <<'PY' || fail "JSON and text differ (above)"
import json, sys
text = open(sys.argv[1]).read().split("\n")
objs = [json.loads(l) for l in open(sys.argv[2])]
assert objs[0] == {"type": "header", "schema": "dscope", "version": 1}, objs[0]
probes = [o for o in objs if o["type"] == "probe"]
aggs = {o["name"]: o for o in objs if o["type"] == "aggregation"}
# the printf, as the text printed it (the text's first line)
assert [p["output"] for p in probes] == [[{"action": "printf", "text": "count_me(41, 1041)\n"}]], probes
assert text[0] == "count_me(41, 1041)", text[0]
# mallocs' ground truth
def rows(name): return [(r["keys"], r.get("value")) for r in aggs[name]["rows"]]
assert rows("n") == [([70000], 7), ([24], 300)], rows("n")
assert rows("s") == [([24], 7200), ([70000], 490000)], rows("s")
assert rows("mn") == [([], 24)] and rows("mx") == [([], 70000)]
av = aggs["av"]["rows"][0]
assert (av["value"], av["count"], av["sum"]) == (497200 // 307, 307, 497200), av
sd = aggs["sd"]["rows"][0]
assert (sd["count"], sd["sum"], sd["sumsq"]) == (307, 497200, 300 * 24**2 + 7 * 70000**2), sd
def buckets(name): return [(b["min"], b["max"], b["count"]) for b in aggs[name]["rows"][0]["buckets"]]
assert buckets("q") == [(16, 31, 300), (65536, 131071, 7)], buckets("q")
assert buckets("lq") == [(0, 9999, 300), (70000, 79999, 7)], buckets("lq")
assert buckets("llq") == [(20, 24, 300), (70000, 74999, 7)], buckets("llq")
# the text, walked in declaration order: scalar rows are "keys value"
# lines, tables a header and "label |bar count" lines
lines = [l for l in text[1:] if l.strip()]
i = 0
for o in objs:
    if o["type"] != "aggregation":
        continue
    for r in o["rows"]:
        if "buckets" not in r:
            want = [str(k) for k in r["keys"]] + [str(r["value"])]
            assert lines[i].split() == want, (o["name"], lines[i], want)
            i += 1
            continue
        assert lines[i].split()[0] == "value", lines[i]
        i += 1
        shown = []
        while i < len(lines) and "|" in lines[i]:
            label, rest = lines[i].split("|")
            if int(rest.split()[-1]):
                shown.append((label.strip(), int(rest.split()[-1])))
            i += 1
        want = [(str(b["min"]), b["count"]) for b in r["buckets"]]
        assert shown == want, (o["name"], shown, want)
assert i == len(lines), lines[i:]
PY

# 2. bytes round-trip: surrogateescape gives back what oddbytes passed
$D -q -x oformat=json -o "$dir/odd" -n 'syscall::chdir:entry /pid == $target/ {
	printf("%s", copyinstr(arg0)); trace(copyinstr(arg0));
	@[copyinstr(arg0)] = count(); }' -c $B/targets/oddbytes >"$dir/truth" 2>"$dir/err" ||
	fail "oddbytes: exit $?: $(cat "$dir/err")"
python3 - "$dir/truth" "$dir/odd" <<'PY' || fail "a string did not round-trip (above)"
import json, sys
truth = bytes.fromhex(open(sys.argv[1]).read().strip())
assert b'"' in truth and b"\n" in truth and max(truth) >= 0x80
objs = [json.loads(l) for l in open(sys.argv[2])]
out = [o for o in objs if o["type"] == "probe"][0]["output"]
got = [out[0]["text"], out[1]["value"],
       [o for o in objs if o["type"] == "aggregation"][0]["rows"][0]["keys"][0]]
for s in got:
    assert s.encode("utf-8", "surrogateescape") == truth, (s, truth)
PY
grep -q '\\udcff' "$dir/odd" || fail "byte 0xff not written as \\udcff: $(cat "$dir/odd")"

# 3. errors and drops
$D -q -x oformat=json -n 'BEGIN { x = *(int *)8; } BEGIN { exit(0); }' \
	>"$dir/errjson" 2>"$dir/err" || fail "error run: exit $?: $(cat "$dir/err")"
grep -q 'invalid address (0x8) in predicate\|invalid address (0x8) in action #1' "$dir/err" ||
	fail "no error on stderr: $(cat "$dir/err")"
jq -s -e 'any(.[]; .type == "error" and .address == 8 and .fault == 1 and
	.probe.name == "BEGIN" and (.message | test("invalid address")))' \
	"$dir/errjson" >/dev/null || fail "no error object: $(cat "$dir/errjson")"
$D -q -x oformat=json -x dynvarsize=2k -n 'syscall::getppid:entry /pid == $target/ { a[i++] = 1; }' \
	-c "$B/targets/loop 1000" >"$dir/drops" 2>"$dir/err" || fail "drops run: exit $?"
total=$(jq -s '[.[] | select(.type == "drop" and .kind == "dynamic variable") | .count] | add' "$dir/drops")
[ "$total" = 936 ] || fail "JSON drops $total, want 936: $(cat "$dir/drops")"
exit 0
