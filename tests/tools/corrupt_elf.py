#!/usr/bin/env python3
"""corrupt_elf.py IN OUT -- a copy of the ELF64 executable IN with three
kinds of damage a crafted or half-written file may have, for
tests/sh/corrupt-elf.sh.  The program still runs: the kernel and the
dynamic linker read none of what is damaged.

  .symtab        its size in the section header is made to run 16 MiB
                 past the end of the file, as in a file cut short
  .eh_frame      the length of its sixth entry (an FDE of the program's
                 own functions) is made to run past the section
  .note.stapsdt  the note of the probe NAME (usdtprog's neg__arg) loses
                 the NULs that end its strings

Each is found from the file's own headers, not at fixed offsets, so a
rebuilt target is damaged the same way.  Prints what it did, one line each.
"""
import os
import struct
import sys

NOTE_PROBE = b"neg__arg"


def sections(elf):
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3a)
    hdrs = []
    for i in range(shnum):
        at = shoff + i * shentsize
        name, typ, _flags, addr, off, size = struct.unpack_from("<IIQQQQ", elf, at)
        hdrs.append(dict(at=at, name=name, type=typ, addr=addr, off=off, size=size))
    strs = hdrs[shstrndx]["off"]
    for h in hdrs:
        end = elf.index(b"\0", strs + h["name"])
        h["name"] = elf[strs + h["name"]:end].decode()
    return {h["name"]: h for h in hdrs}


def main():
    src, dst = sys.argv[1:3]
    elf = bytearray(open(src, "rb").read())
    if elf[:5] != b"\x7fELF\x02":
        sys.exit("corrupt_elf.py: %s is not an ELF64 file" % src)
    secs = sections(elf)

    symtab = secs[".symtab"]
    struct.pack_into("<Q", elf, symtab["at"] + 0x20,
                     len(elf) - symtab["off"] + (16 << 20))
    print(".symtab: size %d -> %d" % (symtab["size"], len(elf) - symtab["off"] + (16 << 20)))

    eh = secs[".eh_frame"]
    at, n = eh["off"], 0
    while n < 5:
        length, = struct.unpack_from("<I", elf, at)
        at += 4 + length
        n += 1
    struct.pack_into("<I", elf, at, 0x7ffffff0)
    print(".eh_frame: entry 6 at section offset %d made to run past its end"
          % (at - eh["off"]))

    note = secs[".note.stapsdt"]
    at, end = note["off"], note["off"] + note["size"]
    while at < end:
        namesz, descsz, _typ = struct.unpack_from("<III", elf, at)
        desc = at + 12 + ((namesz + 3) & ~3)
        if NOTE_PROBE + b"\0" in elf[desc + 24:desc + descsz]:
            for i in range(desc + 24, desc + descsz):
                if elf[i] == 0:
                    elf[i] = ord("x")
            print(".note.stapsdt: the %s note at section offset %d unterminated"
                  % (NOTE_PROBE.decode(), at - note["off"]))
            break
        at = desc + ((descsz + 3) & ~3)
    else:
        sys.exit("corrupt_elf.py: no %s note in %s" % (NOTE_PROBE.decode(), src))
    open(dst, "wb").write(elf)
    os.chmod(dst, os.stat(src).st_mode & 0o777)


main()
