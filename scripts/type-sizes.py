#!/usr/bin/env python3
"""Counts each type's inherent methods (across all files) and struct fields.

Issue 41's rule: no type past 40 methods in its inherent `impl` blocks, and no
type with behaviour past 15 fields. Prints the types over a threshold, largest
first. Test modules (`#[cfg(test)]` blocks) are skipped.

    python3 scripts/type-sizes.py [--methods 40] [--fields 15] [--all]
"""
import argparse
import collections
import pathlib
import re

IMPL = re.compile(r"^\s*impl(?:<[^>]*>)?\s+([A-Za-z_][A-Za-z0-9_]*)(?:<[^{]*>)?\s*(?:where[^{]*)?\{")
STRUCT = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?struct\s+([A-Za-z_][A-Za-z0-9_]*)[^;{(]*\{\s*$")
FN = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?fn\s+")
FIELD = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?[a-z_][a-z0-9_]*\s*:")


def strip(line):
    line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
    line = re.sub(r"'(?:\\.|[^'\\])'", "''", line)
    return line.split("//")[0]


def scan(path, methods, fields, where):
    lines = path.read_text(errors="replace").splitlines()
    depth = 0
    skip_until = None  # depth at which a cfg(test) block ends
    pending_test = False
    stack = []  # (kind, name, depth_at_open)
    for raw in lines:
        line = strip(raw)
        if skip_until is None and re.match(r"^\s*#\[cfg\(test\)\]", line):
            pending_test = True
            continue
        opened = line.count("{")
        closed = line.count("}")
        if skip_until is not None:
            depth += opened - closed
            if depth <= skip_until:
                skip_until = None
            continue
        if pending_test and opened:
            pending_test = False
            skip_until = depth
            depth += opened - closed
            if depth <= skip_until:
                skip_until = None
            continue
        if stack and stack[-1][2] == depth - 1:
            kind, name, _ = stack[-1]
            if kind == "impl" and FN.match(line):
                methods[name] += 1
                where[name].add(str(path))
            if kind == "struct" and FIELD.match(line):
                fields[name] += 1
        m = IMPL.match(line)
        s = STRUCT.match(line)
        if m and " for " not in line:
            stack.append(("impl", m.group(1), depth))
        elif s:
            stack.append(("struct", s.group(1), depth))
        elif opened and line.strip().startswith(("impl", "mod", "trait")):
            stack.append(("other", "", depth))
        depth += opened - closed
        while stack and depth <= stack[-1][2]:
            stack.pop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--methods", type=int, default=40)
    ap.add_argument("--fields", type=int, default=15)
    ap.add_argument("--all", action="store_true", help="list every type")
    args = ap.parse_args()
    methods, fields = collections.Counter(), collections.Counter()
    where = collections.defaultdict(set)
    for path in sorted(pathlib.Path("src").rglob("*.rs")):
        scan(path, methods, fields, where)
    over = False
    for name, n in methods.most_common():
        if args.all or n > args.methods:
            print(f"methods {n:4} {name} ({len(where[name])} files)")
            over |= n > args.methods
    for name, n in fields.most_common():
        if args.all or n > args.fields:
            print(f"fields  {n:4} {name}")
            over |= n > args.fields
    raise SystemExit(1 if over and not args.all else 0)


if __name__ == "__main__":
    main()
