#!/usr/bin/env python3
"""The import map of src/: which room (top-level module) uses which, which
file uses which, the circles in both, and the levels (longest chain of uses).

Usage: scripts/import-map.py [--files]
  (no flag)  the room map, then any circles between rooms or between files
  --files    also every file's arrows, with the names behind each

Exits 1 when there is a circle (between rooms or between files), so a test
or CI can run it.

What counts as a use: a path in code (not in comments, doc links or
strings; not in `#[cfg(test)]` items) that names an item of another file:
`crate::a::b::Item`, `super::Item`, `self::child::Item`, a child module's
`child::Item`, or a name brought in by `use`. A path is followed through
re-exports (`pub use child::Item` in a face file counts as the file that
defines Item). A face file (src/pane.rs for src/pane/, or a mod.rs) is the
folder's face: a path through it lands on the file behind it, and what it
uses of its own folder is the folder's inside, not an arrow (its children
may use it: `super::Shared`). Naming only a module (`use crate::pane;`) is
no use by itself; what is then named through it is.
"""
import os
import re
import sys
from collections import defaultdict

SRC = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'src'))
IDENT = r'[A-Za-z_][A-Za-z0-9_]*'


def strip(text):
    """The code with comments removed and string and char literals emptied,
    so doc links and strings never read as paths."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
        elif text.startswith('/*', i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith('/*', i):
                    depth, i = depth + 1, i + 2
                elif text.startswith('*/', i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
            out.append(' ')
        elif c == 'r' and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == '_')
                           or (text[i - 1] == 'b' and (i < 2 or not text[i - 2].isalnum()))) \
                and re.match(r'r#*"', text[i:i + 260]):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            i = n if end < 0 else end + 1 + len(hashes)
            out.append('""')
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == '\\' else 1
            i += 1
            out.append('""')
        elif c == "'":
            m = re.match(r"'(\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]*\}|.)|[^\\'])'", text[i:i + 16])
            if m:
                i += m.end()
                out.append("' '")
            else:
                out.append(c)  # a lifetime or a label
                i += 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def block_end(text, i):
    """Where the item starting at i ends: after its `;` or its `{...}`,
    whichever comes first outside brackets."""
    depth, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in '([':
            depth += 1
        elif c in ')]':
            depth -= 1
        elif c == ';' and depth == 0:
            return i + 1
        elif c == '{' and depth == 0:
            level = 0
            while i < n:
                if text[i] == '{':
                    level += 1
                elif text[i] == '}':
                    level -= 1
                    if level == 0:
                        return i + 1
                i += 1
            return n
        i += 1
    return n


def drop_test_items(text):
    """The code without `#[cfg(test)]` items; and the names of the modules
    declared as test-only (`#[cfg(test)] mod tests;`)."""
    test_mods = set()
    while True:
        m = re.search(r'#\s*\[\s*cfg\s*\(\s*test\s*\)\s*\]', text)
        if not m:
            return text, test_mods
        j = m.end()
        while True:  # other attributes on the same item
            a = re.match(r'\s*#\s*\[', text[j:])
            if not a:
                break
            depth, j = 1, j + a.end()
            while j < len(text) and depth:
                depth += {'[': 1, ']': -1}.get(text[j], 0)
                j += 1
        end = block_end(text, j)
        decl = re.match(r'\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(' + IDENT + r')\s*;', text[j:end])
        if decl:
            test_mods.add(decl.group(1))
        text = text[:m.start()] + ' ' + text[end:]


def parse_use_tree(s):
    """`a::{b, c::d as e, f::*}` -> [(['a','b'], 'b'), (['a','c','d'], 'e'),
    (['a','f'], '*')]."""
    toks = re.findall(IDENT + r'|::|[{},*]', s)
    pos = [0]

    def tree(prefix):
        out, path = [], list(prefix)
        while pos[0] < len(toks):
            t = toks[pos[0]]
            if t == '::':
                pos[0] += 1
            elif t == '{':
                pos[0] += 1
                while pos[0] < len(toks) and toks[pos[0]] != '}':
                    out += tree(path)
                    if pos[0] < len(toks) and toks[pos[0]] == ',':
                        pos[0] += 1
                pos[0] += 1
                return out
            elif t == '*':
                pos[0] += 1
                out.append((path, '*'))
                return out
            elif t in (',', '}'):
                break
            elif t == 'as':
                pos[0] += 1
                alias = toks[pos[0]]
                pos[0] += 1
                out.append((path, alias))
                return out
            else:
                path = path + [t]
                pos[0] += 1
        if path != list(prefix):
            last = path[-1]
            if last == 'self':
                path = path[:-1]
                last = path[-1] if path else 'self'
            out.append((path, last))
        return out

    return tree([])


class Module:
    def __init__(self, path, file):
        self.path, self.file = path, file  # ('pane', 'pty'), 'pane/pty.rs'
        self.code = ''
        self.uses = []  # (raw path, binding or '*')
        self.defined = set()
        self.test_mods = set()


def load():
    modules = {}
    for dp, _, fs in os.walk(SRC):
        for f in sorted(fs):
            if not f.endswith('.rs'):
                continue
            rel = os.path.relpath(os.path.join(dp, f), SRC)
            if rel == 'main.rs':
                continue  # the binary: a crate of its own
            parts = rel[:-3].split(os.sep)
            if parts == ['lib']:
                parts = []
            elif parts[-1] == 'mod':
                parts = parts[:-1]
            m = Module(tuple(parts), rel)
            text, m.test_mods = drop_test_items(strip(open(os.path.join(dp, f)).read()))
            for u in re.finditer(r'\buse\s+([^;]*);', text):
                m.uses += parse_use_tree(u.group(1))
            m.code = re.sub(r'\buse\s+[^;]*;', ' ', text)
            m.defined = set(re.findall(
                r'\b(?:fn|struct|enum|trait|type|const|static|union|mod|macro_rules!)\s+(' + IDENT + ')',
                m.code))
            modules[m.path] = m
    # Files declared test-only, and everything below them, are no part of
    # the map.
    for m in list(modules.values()):
        for t in m.test_mods:
            for p in [p for p in modules if p[:len(m.path) + 1] == m.path + (t,)]:
                del modules[p]
    return modules


class Resolver:
    def __init__(self, modules):
        self.modules = modules
        self.bindings = {}
        for m in modules.values():
            b, globs = {}, []
            for raw, name in m.uses:
                absolute = self.absolute(m.path, raw, b)
                if absolute is None:
                    continue
                if name == '*':
                    globs.append(absolute)
                else:
                    b[name] = absolute
            self.bindings[m.path] = (b, globs)

    def absolute(self, here, raw, bindings):
        """A path as written in module `here`, from the crate root; None for
        another crate's path (std, anyhow) or a name this map cannot see."""
        if not raw:
            return None
        first, rest = raw[0], list(raw[1:])
        if first == 'crate':
            return rest
        if first == 'self':
            return list(here) + rest
        if first == 'super':
            base = list(here)
            while raw and raw[0] == 'super':
                base, raw = base[:-1], raw[1:]
            return base + list(raw)
        if tuple(here) + (first,) in self.modules:
            return list(here) + [first] + rest
        if first in bindings:
            return bindings[first] + rest
        if first in self.modules[tuple(here)].defined:
            return list(here) + [first] + rest
        return None

    def target(self, path, seen=()):
        """(file, name) that a path from the crate root lands on; None for a
        module itself or a path through another crate."""
        mod = ()
        for k, seg in enumerate(path):
            child = mod + (seg,)
            if child in self.modules:
                mod = child
                continue
            m = self.modules[mod]
            if seg in m.defined:
                return m.file, seg
            b, globs = self.bindings[mod]
            if seg in b and (mod, seg) not in seen:
                return self.target(b[seg] + list(path[k + 1:]), seen + ((mod, seg),))
            for g in globs:
                if (mod, '*', tuple(g)) in seen:
                    continue
                hit = self.target(g + list(path[k:]), seen + ((mod, '*', tuple(g)),))
                if hit and hit[0] != m.file:
                    return hit
            return m.file, seg
        return None


