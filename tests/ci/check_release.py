#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""One licence and one version everywhere libwai ships. The version is
written once, in CMakeLists.txt's project(); the licence is LICENSE's,
BSD-2-Clause. Each place a user reads either must say the same:

  the headers (BUILD/include/wai/wai_version.h), `wai --version`, the .pc
  files (and `pkg-config --validate`), the CMake package (version file and
  wai_LICENSE), the GStreamer plugin (gst-inspect-1.0), the npm package
  (web/package.json), the Python package (pyproject.toml, the wheel's
  METADATA from python/build_backend.py, and wai.version() over the
  build's library).

    check_release.py BUILD      one check each, then "N passed, N failed"
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
LICENCE = "BSD-2-Clause"
results = []


def check(name, ok, detail=""):
    results.append(bool(ok))
    print(f"{'ok  ' if ok else 'FAIL'} {name}" + (f": {detail}" if detail and not ok else ""))


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def run(*cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return p.returncode, p.stdout + p.stderr


def main(build):
    m = re.search(r"project\(wai VERSION ([0-9]+\.[0-9]+\.[0-9]+)", read(f"{REPO}/CMakeLists.txt"))
    check("CMakeLists.txt's project() names the version", m)
    if not m:
        return
    v = m.group(1)
    print(f"version {v}, licence {LICENCE}")

    lic = read(f"{REPO}/LICENSE") if os.path.exists(f"{REPO}/LICENSE") else ""
    check("LICENSE is the BSD 2-Clause licence", lic.startswith("BSD 2-Clause License") and
          "Redistributions in binary form" in lic)
    check("THIRD-PARTY.md lists what is not ours", os.path.exists(f"{REPO}/THIRD-PARTY.md"))

    h = read(f"{build}/include/wai/wai_version.h")
    check("wai_version.h: WAI_VERSION_STRING", f'#define WAI_VERSION_STRING "{v}"' in h)
    rc, out = run(f"{build}/tools/wai/wai", "--version")
    check("wai --version", rc == 0 and out.strip() == f"wai {v}", out.strip())

    pcs = sorted(glob.glob(f"{build}/*.pc"))
    check("the build wrote its .pc files", len(pcs) >= 3, str(pcs))
    env = dict(os.environ, PKG_CONFIG_PATH=build)
    for pc in pcs:
        name = os.path.basename(pc)
        check(f"{name}: Version", re.search(rf"^Version: {re.escape(v)}$", read(pc), re.M))
        rc, out = run("pkg-config", "--validate", pc, env=env)
        check(f"{name}: pkg-config --validate", rc == 0, out.strip())
        # pkgconf takes "Requires: ," without a word; no module is empty.
        reqs = re.findall(r"^Requires(?:\.private)?:(.*)$", read(pc), re.M)
        check(f"{name}: every Requires names modules",
              all(r.strip() and all(p.strip() for p in r.split(",")) for r in reqs), str(reqs))

    cv = read(f"{build}/waiConfigVersion.cmake")
    check("waiConfigVersion.cmake: PACKAGE_VERSION", f'set(PACKAGE_VERSION "{v}")' in cv)
    check("waiConfig.cmake: wai_LICENSE", f'set(wai_LICENSE "{LICENCE}")' in
          read(f"{build}/waiConfig.cmake"))

    plugin = f"{build}/gst/libgstwai.so"
    if not os.path.exists(plugin):
        check("the GStreamer plugin was built (libgstreamer1.0-dev?)", False, plugin)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            genv = dict(os.environ, GST_REGISTRY=f"{tmp}/registry.bin")
            rc, out = run("gst-inspect-1.0", plugin, env=genv)
        fields = dict(re.findall(r"^\s+(Version|License)\s+(\S+)", out, re.M))
        check("gst-inspect-1.0: the plugin's Version", rc == 0 and fields.get("Version") == v, out[-400:])
        # GStreamer's word for any BSD licence; its own list has no SPDX names.
        check("gst-inspect-1.0: the plugin's License", fields.get("License") == "BSD", out[-400:])

    pkg = json.loads(read(f"{REPO}/web/package.json"))
    check("web/package.json: version", pkg.get("version") == v, pkg.get("version"))
    check("web/package.json: license", pkg.get("license") == LICENCE, pkg.get("license"))
    check("web/package.json: the package carries LICENSE", "LICENSE" in pkg.get("files", []))

    check("pyproject.toml: license", f'license = {{text = "{LICENCE}"}}' in read(f"{REPO}/pyproject.toml"))
    sys.path.insert(0, f"{REPO}/python")
    import build_backend
    meta = build_backend._metadata()
    check("the wheel's METADATA: Version", f"\nVersion: {v}\n" in meta)
    check("the wheel's METADATA: License", f"\nLicense: {LICENCE}\n" in meta)
    lib = f"{build}/libwai_python.so"
    rc, out = run("/usr/bin/python3", "-c", "import wai; print(wai.version())",
                  env=dict(os.environ, WAI_LIBRARY=lib, PYTHONPATH=f"{REPO}/python"))
    check("wai.version() in Python", rc == 0 and out.strip() == v, out.strip())


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    try:
        main(os.path.abspath(sys.argv[1]))
    except OSError as e:
        check("every file read", False, str(e))
    failed = results.count(False)
    print(f"{len(results) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
