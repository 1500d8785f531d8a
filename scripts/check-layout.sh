#!/bin/sh
# The folders of src/ and what each may use (README.md, "Layout"): a
# folder uses only those below it, so data flows one way through them.
# One line per crossing, naming the file, the include (or the function
# called) and the rule; exit 1 if there is any.  Calls are checked on the
# objects in build/ when they are there, so a prototype written out by
# hand does not get past.  Run by `make check` before the tests.
cd "$(dirname "$0")/.." || exit 2

# folder: the folders it may include and call ("include": the public
# header, include/dscope.h, which driver/ implements)
RULES='base:
d: base
spec: base d
obj: base d spec
kern: base spec
prov: base d spec obj kern
front: base d spec obj kern prov
cg: base d spec obj kern prov front
rt: base d spec obj kern prov front
driver: base d spec obj kern prov front cg rt include
cmd: include'

allowed() {
	echo "$RULES" | sed -n "s/^$1: *//p"
}

bad=0
for f in src/*/*.[ch]; do
	dir=${f#src/}; dir=${dir%%/*}
	if ! echo "$RULES" | grep -q "^$dir:"; then
		echo "$f: src/$dir/ has no rule in scripts/check-layout.sh"
		bad=1; continue
	fi
	ok=" $(allowed "$dir") "
	for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
		case $inc in
		*/*)	to=${inc%%/*} ;;
		*)	if [ -f "src/$dir/$inc" ]; then to=$dir
			elif [ -f "include/$inc" ]; then to=include
			else to=?; fi ;;
		esac
		[ "$to" = "$dir" ] && continue
		case $ok in
		*" $to "*) ;;
		*)	echo "$f: #include \"$inc\": src/$dir/ may include only:$ok"
			bad=1 ;;
		esac
	done
done

# Calls: each object's undefined symbols against the folder defining them.
if ls build/src/*/*.o >/dev/null 2>&1; then
	for o in build/src/*/*.o; do
		c=${o#build/}; [ -f "${c%.o}.c" ] || continue	# a stale object
		dir=${o#build/src/}; dir=${dir%%/*}
		nm -P --defined-only "$o" |
			awk -v d="$dir" '$2 ~ /^[TDBRC]$/ { print "def", $1, d }'
		nm -P --undefined-only "$o" |
			awk -v d="$dir" -v o="$o" '{ print "use", $1, d, o }'
	done > build/layout-syms
	{ echo "$RULES" | sed 's/^/rule /; s/:/ /; s/ include/ driver/'
	  grep '^def' build/layout-syms; grep '^use' build/layout-syms; } |
	awk '$1 == "rule" { ok[$2] = " " substr($0, length($2) + 7) " "; next }
	     $1 == "def" { where[$2] = $3; next }
	     ($2 in where) && where[$2] != $3 && index(ok[$3], " " where[$2] " ") == 0 {
		src = $4; sub(/^build\//, "", src); sub(/\.o$/, ".c", src)
		printf "%s: calls %s (src/%s/): src/%s/ may call only:%s\n",
		       src, $2, where[$2], $3, ok[$3]
		bad = 1
	     }
	     END { exit bad }' || bad=1
fi

# Sizes a newcomer can read whole (STYLE.md, issue 29): no file of src/ over 2,000
# lines, no function over 100 (from the line of its opening brace at the
# start of a line to its closing one).
for f in src/*/*.[ch]; do
	awk -v f="$f" '
		NR == 2001 { printf "%s: over 2000 lines: split it along its seams\n", f; bad = 1 }
		/^\{/ { start = FNR }
		/^\}/ && start {
			if (FNR - start + 1 > 100)
				printf "%s:%d: a function of %d lines: over 100\n", f, start, FNR - start + 1
			if (FNR - start + 1 > 100) bad = 1
			start = 0
		}
		END { exit bad }' "$f" || bad=1
done
exit $bad
