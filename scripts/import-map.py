#!/usr/bin/env python3
"""The import map of src/: which part (top-level module) uses which, the
circles between parts, and the levels (longest chain of uses). Counts
`crate::PART` paths and `super::` stays inside a part. Usage:
scripts/import-map.py [--files]  (--files: one room per file instead)."""
import os, re, sys
from collections import defaultdict
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'src')
per_file = '--files' in sys.argv
edges = defaultdict(set)
rooms = set()
for dp, _, fs in os.walk(root):
    for f in fs:
        if not f.endswith('.rs') or f in ('main.rs', 'lib.rs'):
            continue
        rel = os.path.relpath(os.path.join(dp, f), root)[:-3]
        parts = rel.split(os.sep)
        room = '::'.join(parts) if per_file else parts[0]
        rooms.add(room)
        text = open(os.path.join(dp, f)).read()
        text = text.split('#[cfg(test)]')[0]
        for m in re.finditer(r'crate::([a-z_]+)(?:::([a-z_]+))?', text):
            top, sub = m.group(1), m.group(2)
            target = top
            if per_file:
                cand = f'{top}::{sub}' if sub else top
                target = cand if os.path.exists(os.path.join(root, top, f'{sub}.rs')) else top
            if target != room:
                edges[room].add(target)
rooms |= {t for ts in edges.values() for t in ts}
def cycles():
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]
    def sc(v):
        index[v] = low[v] = n[0]; n[0] += 1; stack.append(v); on.add(v)
        for w in edges[v]:
            if w not in index: sc(w); low[v] = min(low[v], low[w])
            elif w in on: low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v: break
            if len(comp) > 1: out.append(sorted(comp))
    for v in sorted(rooms):
        if v not in index: sc(v)
    return out
level = {}
def lv(v, seen=()):
    if v in level: return level[v]
    if v in seen: return 0
    level[v] = 0
    level[v] = 1 + max((lv(w, seen + (v,)) for w in edges[v]), default=0)
    return level[v]
for v in rooms: lv(v)
print(f"rooms {len(rooms)}, arrows {sum(len(s) for s in edges.values())}, "
      f"levels {max(level.values())}, circles {len(cycles())}")
for c in cycles(): print('circle:', ' <-> '.join(c))
if not per_file:
    for v in sorted(rooms, key=lambda r: (level[r], r)):
        print(f"  L{level[v]} {v:10} -> {', '.join(sorted(edges[v]))}")