def file_edges(modules):
    """file -> file -> the names behind the arrow; and the arrows from a face
    file into its own folder."""
    r = Resolver(modules)
    edges = defaultdict(lambda: defaultdict(set))
    inner = set()
    for m in modules.values():
        b, _ = r.bindings[m.path]
        below = {c.file for c in modules.values()
                 if len(c.path) > len(m.path) and c.path[:len(m.path)] == m.path}
        paths = [raw for raw, name in m.uses if name != '*']
        paths += [re.split(r'\s*::\s*', p) for p in re.findall(
            r'(?<![\w:])(' + IDENT + r'(?:\s*::\s*' + IDENT + r')+)', m.code)]
        for raw in paths:
            absolute = r.absolute(m.path, raw, b)
            if absolute is None:
                continue
            hit = r.target(absolute)
            if hit and hit[0] != m.file:
                edges[m.file][hit[0]].add(hit[1])
                if hit[0] in below:
                    inner.add((m.file, hit[0]))
    return edges, inner


def face_circles(modules, graph, inner, longest=12):
    """Circles that go from a face file into its own folder and come back to
    the face from outside the folder: face -> child -> (outside) -> face.
    The shortest one for each face (up to `longest` files round)."""
    out = []
    for face in sorted({a for a, _ in inner}):
        fpath = next(m.path for m in modules.values() if m.file == face)
        folder = {m.file for m in modules.values() if m.path[:len(fpath)] == fpath}

        def walk(way, left, limit):
            v = way[-1]
            for w in sorted(graph.get(v, ())):
                if w == face and left:
                    return way + [w]
                if w in way or len(way) >= limit:
                    continue
                found = walk(way + [w], left or w not in folder, limit)
                if found:
                    return found
            return None

        children = sorted(d for a, d in inner if a == face)
        for limit in range(3, longest + 1):
            ways = [w for w in (walk([face, d], False, limit) for d in children) if w]
            if ways:
                out.append(min(ways, key=len))
                break
    return out


