#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Rows of docs/training-data.md for corpus.py's pictures from the
packages named, read from each package's DEP-5 copyright file
(/usr/share/doc/PACKAGE/copyright): the `Files:` block whose glob names
the picture (a specific glob wins over `*`), its `Copyright:` holders
(e-mail addresses left out) and its `License:`.

    /usr/bin/python3 tools/learned/attribution.py tuxpaint-data ufoai-textures ...

A glob names a picture when it ends with the picture's path inside its
archive (ufoai-textures: `base/textures/tex_nature/grass.jpg`) or, for a
plain file, when its last part matches the file's name
(lomiri-wallpapers: `16.04/Bridge_by_Sander_Klootwijk.jpg`) and, for a
wildcard name, its folder's name is the file's folder's
(`data/themes/maldives/*`, not `src/greeter/theme/*`)."""
import fnmatch
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import corpus  # noqa: E402


def blocks(pkg):
    """[(globs, holders, licence)] of pkg's DEP-5 copyright file."""
    text = open(f"/usr/share/doc/{pkg}/copyright", encoding="utf-8").read()
    out = []
    for para in re.split(r"\n\s*\n", text):
        fields, key = {}, None
        for line in para.splitlines():
            m = re.match(r"^([A-Za-z-]+):\s*(.*)$", line)
            if m:
                key = m.group(1)
                fields[key] = [m.group(2)] if m.group(2) else []
            elif key and line.startswith((" ", "\t")):
                fields[key].append(line.strip())
        if "Files" in fields:
            globs = " ".join(fields["Files"]).split()
            holders = [re.sub(r"\s*<[^>]*>", "", h).strip() for h in fields.get("Copyright", [])]
            lic = (fields.get("License") or ["(none given)"])[0]
            out.append((globs, [h for h in holders if h], lic))
    return out


def names(glob, path):
    if glob.startswith("debian/"):
        return False  # the packaging's own files
    if corpus.ARCHIVE_SEP in path:
        return glob.endswith("/" + path.split(corpus.ARCHIVE_SEP, 1)[1])
    last = os.path.basename(glob)
    if not fnmatch.fnmatch(os.path.basename(path), last):
        return False
    # A wildcard name (`theme/*`) names only files of its own folder: the
    # folder's name must be the installed file's folder's.
    if glob.count("/") and any(c in last for c in "*?["):
        return os.path.basename(os.path.dirname(glob)) == os.path.basename(os.path.dirname(path))
    return True


LONG = 4  # a block with more holders than this is listed once, below its table


def row(pkg, path, bl, cited):
    specific = [(k, g) for k, (globs, _, _) in enumerate(bl) for g in globs
                if g != "*" and names(g, path)]
    if specific:
        k, g = specific[-1]
        where = f"`{g}`"
    else:
        star = [k for k, (globs, _, _) in enumerate(bl) if "*" in globs]
        if not star:
            return f"| {pkg} | `{path}` | No `Files:` entry names it | Not stated |"
        k, where = star[0], "`Files: *`"
    _, h, lic = bl[k]
    if len(h) > LONG:
        cited.add(k)
        who = f"one of the holders of its `Files:` block {k + 1} (listed below)"
    else:
        who = "; ".join(h) or "No holder named"
    return f"| {pkg} | `{path}` | {who} ({where}) | {lic} |"


def main():
    pkgs = sys.argv[1:]
    photos, smooth, tex = corpus.training_sets()
    for title, entries in (("Training photographs", photos), ("Smooth pictures", smooth),
                           ("Textures", tex), ("Validation", corpus.VALIDATION)):
        mine = [(p, f) for p, f in entries if p in pkgs]
        if not mine:
            continue
        print(f"\n### {title}\n\n| package | file | author / copyright (the `Files:` glob) | licence |\n|---|---|---|---|")
        cache, cited = {}, {}
        for p, f in mine:
            bl = cache.setdefault(p, blocks(p))
            print(row(p, f, bl, cited.setdefault(p, set())))
        for p, ks in cited.items():
            for k in sorted(ks):
                print(f"\n{p}, `Files:` block {k + 1} ({cache[p][k][2]}): " + "; ".join(cache[p][k][1]) + ".")


if __name__ == "__main__":
    main()
