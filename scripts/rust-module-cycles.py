#!/usr/bin/env python3
"""Fails when the modules of a Rust crate refer to one another in a circle.

    python3 scripts/rust-module-cycles.py [CRATE_DIR ...]   (default: crates/*)
    python3 scripts/rust-module-cycles.py --self-test

Reads each crate's `src/` from its roots (`lib.rs`, `main.rs`), following
the `mod` declarations (files, `#[path]`, inline `mod x { ... }`), and
collects every reference from one module to another: `use` declarations
(trees, globs, renames) and paths in the code starting with `crate::`,
`$crate::`, `super::` or `self::` (and the names a `use` gave to modules).
Comments and literals are skipped; tests count like any other code.

The granularity: a module together with its submodules is one unit. A
reference from module A to module B is counted between the two siblings
below their nearest common ancestor that contain A and B: in the web
crate, `games::http` using `live::hub` is the edge `games -> live` at the
crate's top level, and `games::engine` using `games::http` is the edge
`engine -> http` inside `games`. References between a module and its own
ancestors or descendants are not edges (a parent re-exports its parts, a
part uses its parent's types). A circle is a group of siblings that reach
one another through such edges (a strongly connected component); each is
reported with the references that make it.

Also fails when a module uses an item defined in the crate root itself
(`lib.rs`/`main.rs`: a function, type or constant, not a re-export): the
root assembles the crate and nothing imports upward from it.

Python 3 standard library only; no build needed.
"""

import os
import re
import sys
import tempfile
from collections import defaultdict

# ---------------------------------------------------------------- reading


# The problems known on the day the check came, still to be ended.
KNOWN = "scripts/rust-module-cycles.known"

RAW = re.compile(r'b?r(#*)"')


