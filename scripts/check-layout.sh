#!/bin/sh
# The folders of src/ and what each may include (README.md, "Layout"): a
# folder uses only those below it, so data flows one way through them.
# One line per crossing, naming the file, the include and the rule; exit 1
# if there is any.  Run by `make check` before the tests.
#
#   base    arena, diagnostics: nothing of dscope's
#   d       the D language's vocabulary: base
#   spec    the program description cg hands rt: base d
#   obj     object files and symbols: base d spec
#   kern    the running kernel (BTF, capabilities): base spec
#   prov    the probe catalog and its providers: base d spec obj kern
#   front   lex, parse, sema: base d spec obj kern prov
#   cg      AST -> BPF: base d spec obj kern prov front
#   rt      load, attach, consume, print: base d spec obj kern prov front
#   driver  a script's way from text to a session: all of the above, and
#           the public header
#   cmd     dscope(1): the public header only
cd "$(dirname "$0")/.." || exit 2

allowed() {
	case $1 in
	base)	echo "" ;;
	d)	echo "base" ;;
	spec)	echo "base d" ;;
	obj)	echo "base d spec" ;;
	kern)	echo "base spec" ;;
	prov)	echo "base d spec obj kern" ;;
	front)	echo "base d spec obj kern prov" ;;
	cg|rt)	echo "base d spec obj kern prov front" ;;
	driver)	echo "base d spec obj kern prov front cg rt include" ;;
	cmd)	echo "include" ;;
	*)	echo "?" ;;
	esac
}

bad=0
for f in src/*/*.[ch]; do
	dir=${f#src/}; dir=${dir%%/*}
	case " $(allowed "$dir") " in *" ? "*)
		echo "$f: folder src/$dir/ has no place in scripts/check-layout.sh"
		bad=1; continue ;;
	esac
	for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
		case $inc in
		*/*)	to=${inc%%/*} ;;
		*)	if [ -f "src/$dir/$inc" ]; then to=$dir
			elif [ -f "include/$inc" ]; then to=include
			else to=?; fi ;;
		esac
		[ "$to" = "$dir" ] && continue
		case " $(allowed "$dir") " in
		*" $to "*) ;;
		*)	echo "$f: #include \"$inc\": src/$dir/ may include only: $(allowed "$dir")"
			bad=1 ;;
		esac
	done
done
exit $bad
