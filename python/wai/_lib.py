# SPDX-License-Identifier: BSD-2-Clause
"""Loading libwai's shared library and the C structs ctypes needs.

The library is the build's libwai_python.so (both of libwai's APIs in one
file): the copy installed beside this module by `pip install .`, or the
file WAI_LIBRARY names (a build tree's, for tests)."""
import ctypes
import os

_HERE = os.path.dirname(os.path.abspath(__file__))


def _load():
    path = os.environ.get("WAI_LIBRARY") or os.path.join(_HERE, "libwai_python.so")
    if not os.path.exists(path):
        raise ImportError(
            f"libwai's shared library is not at {path}: install the module with "
            "'pip install .' from the repository, or set WAI_LIBRARY to a build's "
            "libwai_python.so")
    return ctypes.CDLL(path)


lib = _load()

c_u8p = ctypes.POINTER(ctypes.c_uint8)


class Allocator(ctypes.Structure):
    _fields_ = [("alloc", ctypes.c_void_p), ("free", ctypes.c_void_p), ("opaque", ctypes.c_void_p)]


class Settings(ctypes.Structure):
    _fields_ = [("allocator", Allocator), ("n_threads", ctypes.c_uint),
                ("set_cache_budget", ctypes.c_uint64), ("cpu_level", ctypes.c_int),
                ("reserved", ctypes.c_uint8 * 60)]


class Cost(ctypes.Structure):
    _fields_ = [("output_bytes", ctypes.c_uint64), ("entropy_steps", ctypes.c_uint64),
                ("macs", ctypes.c_uint64), ("working_bytes", ctypes.c_uint64),
                ("reserved", ctypes.c_uint64 * 4)]


class Output(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int), ("data", c_u8p), ("size", ctypes.c_size_t),
                ("width", ctypes.c_uint32), ("height", ctypes.c_uint32),
                ("index", ctypes.c_uint64), ("sample_rate", ctypes.c_uint32),
                ("reserved", ctypes.c_uint8 * 32)]


class DecoderConfig(ctypes.Structure):
    _fields_ = [("capability", ctypes.c_char_p), ("max_cost", ctypes.c_uint64),
                ("set", ctypes.c_void_p), ("dispatch", ctypes.c_void_p),
                ("max_memory", ctypes.c_uint64), ("probe", ctypes.c_void_p),
                ("streaming", ctypes.c_int), ("reserved", ctypes.c_uint8 * 44)]


class Path(ctypes.Structure):
    _fields_ = [("unit", ctypes.c_int), ("backend", ctypes.c_int), ("arithmetic", ctypes.c_int)]


MAX_PATHS = 11  # WAI_DISPATCH_MAX_PATHS


class DispatchOptions(ctypes.Structure):
    _fields_ = [("intent", ctypes.c_char_p), ("pin_tier", ctypes.c_char_p),
                ("offer_n", ctypes.c_size_t), ("offer_paths", ctypes.POINTER(Path)),
                ("reserved", ctypes.c_uint8 * 32)]


class RouteCandidate(ctypes.Structure):
    _fields_ = [("capability", ctypes.c_char_p), ("payload", ctypes.c_char_p),
                ("len", ctypes.c_size_t), ("set", ctypes.c_void_p), ("dispatch", ctypes.c_void_p),
                ("reserved", ctypes.c_uint8 * 32)]


class HyperEncodeResult(ctypes.Structure):
    _fields_ = [("payload", ctypes.POINTER(ctypes.c_uint8)), ("payload_len", ctypes.c_size_t),
                ("h", ctypes.c_uint32), ("w", ctypes.c_uint32), ("coded_h", ctypes.c_uint32),
                ("coded_w", ctypes.c_uint32), ("samples", ctypes.c_uint64), ("sse", ctypes.c_uint64),
                ("z_bytes", ctypes.c_size_t), ("y_bytes", ctypes.c_size_t), ("m", ctypes.c_uint32),
                ("n_z", ctypes.c_uint32), ("z_escapes", ctypes.c_uint64),
                ("y_escapes", ctypes.c_uint64), ("decoded", ctypes.POINTER(ctypes.c_uint8)),
                ("reserved", ctypes.c_uint8 * 32)]


class MlicEncodeResult(ctypes.Structure):
    """wai_mlic_encode_result: wai_hyper_encode_result's fields with the
    slice count k after n_z."""
    _at = [f[0] for f in HyperEncodeResult._fields_].index("n_z") + 1
    _fields_ = HyperEncodeResult._fields_[:_at] + [("k", ctypes.c_uint32)] + HyperEncodeResult._fields_[_at:]


def _sig(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)