def strip(text):
    """The text with comments, strings and character literals blanked
    (newlines kept, so that offsets keep their line numbers)."""
    out = []
    i, n = 0, len(text)

    def blank(s):
        return "".join(c if c == "\n" else " " for c in s)

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(blank(text[i:j]))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(blank(text[i:j]))
            i = j
        elif c in "br" and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")) and RAW.match(text, i):
            m = RAW.match(text, i)
            end = text.find('"' + m.group(1), m.end())
            j = n if end < 0 else end + 1 + len(m.group(1))
            out.append(blank(text[i:j]))
            i = j
        elif c == '"' or (c == "b" and text.startswith('b"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_"))):
            j = i + (2 if c == "b" else 1)
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(blank(text[i:j + 1]))
            i = j + 1
        elif c == "'":
            # A character literal ('a', '\n', '\u{1F600}', b'x'); a lifetime
            # ('a) is left alone.
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\x[0-9a-fA-F]{2}|\\.|[^\\'])'", text[i:i + 16])
            if m:
                out.append(blank(m.group(0)))
                i += m.end()
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
TOKEN = re.compile(
    r"(?P<attr>#!?\[)"
    r"|(?P<mod>\bmod\s+(?P<modname>" + IDENT + r")\s*(?P<modend>[;{]))"
    r"|(?P<use>\buse\s+(?P<tree>[^;]*);)"
    r"|(?P<path>(?<![\w:$])(?P<head>\$crate|\bcrate|\bsuper|\bself)\b(?P<rest>(?:\s*::\s*(?:" + IDENT + r"))+))"
    r"|(?P<alias>(?<![\w:$])(?P<aname>" + IDENT + r")(?P<arest>(?:\s*::\s*" + IDENT + r")+))"
    r"|(?P<open>\{)|(?P<close>\})"
)
CFG_TEST = re.compile(r"#\[\s*cfg\s*\(\s*test\s*\)\s*\]")
PATH_ATTR = re.compile(r'#\[\s*path\s*=\s*"([^"]*)"\s*\]')
ROOT_ITEM = re.compile(r"\b(?:fn|struct|enum|const|static|type|trait|union)\s+(" + IDENT + r")")


def use_paths(tree):
    """The paths a use tree names: [(segments, alias)]; a glob ends in '*'."""
    toks = re.findall(r"\$crate|" + IDENT + r"|::|\{|\}|,|\*", tree)
    pos = 0

    def parse(prefix):
        nonlocal pos
        out = []
        segs = list(prefix)
        while pos < len(toks):
            t = toks[pos]
            if t == "::":
                pos += 1
            elif t == "{":
                pos += 1
                while pos < len(toks) and toks[pos] != "}":
                    if toks[pos] == ",":
                        pos += 1
                        continue
                    out.extend(parse(segs))
                pos += 1
                return out
            elif t in (",", "}"):
                break
            elif t == "*":
                out.append((segs + ["*"], None))
                pos += 1
                return out
            elif t == "as":
                pos += 1
                alias = toks[pos] if pos < len(toks) else None
                pos += 1
                out.append((segs, alias))
                return out
            else:
                segs = segs + [t]
                pos += 1
        if segs != list(prefix):
            out.append((segs, None))
        return out

    return parse([])


class Crate:
    def __init__(self, root_file, label):
        self.label = label
        self.root_file = root_file
        self.modules = {(): root_file}  # module path -> file (inline: file)
        self.refs = []  # (from module, target segments, file, line, text)
        self.root_items = set()
        self.tests = set()  # the modules under #[cfg(test)]
        self._load(root_file, (), mod_rs=True)

    def _load(self, path, module, mod_rs):
        with open(path, encoding="utf-8") as f:
            raw = f.read()
        text = strip(raw)
        base = os.path.dirname(path)
        own_dir = base if mod_rs else os.path.join(base, os.path.splitext(os.path.basename(path))[0])
        stack = []  # (inline module path, brace depth at its opening)
        depth = 0
        aliases = {}  # per file: name -> absolute module path (approximate)
        pending_path, pending_test = None, False
        for m in TOKEN.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            current = stack[-1][0] if stack else module
            if m.group("attr"):
                pa = PATH_ATTR.match(raw, m.start())
                pending_path = pa.group(1) if pa else pending_path
                pending_test = pending_test or bool(CFG_TEST.match(raw, m.start()))
                continue
            if m.group("mod"):
                name = m.group("modname")
                child = current + (name,)
                if pending_test or current in self.tests:
                    self.tests.add(child)
                pending_test = False
                if m.group("modend") == "{":
                    self.modules[child] = path
                    depth += 1
                    stack.append((child, depth))
                else:
                    if pending_path is not None:
                        target = os.path.normpath(os.path.join(base, pending_path))
                        child_mod_rs = os.path.basename(target) == "mod.rs"
                    else:
                        inner = own_dir
                        for seg in current[len(module):]:
                            inner = os.path.join(inner, seg)
                        target = os.path.join(inner, name + ".rs")
                        child_mod_rs = False
                        if not os.path.exists(target):
                            target = os.path.join(inner, name, "mod.rs")
                            child_mod_rs = True
                    if os.path.exists(target):
                        self.modules[child] = target
                        self._load(target, child, child_mod_rs)
                pending_path = None
                continue
            pending_path, pending_test = None, False
            if m.group("open"):
                depth += 1
                continue
            if m.group("close"):
                if stack and stack[-1][1] == depth:
                    stack.pop()
                depth -= 1
                continue
            if m.group("use"):
                for segs, alias in use_paths(m.group("tree")):
                    absolute = self._absolute(current, segs, aliases)
                    if absolute is None:
                        continue
                    self.refs.append((current, absolute, path, line, "use " + "::".join(segs)))
                    name = alias or (segs[-2] if segs[-1] == "self" and len(segs) > 1 else segs[-1])
                    if name not in ("*", "self"):
                        aliases[name] = [s for s in absolute if s != "self"]
                continue
            if m.group("path"):
                segs = [m.group("head")] + re.findall(IDENT, m.group("rest"))
            else:
                segs = [m.group("aname")] + re.findall(IDENT, m.group("arest"))
                if segs[0] not in aliases:
                    continue
            absolute = self._absolute(current, segs, aliases)
            if absolute is not None:
                self.refs.append((current, absolute, path, line, "::".join(segs)))
        # The items defined at the top of the root file.
        if module == ():
            self.root_items = set(ROOT_ITEM.findall(depth0(text)))

    def _absolute(self, current, segs, aliases):
        """The absolute segments of a path written in module `current`
        (None: a path outside the crate)."""
        segs = [s for s in segs]
        head = segs[0]
        if head in ("crate", "$crate"):
            return segs[1:]
        if head in ("super", "self"):
            base = list(current)
            while segs and segs[0] in ("super", "self"):
                if segs[0] == "super":
                    if not base:
                        return None
                    base.pop()
                segs = segs[1:]
            return base + segs
        if head in aliases:
            return aliases[head] + segs[1:]
        if tuple(current) + (head,) in self.modules:
            return list(current) + segs
        return None

    def module_of(self, segs):
        """The longest module that is a prefix of `segs`, and the rest."""
        segs = [s for s in segs if s != "self"]
        for k in range(len(segs), -1, -1):
            if tuple(segs[:k]) in self.modules:
                return tuple(segs[:k]), segs[k:]
        return (), segs


def depth0(text):
    """The parts of `text` outside every brace."""
    out, depth = [], 0
    for c in text:
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif depth == 0:
            out.append(c)
    return "".join(out)


# ---------------------------------------------------------------- checking


def name(module):
    return "::".join(module) if module else "crate"


def check(crate):
    """The problems found in `crate`: a list of (key, text); the key names
    the problem in the list of known ones (`KNOWN`)."""
    edges = defaultdict(lambda: defaultdict(list))  # parent -> (a, b) -> witnesses
    upward = defaultdict(list)
    for src, target, path, line, text in crate.refs:
        if src in crate.tests:
            continue  # tests aside
        dst, rest = crate.module_of(target)
        where = f"{os.path.relpath(path)}:{line} ({text})"
        if dst == () and src != () and rest and rest[0] in crate.root_items:
            upward[rest[0]].append(f"  {name(src)} uses `{rest[0]}` of the crate root: {where}")
        k = 0
        while k < min(len(src), len(dst)) and src[k] == dst[k]:
            k += 1
        if k == len(src) or k == len(dst):
            continue  # the same module, an ancestor or a descendant
        parent = src[:k]
        edges[parent][(src[k], dst[k])].append(where)
    problems = []
    for parent in sorted(edges):
        graph = defaultdict(set)
        for a, b in edges[parent]:
            graph[a].add(b)
        for comp in components(graph):
            key = f"{crate.label}: {name(parent)}: " + ", ".join(sorted(comp))
            lines = [f"{crate.label}: import circle among the modules of `{name(parent)}`: "
                     + ", ".join(sorted(comp))]
            for (a, b), seen in sorted(edges[parent].items()):
                if a in comp and b in comp:
                    more = f" (and {len(seen) - 3} more)" if len(seen) > 3 else ""
                    lines.append(f"  {a} -> {b}: " + "; ".join(seen[:3]) + more)
            problems.append((key, "\n".join(lines)))
    for item, seen in sorted(upward.items()):
        problems.append((f"{crate.label}: upward: {item}",
                         f"{crate.label}: imports upward from the crate root "
                         f"({os.path.relpath(crate.root_file)}):\n" + "\n".join(seen)))
    return problems


def components(graph):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, onstack, stack, out = {}, {}, set(), [], []
    counter = [0]
    nodes = sorted(set(graph) | {b for bs in graph.values() for b in bs})

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        onstack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in onstack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                onstack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    sys.setrecursionlimit(10_000)
    for v in nodes:
        if v not in index:
            visit(v)
    return out


def crate_roots(crate_dir):
    roots = []
    for root in ("lib.rs", "main.rs"):
        p = os.path.join(crate_dir, "src", root)
        if os.path.exists(p):
            roots.append((p, f"{crate_dir} ({os.path.splitext(root)[0]})"))
    return roots


def read_known(path):
    """The known problems still to be ended (one key a line; # comments)."""
    if not os.path.exists(path):
        return set()
    with open(path, encoding="utf-8") as f:
        return {l.split("#")[0].strip() for l in f if l.split("#")[0].strip()}


def run(crate_dirs, known=frozenset()):
    """Checks the crates; a problem listed in `known` is shown but does not
    fail, and a listed one that is gone fails (the list only shrinks)."""
    failed, modules, seen = 0, 0, set()
    labels = set()
    for d in crate_dirs:
        for root, label in crate_roots(d):
            labels.add(label)
            crate = Crate(root, label)
            modules += len(crate.modules)
            for key, text in check(crate):
                seen.add(key)
                if key in known:
                    print(f"known, still to be ended ({KNOWN}): {text.splitlines()[0]}")
                else:
                    failed += 1
                    print(text, file=sys.stderr)
    for key in sorted(known - seen):
        if key.split(": ")[0] in labels:
            failed += 1
            print(f"{key}: listed in {KNOWN} but no longer found: remove the line", file=sys.stderr)
    if not failed:
        print(f"{len(crate_dirs)} crates, {modules} modules: no new import circle")
    return not failed


# ---------------------------------------------------------------- self-test


def self_test():
    cases = {
        # a <-> b at the top, through a use tree and an inline path.
        "circle": {
            "lib.rs": "pub mod a;\npub mod b;\nmod c;\n",
            "a.rs": "use crate::{b::B, c};\npub struct A;\n",
            "b.rs": "pub struct B;\nfn f() { let _ = crate::a::A; }\n",
            "c.rs": "// use crate::a; (a comment)\nconst S: &str = \"crate::b::B\";\n",
        },
        # inside a folder: x::p <-> x::q through super:: and a glob.
        "nested": {
            "lib.rs": "mod x;\n",
            "x/mod.rs": "mod p;\nmod q;\npub use p::P;\n",
            "x/p.rs": "use super::q::*;\npub struct P;\n",
            "x/q.rs": "pub fn q() -> super::p::P { super::P }\n",
        },
        # a module alias: `use crate::b;` then `b::B`, in an inline module
        # whose `super` is its file.
        "alias": {
            "lib.rs": "mod a;\nmod b;\n",
            "a.rs": "pub struct A;\nmod inner {\n    use super::*;\n    use crate::b;\n    fn t() { let _ = b::B; }\n}\n",
            "b.rs": "pub struct B;\nfn f() { let _ = super::a::A; }\n",
        },
        # tests aside: a circle only through #[cfg(test)] modules is none.
        "tests": {
            "lib.rs": "mod a;\nmod b;\n",
            "a.rs": "pub struct A;\n#[cfg(test)]\n#[allow(unused)]\nmod tests {\n    use crate::b::B;\n}\n",
            "b.rs": "pub struct B;\nfn f() { let _ = super::a::A; }\n#[cfg(test)]\nmod t;\n",
            "b/t.rs": "use crate::a::A;\n",
        },
        # an upward import from lib.rs.
        "upward": {
            "lib.rs": "mod a;\npub mod b;\npub use b::B;\npub fn helper() {}\n",
            "a.rs": "use crate::B;\nfn f() { crate::helper() }\n",
            "b.rs": "pub struct B;\n",
        },
        # layered: a uses b, b uses c, parents and children use each other.
        "clean": {
            "lib.rs": "mod a;\nmod b;\nmod c;\npub use a::A;\nfn g() { a::f() }\n",
            "a/mod.rs": "mod inner;\npub use inner::A;\npub fn f() { crate::b::g() }\n",
            "a/inner.rs": "pub struct A;\nfn f() { super::f(); let _ = crate::c::C; }\n",
            "b.rs": "use crate::c::C;\npub fn g() { let _ = '{'; let _ = r#\"crate::a::f}\"#; }\n",
            "c.rs": "pub struct C;\nfn l<'a>(x: &'a str) -> &'a str { x }\n",
        },
    }
    expect = {
        "circle": ["import circle among the modules of `crate`: a, b"],
        "nested": ["import circle among the modules of `x`: p, q"],
        "alias": ["import circle among the modules of `crate`: a, b"],
        "tests": [],
        "upward": ["a uses `helper` of the crate root"],
        "clean": [],
    }
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for case, files in cases.items():
            d = os.path.join(tmp, case)
            for rel, text in files.items():
                p = os.path.join(d, "src", rel)
                os.makedirs(os.path.dirname(p), exist_ok=True)
                with open(p, "w", encoding="utf-8") as f:
                    f.write(text)
            (root, label), = crate_roots(d)
            found = "\n".join(text for _, text in check(Crate(root, label)))
            wanted = expect[case]
            ok = all(w in found for w in wanted) and (bool(wanted) == bool(found))
            if case == "upward" and "B`" in found:
                ok = False  # a re-export is not an item of the root
            if not ok:
                failed += 1
                print(f"self-test {case}: expected {wanted}, found:\n{found}", file=sys.stderr)
    if failed:
        return False
    print(f"self-test: {len(cases)} made-up crates checked")
    return True


def main(args):
    if args == ["--self-test"]:
        return 0 if self_test() else 1
    here = os.path.dirname(os.path.abspath(__file__))
    os.chdir(os.path.dirname(here))
    dirs = args or sorted(
        os.path.join("crates", d) for d in os.listdir("crates") if crate_roots(os.path.join("crates", d))
    )
    return 0 if run(dirs, read_known(KNOWN)) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