def circles(nodes, edges):
    """The strongly connected parts with more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def shortest_cycle(comp, edges):
    """One shortest way round a circle, from its first node back to it."""
    start, inside = comp[0], set(comp)
    prev, frontier = {start: None}, [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(edges.get(v, ())):
                if w == start:
                    way = [v]
                    while prev[way[-1]] is not None:
                        way.append(prev[way[-1]])
                    return list(reversed(way)) + [start]
                if w in inside and w not in prev:
                    prev[w] = v
                    nxt.append(w)
        frontier = nxt
    return comp


def levels(nodes, edges):
    level = {}

    def lv(v, seen=()):
        if v in level:
            return level[v]
        if v in seen:
            return 0
        level[v] = 1 + max((lv(w, seen + (v,)) for w in edges.get(v, ())), default=0)
        return level[v]

    for v in sorted(nodes):
        lv(v)
    return level


def main():
    modules = load()
    fedges, inner = file_edges(modules)
    files = {m.file for m in modules.values() if m.path}
    room_of = {m.file: m.path[0] for m in modules.values() if m.path}
    rooms = set(room_of.values())
    redges = defaultdict(set)
    for a, targets in fedges.items():
        for b in targets:
            if a in room_of and b in room_of and room_of[a] != room_of[b]:
                redges[room_of[a]].add(room_of[b])
    full = {a: set(t) for a, t in fedges.items() if a in files}
    fgraph = {a: {b for b in t if (a, b) not in inner} for a, t in full.items()}

    rlevel = levels(rooms, redges)
    rcircles = circles(rooms, redges)
    print(f"rooms {len(rooms)}, arrows {sum(len(s) for s in redges.values())}, "
          f"levels {max(rlevel.values())}, circles {len(rcircles)}")
    for c in rcircles:
        print('circle:', ' <-> '.join(c))
    for v in sorted(rooms, key=lambda r: (rlevel[r], r)):
        print(f"  L{rlevel[v]} {v:10} -> {', '.join(sorted(redges[v]))}")

    flevel = levels(files, fgraph)
    fcircles = circles(files, fgraph)
    through = face_circles(modules, full, inner)
    print(f"files {len(files)}, arrows {sum(len(s) for s in fgraph.values())}, "
          f"levels {max(flevel.values())}, circles {len(fcircles) + len(through)}")
    for way in through:
        print('circle:', ' -> '.join(way), ' (through the folder)')
        for a, b in zip(way, way[1:]):
            print(f"    {a} -> {b}: {', '.join(sorted(fedges[a][b]))}")
    for c in fcircles:
        way = shortest_cycle(c, fgraph)
        print('circle:', ' -> '.join(way) + (f'  (and {len(c) - len(way) + 1} more files)'
                                              if len(c) > len(way) - 1 else ''))
        inside = set(c)
        for a in c:
            for b in sorted(fgraph.get(a, ())):
                if b in inside:
                    print(f"    {a} -> {b}: {', '.join(sorted(fedges[a][b]))}")
    if '--files' in sys.argv:
        for v in sorted(files, key=lambda f: (flevel[f], f)):
            print(f"  L{flevel[v]} {v}")
            for b in sorted(fedges.get(v, {})):
                print(f"      -> {b}: {', '.join(sorted(fedges[v][b]))}")
    return 1 if rcircles or fcircles or through else 0


if __name__ == '__main__':
    sys.exit(main())