vp, sz, i32, u32 = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_uint32
_sig("wai_version", ctypes.c_char_p)
_sig("wai_status_name", ctypes.c_char_p, i32)
_sig("wai_status_meaning", ctypes.c_char_p, i32)
_sig("wai_settings_default", None, ctypes.POINTER(Settings))
_sig("wai_context_create", i32, ctypes.POINTER(Settings), ctypes.POINTER(vp))
_sig("wai_context_destroy", None, vp)
_sig("wai_cpu_level_name", ctypes.c_char_p, ctypes.c_int)
_sig("wai_cpu_level_from_name", ctypes.c_int, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int))
_sig("wai_context_cpu_level", ctypes.c_int, vp)
_sig("wai_webnn_backend", vp)
_sig("wai_context_add_backend", i32, vp, vp)
_sig("wai_set_create", i32, vp, ctypes.POINTER(vp))
_sig("wai_set_pin", i32, vp, ctypes.c_char_p)
_sig("wai_pin_parse", i32, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, sz)
_sig("wai_set_listing_json", i32, vp, ctypes.c_char_p, sz, ctypes.POINTER(sz))
_sig("wai_set_listing_next", i32, ctypes.c_char_p, sz, ctypes.POINTER(sz), ctypes.c_char_p, sz)
_sig("wai_set_destroy", None, vp)
_sig("wai_set_add", i32, vp, ctypes.c_char_p, ctypes.c_char_p, sz)
_sig("wai_set_add_borrowed", i32, vp, ctypes.c_char_p, ctypes.c_char_p, sz)
_sig("wai_decoder_config_default", None, ctypes.POINTER(DecoderConfig))
_sig("wai_decoder_create", i32, vp, ctypes.POINTER(DecoderConfig), ctypes.POINTER(vp))
_sig("wai_decode_route", i32, vp, ctypes.POINTER(DecoderConfig), ctypes.POINTER(RouteCandidate), sz,
     ctypes.POINTER(vp), ctypes.POINTER(sz), ctypes.POINTER(ctypes.c_int))
_sig("wai_dispatch_parse_offer", i32, ctypes.c_char_p, ctypes.POINTER(Path), sz, ctypes.POINTER(sz))
_sig("wai_decoder_destroy", None, vp)
_sig("wai_decoder_capability", ctypes.c_char_p, vp)
_sig("wai_decoder_send", i32, vp, ctypes.c_char_p, sz, ctypes.POINTER(Cost))
_sig("wai_decoder_receive", i32, vp, ctypes.POINTER(Output))
_sig("wai_decoder_skip", i32, vp, ctypes.c_uint64, ctypes.POINTER(ctypes.c_uint64))
_sig("wai_payload_outputs", i32, ctypes.c_char_p, ctypes.c_char_p, sz, ctypes.POINTER(ctypes.c_uint64))
_sig("wai_decoder_dispatch_report", vp, vp)
_sig("wai_decoder_symbols_digest", i32, vp, ctypes.c_uint8 * 32)
_sig("wai_dispatch_report_json_alloc", i32, vp, vp, ctypes.POINTER(ctypes.c_char_p))
_sig("wai_dispatch_report_json_free", None, vp, ctypes.c_char_p)
_sig("wai_output_kind_name", ctypes.c_char_p, i32)
_sig("wai_capability_detect", ctypes.POINTER(ctypes.c_char_p), ctypes.c_char_p, sz)
_sig("wai_capability_find", ctypes.POINTER(ctypes.c_char_p), ctypes.c_char_p)


class Capability(ctypes.Structure):
    """wai_capability (include/wai/wai_format.h)."""
    _fields_ = [("name", ctypes.c_char_p), ("format", ctypes.c_int), ("keyframe", ctypes.c_int),
                ("frame_form", ctypes.c_int), ("registry_class", ctypes.c_char_p),
                ("tier", ctypes.c_char_p), ("set_members", ctypes.c_char_p * 4)]


_sig("wai_capability_count", sz)
_sig("wai_capability_at", ctypes.POINTER(Capability), sz)
_sig("wai_capability_encoder_members", ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(Capability))
_sig("wai_context_program_member", ctypes.c_char_p, vp, ctypes.POINTER(Capability), sz)
_sig("wai_payload_header_json", i32, vp, ctypes.c_char_p, sz, ctypes.c_char_p, sz,
     ctypes.POINTER(sz))
_sig("wai_declared_cost", i32, ctypes.c_char_p, ctypes.c_char_p, sz, ctypes.POINTER(Cost))
_sig("wai_declared_cost_set", i32, vp, ctypes.c_char_p, vp, ctypes.c_char_p, sz,
     ctypes.POINTER(Cost))
_sig("wai_symbols_digest", i32, vp, ctypes.c_char_p, vp, ctypes.c_char_p, sz,
     ctypes.c_uint8 * 32)
_sig("wai_rans_encode_symbols_tables", i32, vp, sz, ctypes.POINTER(ctypes.POINTER(u32)),
     ctypes.POINTER(sz), ctypes.POINTER(ctypes.c_int32), ctypes.POINTER(u32),
     ctypes.POINTER(ctypes.c_int32), sz, ctypes.POINTER(c_u8p), ctypes.POINTER(sz))
_sig("wai_rans_decode_symbols_tables", i32, vp, sz, ctypes.POINTER(ctypes.POINTER(u32)),
     ctypes.POINTER(sz), ctypes.POINTER(ctypes.c_int32), ctypes.POINTER(u32), ctypes.c_char_p,
     sz, ctypes.POINTER(ctypes.c_int32), sz)
_sig("wai_write_free", None, vp, vp)
_sig("wai_hyper_encode", i32, vp, vp, ctypes.c_char_p, u32, u32, vp,
     ctypes.POINTER(HyperEncodeResult))
_sig("wai_hyper_encode_result_free", None, vp, ctypes.POINTER(HyperEncodeResult))
_sig("wai_mlic_encode", i32, vp, vp, ctypes.c_char_p, u32, u32, vp,
     ctypes.POINTER(MlicEncodeResult))
_sig("wai_mlic_encode_result_free", None, vp, ctypes.POINTER(MlicEncodeResult))
