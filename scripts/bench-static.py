#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Static cost of the futex fault sites, read from the built objects.

usage: bench-static.py --sites FAULT_SITES_H --out STATIC.json NAME=OBJDIR...
       bench-static.py --show OBJECT:FUNCTION NAME=OBJDIR...

For every function of kernel/futex/*.o in every OBJDIR (a kernel build tree):

  - the instructions and bytes reachable from the function's entry when no
    site injects: a walk of the control flow graph in which every
    __jump_table entry is in its default state (a NOP falls through, a JMP
    jumps), conditional branches go both ways, calls return and indirect
    jumps through a switch table reach every case;
  - the __jump_table NOPs on that path, and the calls to should_fail*() and
    __futex_fault() on it (directly, and through the futex functions it
    calls);

and, per build, the __jump_table entries of every futex fault site and the
.text size of every object and of vmlinux.  Everything is parsed from
objdump -drw and readelf -rsSW: no debug information needed.

--show prints one function of every build instruction by instruction ('*' on
the non-injecting path, 'N' a site's NOP, blank only reachable by injecting)
and then, per build after the first, how the path's instructions differ from
the first build's by kind: what docs/bench.md's "What the extra
instructions are" is read from.
"""

import argparse
import json
import os
import re
import subprocess
import sys

OBJECTS = ["core", "syscalls", "pi", "requeue", "waitwake", "fault"]
PREFIXES = {"cs", "ds", "es", "ss", "notrack", "bnd", "lock", "rep", "repz",
            "repnz", "repe", "repne", "data16", "addr32"}
ENDS = {"ret", "retq", "ud2", "int3", "hlt", "iret", "iretq", "sysretq",
        "jmpq", "ljmp"}  # jmpq only as an indirect jump, handled first

INSN_RE = re.compile(r"^\s*([0-9a-f]+):\t([0-9a-f ]+)\t(.*)$")
RELOC_RE = re.compile(r"\t([0-9a-f]+): (R_X86_64_\w+)\t(\S+?)(?:([+-])0x([0-9a-f]+))?(?=\t|$)")
SECTION_RE = re.compile(r"^Disassembly of section (\S+):$")
TARGET_RE = re.compile(r"^([0-9a-f]+) <")


def run(*cmd):
    try:
        return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit("bench-static: %s: %s" % (" ".join(cmd), e))


class Insn:
    __slots__ = ("addr", "size", "mnem", "ops", "reloc")

    def __init__(self, addr, size, mnem, ops):
        self.addr = addr
        self.size = size
        self.mnem = mnem
        self.ops = ops
        self.reloc = None


def split_mnemonic(text):
    words = text.split("#")[0].split()
    while words and words[0] in PREFIXES:
        words = words[1:]
    if not words:
        return "", ""
    return words[0], " ".join(words[1:])


class Object:
    """One relocatable object: sections, symbols, instructions, relocations."""

    def __init__(self, path):
        self.path = path
        self.sections = {}      # index -> name
        self.sizes = {}         # section name -> size
        self.symbols = []       # (name, section name, value, size, type, bind)
        self.insns = {}         # section -> {addr: Insn}
        self.relocs = {}        # section -> [(offset, type, symbol, addend)]
        self._read_sections()
        self._read_symbols()
        self._read_relocs()
        self._read_code()

    def _read_sections(self):
        for line in run("readelf", "-SW", self.path).splitlines():
            m = re.match(r"^\s*\[\s*(\d+)\]\s+(\S+)\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)", line)
            if m:
                self.sections[int(m.group(1))] = m.group(2)
                self.sizes[m.group(2)] = int(m.group(3), 16)

    def _read_symbols(self):
        for line in run("readelf", "-sW", self.path).splitlines():
            f = line.split()
            if len(f) < 8 or not f[0].endswith(":") or not f[6].isdigit():
                continue
            self.symbols.append((f[7], self.sections.get(int(f[6]), "?"),
                                 int(f[1], 16), int(f[2], 0), f[3], f[4]))

    def _read_relocs(self):
        sec = None
        for line in run("readelf", "-rW", self.path).splitlines():
            m = re.match(r"^Relocation section '\.rela(\S+)'", line)
            if m:
                sec = m.group(1)
                self.relocs[sec] = []
                continue
            m = re.match(r"^([0-9a-f]+)\s+[0-9a-f]+\s+(R_X86_64_\w+)\s+[0-9a-f]+\s+(\S+)\s*([+-])\s*([0-9a-f]+)$",
                         line)
            if m and sec:
                add = int(m.group(5), 16) * (-1 if m.group(4) == "-" else 1)
                self.relocs[sec].append((int(m.group(1), 16), m.group(2), m.group(3), add))

    def _read_code(self):
        sec = None
        for line in run("objdump", "-drw", self.path).splitlines():
            m = SECTION_RE.match(line)
            if m:
                sec = m.group(1)
                self.insns.setdefault(sec, {})
                continue
            m = INSN_RE.match(line)
            if not m or not sec:
                continue
            # objdump -w puts an instruction's relocations on its line
            text, _, relocs = m.group(3).partition("\t")
            mnem, ops = split_mnemonic(text)
            insn = Insn(int(m.group(1), 16), len(m.group(2).split()), mnem, ops)
            r = RELOC_RE.search("\t" + relocs)
            if r:
                add = int(r.group(5), 16) if r.group(5) else 0
                if r.group(4) == "-":
                    add = -add
                insn.reloc = (int(r.group(1), 16), r.group(2), r.group(3), add)
            self.insns[sec][insn.addr] = insn

    def symbol_address(self, name):
        """(section, value) of a symbol defined here, or None."""
        if name in self.sections.values() and name.startswith("."):
            return (name, 0)
        for s in self.symbols:
            if s[0] == name and s[1] != "?" and s[4] in ("FUNC", "NOTYPE", "SECTION", "OBJECT"):
                return (s[1], s[2])
        return None

    def functions(self):
        return [s for s in self.symbols if s[4] == "FUNC" and s[1] != "?"]

    def jump_entries(self):
        """__jump_table entries: (code section, code addr, key symbol, key addend)."""
        rel = {off: (typ, sym, add) for off, typ, sym, add in self.relocs.get("__jump_table", [])}
        entries = []
        for off in sorted(o for o in rel if o % 16 == 0):
            typ, sym, add = rel[off]
            key = rel.get(off + 8)
            where = self.symbol_address(sym)
            if where is None or key is None:
                continue
            entries.append((where[0], where[1] + add, key[1], key[2]))
        return entries

    def switch_targets(self, insn, sec, func_insns):
        """Case targets of an indirect jmp *table(,%reg,8)."""
        if not insn.reloc:
            return None
        table = self.symbol_address(insn.reloc[2])
        if table is None:
            return None
        tsec, base = table[0], table[1] + insn.reloc[3]
        bound = None
        prev = [a for a in func_insns if a < insn.addr][-4:]
        for a in reversed(prev):
            m = re.match(r"\$0x([0-9a-f]+),", func_insns[a].ops)
            if func_insns[a].mnem.startswith("cmp") and m:
                bound = int(m.group(1), 16) + 1
                break
        rel = {off: (sym, add) for off, typ, sym, add in self.relocs.get(tsec, [])
               if typ == "R_X86_64_64"}
        targets = []
        i = 0
        while base + 8 * i in rel and (bound is None or i < bound):
            sym, add = rel[base + 8 * i]
            where = self.symbol_address(sym)
            if where is None or where[0] != sec:
                break
            targets.append(where[1] + add)
            i += 1
        return targets or None


def call_target(obj, sec, insn):
    """(name of the called function or None, (section, addr) or None)."""
    if insn.reloc:
        _, _, sym, add = insn.reloc
        where = obj.symbol_address(sym)
        if where is None:
            return sym, None
        return None, (where[0], where[1] + add + 4)
    m = TARGET_RE.match(insn.ops)
    if m:
        return None, (sec, int(m.group(1), 16))
    return None, None


def function_at(obj, sec, addr):
    for name, s, value, size, typ, bind in obj.functions():
        if s == sec and value <= addr < value + max(size, 1):
            return name
    return None


def walk(obj, func, nop_at, site_nops):
    """Non-injecting path of one function: what it runs and what it calls."""
    name, sec, start, size = func[0], func[1], func[2], func[3]
    insns = obj.insns.get(sec, {})
    # a function's .cold part belongs to it
    parts = [(sec, start, start + size)]
    parts += [(s[1], s[2], s[2] + s[3]) for s in obj.functions()
              if s[0].startswith(name + ".cold")]

    def inside(where):
        return any(where[0] == p[0] and p[1] <= where[1] < p[2] for p in parts)

    func_insns = {a: i for a, i in insns.items() if start <= a < start + size}
    seen = set()
    todo = [(sec, start)]
    calls = []
    incomplete = False
    while todo:
        where = todo.pop()
        if where in seen or not inside(where):
            continue
        insn = obj.insns.get(where[0], {}).get(where[1])
        if insn is None:
            incomplete = True
            continue
        seen.add(where)
        nxt = (where[0], where[1] + insn.size)
        m = insn.mnem
        if where in nop_at:
            todo.append(nxt)                # a site's NOP: not taken
        elif m.startswith("call"):
            callee, dest = call_target(obj, where[0], insn)
            if callee is None and dest is not None:
                callee = function_at(obj, dest[0], dest[1])
            calls.append(callee or "*indirect")
            todo.append(nxt)
        elif m.startswith("jmp"):
            if insn.ops.startswith("*"):
                targets = obj.switch_targets(insn, where[0], func_insns)
                if targets is None:
                    if not insn.reloc and "%r" in insn.ops and "(" not in insn.ops:
                        calls.append("*indirect")   # tail call through a register
                    else:
                        incomplete = True
                else:
                    todo.extend((where[0], t) for t in targets)
                continue
            callee, dest = call_target(obj, where[0], insn)
            if dest is not None and inside(dest):
                todo.append(dest)
            elif callee not in (None, "__x86_return_thunk"):
                calls.append(callee)        # tail call
            elif dest is not None:
                calls.append(function_at(obj, dest[0], dest[1]) or "?")
        elif m.startswith("j") or m.startswith("loop"):
            _, dest = call_target(obj, where[0], insn)
            if dest is not None:
                todo.append(dest)
            todo.append(nxt)
        elif m in ENDS:
            continue
        else:
            todo.append(nxt)
    path = [obj.insns[s][a] for s, a in seen]
    total = [i for s, a0, a1 in parts for a, i in obj.insns.get(s, {}).items() if a0 <= a < a1]
    return {
        "instructions": len(path),
        "bytes": sum(i.size for i in path),
        "total_instructions": len(total),
        "total_bytes": sum(i.size for i in total),
        "nops_on_path": sum(1 for w in seen if w in site_nops),
        "other_nops_on_path": sum(1 for w in seen if w in nop_at and w not in site_nops),
        "jump_entries": sum(1 for w in site_nops if inside(w)),
        "calls": calls,
        "incomplete": incomplete,
        "_path": seen,
        "_parts": parts,
    }


def read_sites(path):
    text = open(path).read()
    return re.findall(r"^\s*FUTEX_FAULT_(?:SITE|LAST)\(\s*(\w+)\s*,", text, re.M)


def text_size(path):
    for line in run("size", "-A", path).splitlines():
        f = line.split()
        if f and f[0] == ".text":
            return int(f[1])
    return 0


def code_bytes(path):
    """Sum of the sizes of a linked kernel's function symbols.

    vmlinux's .text section ends on an alignment boundary (its size moved
    by 8 bytes while kernel/futex grew by 3.8 KB): the functions tell."""
    total = 0
    for line in run("nm", "-S", path).splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "tTwW":
            total += int(f[1], 16)
    return total


def analyse_build(objdir, sites):
    res = {"objects": {}, "functions": {}, "sites": {}, "other_jump_entries": {}}
    funcs = {}
    for o in OBJECTS:
        path = os.path.join(objdir, "kernel/futex/%s.o" % o)
        if not os.path.exists(path):
            continue
        obj = Object(path)
        entries = obj.jump_entries()
        nop_at = {}
        site_at = set()
        for sec, addr, key, add in entries:
            insn = obj.insns.get(sec, {}).get(addr)
            nop_at[(sec, addr)] = insn is not None and insn.mnem.startswith(("nop", "xchg"))
            if key == "futex_fault_keys":
                site_at.add((sec, addr))
                site = sites[add // 16]
                s = res["sites"].setdefault(site, {"entries": 0, "functions": [],
                                                   "nop_bytes": []})
                s["entries"] += 1
                s["nop_bytes"].append(insn.size if insn else None)
                s["functions"].append("%s:%s" % (o, function_at(obj, sec, addr)))
            else:
                res["other_jump_entries"][key] = res["other_jump_entries"].get(key, 0) + 1
        # a JMP in the table is a key that defaults to on: it jumps
        nops = {w for w, is_nop in nop_at.items() if is_nop}
        res["objects"][o] = {"text": text_size(path), "jump_entries": len(entries)}
        for f in obj.functions():
            if f[1].startswith(".init") or ".cold" in f[0]:
                continue
            r = walk(obj, f, nops, site_at & nops)
            del r["_path"], r["_parts"]
            r["object"] = o
            funcs["%s:%s" % (o, f[0])] = r
    # calls reachable without injecting, through the futex functions called
    by_name = {}
    for key in funcs:
        by_name.setdefault(key.split(":", 1)[1], key)
    for key, r in funcs.items():
        r["should_fail_calls"] = sum(1 for c in r["calls"] if c.startswith("should_fail"))
        r["futex_fault_calls"] = sum(1 for c in r["calls"] if c == "__futex_fault")
        seen, todo, via = {key}, [key], set()
        while todo:
            k = todo.pop()
            for c in funcs[k]["calls"]:
                if c.startswith("should_fail") or c == "__futex_fault":
                    via.add("%s->%s" % (k.split(":", 1)[1], c))
                callee = by_name.get(c)
                if c in by_name and callee not in seen:
                    seen.add(callee)
                    todo.append(callee)
        r["reaches_policy_via"] = sorted(via)
        r["calls"] = sorted(set(r["calls"]))
    res["functions"] = funcs
    vmlinux = os.path.join(objdir, "vmlinux")
    res["vmlinux_text"] = text_size(vmlinux) if os.path.exists(vmlinux) else None
    res["vmlinux_function_bytes"] = code_bytes(vmlinux) if os.path.exists(vmlinux) else None
    res["futex_text"] = sum(v["text"] for v in res["objects"].values())
    try:
        with open(os.path.join(objdir, "source-commit")) as f:
            res["source_commit"] = f.read().strip()
    except OSError:
        res["source_commit"] = None
    return res


def kind(insn):
    """A coarse class of an instruction, for counting what a path gained."""
    m, ops = insn.mnem, insn.ops
    if m == "jmp":
        return "jmp"
    if m.startswith("j"):
        return "jcc"
    if m.startswith("mov") and "(" not in ops and "$" not in ops and "%gs" not in ops:
        return "mov reg,reg"
    if m.startswith("mov") and re.search(r",[^,]*\(", ops):
        return "store"
    if m.startswith("mov") and "(" in ops:
        return "load"
    if m.startswith("mov"):
        return "mov imm/%gs"
    return m


def show(target, builds):
    """Print one function's code in every build, its path marked, and how the
    path's instruction kinds differ from the first build's."""
    o, _, fname = target.partition(":")
    counts = []
    for b in builds:
        name, _, objdir = b.partition("=")
        path = os.path.join(objdir, "kernel/futex/%s.o" % o)
        obj = Object(path)
        site_nops = set()
        for sec, addr, key, add in obj.jump_entries():
            insn = obj.insns.get(sec, {}).get(addr)
            if insn is not None and insn.mnem.startswith(("nop", "xchg")):
                site_nops.add((sec, addr))
        funcs = [f for f in obj.functions() if f[0] == fname]
        print("==== %s: %s %s" % (name, path, fname))
        if not funcs:
            print("(no such function)")
            counts.append((name, {}))
            continue
        r = walk(obj, funcs[0], site_nops, site_nops)
        c = {}
        for sec, a0, a1 in r["_parts"]:
            for a in sorted(x for x in obj.insns.get(sec, {}) if a0 <= x < a1):
                insn = obj.insns[sec][a]
                w = (sec, a)
                mark = "N" if w in site_nops else "*" if w in r["_path"] else " "
                rel = "  <%s%+d>" % (insn.reloc[2], insn.reloc[3]) if insn.reloc else ""
                print("%s %s+0x%x\t%s %s%s" % (mark, fname if sec == funcs[0][1] else sec,
                                                a - (funcs[0][2] if sec == funcs[0][1] else 0),
                                                insn.mnem, insn.ops, rel))
                if mark != " ":
                    k = "site NOP" if mark == "N" else kind(insn)
                    c[k] = c.get(k, 0) + 1
        print("%d instructions on the non-injecting path" % len(r["_path"]))
        counts.append((name, c))
    base_name, base = counts[0]
    for name, c in counts[1:]:
        d = {k: c.get(k, 0) - base.get(k, 0) for k in set(c) | set(base)}
        d = {k: v for k, v in d.items() if v}
        print("%s - %s: %+d: %s" % (name, base_name, sum(d.values()),
                                   ", ".join("%s %+d" % (k, d[k]) for k in sorted(d)) or "same"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sites", help="kernel/futex/fault_sites.h")
    ap.add_argument("--out")
    ap.add_argument("--show", metavar="OBJECT:FUNCTION",
                    help="print this function of every build and what its path gained")
    ap.add_argument("builds", nargs="+", metavar="NAME=OBJDIR")
    args = ap.parse_args()
    if args.show:
        show(args.show, args.builds)
        return
    if not args.sites or not args.out:
        ap.error("--sites and --out are needed (or --show)")
    sites = read_sites(args.sites)
    if not sites:
        sys.exit("bench-static: no FUTEX_FAULT_SITE() in %s" % args.sites)
    out = {"sites": sites, "builds": {}}
    for b in args.builds:
        name, _, objdir = b.partition("=")
        out["builds"][name] = analyse_build(objdir, sites)
    ours = [b for b in out["builds"].values() if b["sites"]]
    for b in ours:
        missing = [s for s in sites if s not in b["sites"]]
        if missing:
            print("bench-static: sites without a __jump_table entry: %s" % " ".join(missing),
                  file=sys.stderr)
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    for name, b in out["builds"].items():
        inc = [k for k, r in b["functions"].items() if r["incomplete"]]
        pol = sum(r["should_fail_calls"] for r in b["functions"].values())
        print("bench-static: %-11s %3d functions, futex .text %6d, vmlinux .text %s, "
              "site NOPs %d, should_fail* calls on non-injecting paths %d%s" %
              (name, len(b["functions"]), b["futex_text"], b["vmlinux_text"],
               sum(s["entries"] for s in b["sites"].values()), pol,
               (", incomplete walks: " + " ".join(inc)) if inc else ""))


if __name__ == "__main__":
    main()
