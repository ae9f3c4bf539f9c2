# SPDX-License-Identifier: BSD-2-Clause
"""A PEP 517 build backend for the Python module, standard library only.

build_wheel configures and builds the repository's CMake project (the
wai_python target: libwai_python.so, both of libwai's APIs) in a folder of
its own, then writes a wheel holding python/wai/*.py and that library. The
version is CMakeLists.txt's project() version. The wheel is tagged for this
platform (it carries a native library) and any Python 3 (ctypes, no
extension module). build_sdist writes the sources the build needs.

CMake and a C compiler must be on PATH; WAI_PIP_CMAKE_ARGS adds arguments
to the configure step."""
import base64
import hashlib
import io
import os
import re
import shlex
import subprocess
import sysconfig
import tarfile
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "wai"


def _version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        m = re.search(r"project\(wai VERSION ([0-9.]+)", f.read())
    if not m:
        raise RuntimeError("CMakeLists.txt names no project version")
    return m.group(1)


def _metadata():
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {_version()}\n"
            "Summary: libwai from Python: decode, inspect and the rANS coder\n"
            "License: BSD-2-Clause\n"
            "Requires-Python: >=3.9\nRequires-Dist: numpy\n")


def _build_library(tmp):
    build = os.path.join(tmp, "cmake")
    args = ["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
            "-DWAI_BUILD_TESTS=OFF", "-DWAI_BUILD_TOOLS=OFF", "-DWAI_BUILD_BENCH=OFF"]
    args += shlex.split(os.environ.get("WAI_PIP_CMAKE_ARGS", ""))
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    jobs = str(os.cpu_count() or 1)
    subprocess.run(["cmake", "--build", build, "--target", "wai_python", "-j", jobs], check=True,
                   stdout=subprocess.DEVNULL)
    for dirpath, _, files in os.walk(build):
        if "libwai_python.so" in files:
            return os.path.join(dirpath, "libwai_python.so")
    raise RuntimeError("the build wrote no libwai_python.so")


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def _tag():
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"py3-none-{plat}"


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    version, tag = _version(), _tag()
    dist = f"{NAME}-{version}.dist-info"
    files = {}
    pkg = os.path.join(ROOT, "python", NAME)
    for name in sorted(os.listdir(pkg)):
        if name.endswith(".py"):
            with open(os.path.join(pkg, name), "rb") as f:
                files[f"{NAME}/{name}"] = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        with open(_build_library(tmp), "rb") as f:
            files[f"{NAME}/libwai_python.so"] = f.read()
    files[f"{dist}/METADATA"] = _metadata().encode()
    with open(os.path.join(ROOT, "LICENSE"), "rb") as f:
        files[f"{dist}/LICENSE"] = f.read()
    files[f"{dist}/WHEEL"] = (f"Wheel-Version: 1.0\nGenerator: wai build_backend\n"
                              f"Root-Is-Purelib: false\nTag: {tag}\n").encode()
    record = [_record_line(n, d) for n, d in files.items()] + [f"{dist}/RECORD,,"]
    files[f"{dist}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel = f"{NAME}-{version}-{tag}.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel), "w", zipfile.ZIP_DEFLATED) as z:
        for n, d in files.items():
            info = zipfile.ZipInfo(n, date_time=(2026, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if n.endswith(".so") else 0o644) << 16
            z.writestr(info, d, zipfile.ZIP_DEFLATED)
    return wheel


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


# What an sdist holds: what the CMake project and the module need.
SDIST = ["CMakeLists.txt", "pyproject.toml", "README.md", "LICENSE", "THIRD-PARTY.md", "cmake", "include", "src",
         "python/wai", "python/build_backend.py"]


def build_sdist(sdist_directory, config_settings=None):
    base = f"{NAME}-{_version()}"
    name = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as t:
        for rel in SDIST:
            p = os.path.join(ROOT, rel)
            if os.path.exists(p):
                t.add(p, arcname=f"{base}/{rel}",
                      filter=lambda i: None if "__pycache__" in i.name else i)
        data = (_metadata()).encode()
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    return name
