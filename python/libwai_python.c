/* SPDX-License-Identifier: BSD-2-Clause */
/* libwai_python.so of a shared build: no code of its own. It needs the
 * libraries (libwai_write and libwai_receipt, which need libwai_webnn and
 * libwai), so the Python module's one ctypes handle finds every API in
 * them (dlsym searches a handle's needed libraries, theirs too) and the
 * process holds one copy of each. A static build's
 * libwai_python.so holds their objects instead (the wheel's one file). */
typedef int wai_python_needs_no_code_of_its_own;
