#!/usr/bin/env python3
"""No two modules of a crate import each other (docs/ARCHITECTURE.md, "layers point one way").

Builds each crate's module graph from its `use` declarations and `crate::`/`super::`/`self::`
paths (tests excluded), a parent re-exporting a child counting like any import, and fails
listing every ring (strongly connected component of more than one module).

    scripts/module_cycles.py api/src generator/src ...   # -v also prints the edges
"""
import re, sys
from pathlib import Path


def crate_cycles(src: Path, verbose: bool):
    mods = {}  # module path tuple -> file

    def walk(path, file):
        mods[path] = file
        text = file.read_text()
        for m in re.finditer(r'^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;', text, re.M):
            name = m.group(1)
            d = file.parent if file.name in ('lib.rs', 'mod.rs') else file.parent / file.stem
            for cand in (d / f'{name}.rs', d / name / 'mod.rs'):
                if cand.exists():
                    walk(path + (name,), cand)
    root = src / 'lib.rs' if (src / 'lib.rs').exists() else src / 'main.rs'
    walk((), root)

    def strip(text):
        text = re.split(r'#\[cfg\(test\)\]\s*mod\s+tests', text)[0]
        text = re.sub(r'//[^\n]*', '', text)
        text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
        text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
        return text

    def expand(tree):
        """`a::{b, c::{d}}` -> [a::b, a::c::d]"""
        tree = tree.strip()
        i = tree.find('{')
        if i < 0:
            return [tree.split(' as ')[0].strip()]
        prefix, inner = tree[:i], tree[i+1:tree.rfind('}')]
        parts, depth, cur = [], 0, ''
        for ch in inner:
            if ch == ',' and depth == 0:
                parts.append(cur); cur = ''
                continue
            depth += ch == '{'; depth -= ch == '}'
            cur += ch
        parts.append(cur)
        out = []
        for p in parts:
            if p.strip():
                out += [prefix + q for q in expand(p)]
        return out

    def resolve(cur, segs):
        if segs[0] == 'crate':
            base, rest = (), segs[1:]
        elif segs[0] in ('super', 'self'):
            base, rest = cur, list(segs)
            while rest and rest[0] in ('super', 'self'):
                if rest[0] == 'super':
                    base = base[:-1]
                rest = rest[1:]
        elif cur + (segs[0],) in mods:
            base, rest = cur, segs
        else:
            return None
        best = base
        for s in rest:
            if best + (s,) in mods:
                best = best + (s,)
            else:
                break
        return best

    edges = {}
    for path, file in mods.items():
        text = strip(file.read_text())
        paths = []
        for m in re.finditer(r'\buse\s+([^;]+);', text):
            paths += expand(m.group(1))
        body = re.sub(r'\buse\s+[^;]+;', '', text)
        paths += re.findall(r'\b(?:crate|super|self|[a-z_][a-z0-9_]*)(?:::[A-Za-z_][A-Za-z0-9_]*)+', body)
        for p in paths:
            segs = [s for s in p.replace(' ', '').split('::') if s and s != '*']
            if not segs:
                continue
            tgt = resolve(path, segs)
            if tgt is not None and tgt != path:
                edges.setdefault(path, set()).add(tgt)

    name = lambda p: '::'.join(p) or 'crate'
    if verbose:
        for a in sorted(edges):
            print(f'{name(a):22} -> {", ".join(sorted(name(b) for b in edges[a]))}')

    # Tarjan SCC
    idx, low, on, st, sccs, n = {}, {}, set(), [], [], [0]
    def sc(v):
        idx[v] = low[v] = n[0]; n[0] += 1; st.append(v); on.add(v)
        for w in edges.get(v, ()):
            if w not in idx:
                sc(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], idx[w])
        if low[v] == idx[v]:
            c = []
            while True:
                w = st.pop(); on.discard(w); c.append(w)
                if w == v: break
            if len(c) > 1: sccs.append(c)
    for v in mods:
        if v not in idx: sc(v)
    return [sorted(name(x) for x in c) for c in sccs]


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    args = [a for a in sys.argv[1:] if a != "-v"]
    failed = False
    for crate in args:
        rings = crate_cycles(Path(crate), "-v" in sys.argv)
        for ring in rings:
            failed = True
            print(f"{crate}: these modules import each other: {', '.join(ring)}", file=sys.stderr)
    if not failed:
        print(f"no module rings in {len(args)} crates")
    sys.exit(1 if failed else 0)
