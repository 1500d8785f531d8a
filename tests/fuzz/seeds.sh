#!/bin/sh
# seeds.sh OUT -- the seed corpora of the file parsers' fuzz targets
# (tests/fuzz/README.md), made from this system's own files so none is
# kept in the repo: OUT/NAME/ for each target fuzz_NAME.
#
#   elf, usdt, debugfile  small ELF files of /usr/lib (under 24 KiB, the
#                         fuzzer's -max_len for them), and the test
#                         targets with stapsdt notes when built
#   ehframe               their .eh_frame sections, after a byte that
#                         chooses the link-time address
#   x86insn               256-byte pieces of their .text
#   usdt_args             the argument strings of libstdc++'s and
#                         python3's stapsdt notes, after the PIE byte
#   perfmap, maps         this shell's /proc/self/maps, and perf map lines
#                         as V8 and perf-map-agent write them
#   webconfig             the regression inputs (the toolkit's format)
set -e
out=${1:?usage: seeds.sh OUT}
tgt=$(cd "$(dirname "$0")/../.." && pwd)/build/targets
lib=/usr/lib/x86_64-linux-gnu
[ -d $lib ] || lib=/usr/lib
mkdir -p "$out"
cd "$out"
for t in elf usdt debugfile ehframe x86insn usdt_args perfmap maps webconfig; do
	mkdir -p $t
done

elves=$(find $lib -maxdepth 1 -name '*.so*' -type f -size -24k 2>/dev/null |
	sort | head -40)
for t in usdtprog usdtopt; do
	[ -f "$tgt/$t" ] && elves="$elves $tgt/$t"
done
i=0
for f in $elves; do
	i=$((i + 1))
	cp "$f" elf/$i
	cp "$f" debugfile/$i
	cp "$f" usdt/$i
	if objcopy -O binary --only-section=.eh_frame "$f" eh.tmp 2>/dev/null &&
	   [ -s eh.tmp ]; then
		{ printf '\001'; cat eh.tmp; } > ehframe/$i
	fi
	if objcopy -O binary --only-section=.text "$f" text.tmp 2>/dev/null &&
	   [ -s text.tmp ]; then
		dd if=text.tmp of=x86insn/$i bs=256 count=1 2>/dev/null
		dd if=text.tmp of=x86insn/$i.b bs=256 skip=2 count=1 2>/dev/null
	fi
	rm -f eh.tmp text.tmp
done
for f in $lib/libstdc++.so.6 /usr/bin/python3; do
	[ -f "$f" ] || continue
	readelf -n "$f" 2>/dev/null | sed -n 's/^ *Arguments: //p' | sort -u |
		head -40 | while IFS= read -r a; do
		i=$((i + 1))
		printf '\001%s' "$a" > usdt_args/${f##*/}.$i
	done
done
# a stripped file that links to its debug file, as distributions ship them
f=$(echo $elves | cut -d' ' -f1)
if [ -n "$f" ] && objcopy --strip-debug --add-gnu-debuglink="$f" "$f" link.tmp \
	2>/dev/null; then
	mv link.tmp debugfile/linked
	cp debugfile/linked elf/linked
fi
rm -f link.tmp
cat /proc/self/maps > maps/self
printf '%s\n' \
	'7f3c4a200000 40 LazyCompile:~main /app/index.js:1' \
	'0x7f3c4a200040 0x80 Interpreter: foo' \
	'7f3c4a2000c0 1c0 Ljava/lang/String;::hashCode' \
	'7f3c4a200000 10 replaced' > perfmap/v8
printf '1000 10 a\n2000 0 empty\nffffffffffffffff 2 wraps\n' > perfmap/edges
cp "$tgt"/../../tests/fuzz/regress/webconfig/* webconfig/
