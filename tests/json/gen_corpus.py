#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Writes the strict-JSON corpus: tests/json/accept/*.json and
tests/json/reject/*.json with an index.txt in each directory.

accept/index.txt lists one file per line; every one must parse.
reject/index.txt lines are "FILE EXPECTED_ERROR"; each file has one fault.
Run from anywhere: python3 tests/json/gen_corpus.py (stdlib only)."""

import os

HERE = os.path.dirname(os.path.abspath(__file__))

ACCEPT = [
    # literals
    ("lit_null", b"null"),
    ("lit_true", b"true"),
    ("lit_false", b"false"),
    ("lit_in_array", b"[null,true,false]"),
    # numbers
    ("num_zero", b"0"),
    ("num_neg_zero", b"-0"),
    ("num_int", b"123"),
    ("num_neg_int", b"-123"),
    ("num_frac", b"1.5"),
    ("num_neg_frac", b"-0.5"),
    ("num_zero_frac", b"0.0"),
    ("num_exp", b"1e5"),
    ("num_exp_upper", b"1E5"),
    ("num_exp_plus", b"1e+5"),
    ("num_exp_minus", b"1e-5"),
    ("num_exp_zero_digits", b"1e007"),
    ("num_zero_exp", b"0e0"),
    ("num_neg_zero_exp", b"-0E-0"),
    ("num_frac_exp", b"1.25e-3"),
    ("num_long_frac", b"3.14159265358979323846264338327950288"),
    ("num_huge_exp", b"1e999999999999999999999"),
    ("num_i64_max", b"9223372036854775807"),
    ("num_i64_min", b"-9223372036854775808"),
    ("num_i64_max_plus1", b"9223372036854775808"),
    ("num_i64_min_minus1", b"-9223372036854775809"),
    ("num_u64_max", b"18446744073709551615"),
    ("num_u64_max_plus1", b"18446744073709551616"),
    ("num_huge_int", b"99999999999999999999999"),
    ("num_huge_neg_int", b"-99999999999999999999999"),
    ("num_1000_digits", b"1" + b"0" * 999),
    ("num_in_array_ws", b"[ 1 , -2 , 3.5 , 4e1 ]"),
    ("num_i32_limits", b"[2147483647,-2147483648,2147483648,-2147483649]"),
    # strings
    ("str_empty", b'""'),
    ("str_ascii", b'"hello, world"'),
    ("str_all_escapes", b'"\\"\\\\\\/\\b\\f\\n\\r\\t"'),
    ("str_u_lower", b'"\\u00e9\\u00ff"'),
    ("str_u_upper", b'"\\u00E9\\u00FF"'),
    ("str_u0000", b'"a\\u0000b"'),
    ("str_u_ffff", b'"\\uFFFF"'),
    ("str_u_e000", b'"\\uE000"'),
    ("str_surrogate_pair", b'"\\uD83D\\uDE00"'),
    ("str_surrogate_pair_lower", b'"\\ud83d\\ude00"'),
    ("str_surrogate_pair_max", b'"\\uDBFF\\uDFFF"'),
    ("str_surrogate_pair_min", b'"\\uD800\\uDC00"'),
    ("str_utf8_2byte", '"\u00e9\u07ff\u0080"'.encode("utf-8")),
    ("str_utf8_3byte", '"\u20ac\u0800\uffff\ud7ff\ue000"'.encode("utf-8", "surrogatepass")),
    ("str_utf8_4byte", '"\U0001F600\U00010000"'.encode("utf-8")),
    ("str_utf8_max", b'"\xf4\x8f\xbf\xbf"'),
    ("str_del_raw", b'"\x7f"'),
    ("str_slash_raw", b'"/"'),
    ("str_in_array", b'["a","b",""]'),
    # arrays and objects
    ("arr_empty", b"[]"),
    ("arr_empty_ws", b"[ \t\n\r]"),
    ("arr_nested", b"[[],[[]],[[],[]]]"),
    ("arr_mixed", b'[1,"a",null,true,false,{},[],{"k":[1,2]}]'),
    ("obj_empty", b"{}"),
    ("obj_empty_ws", b"{ \t\n\r}"),
    ("obj_simple", b'{"a":1,"b":"x","c":null}'),
    ("obj_ws_everywhere", b' \t\r\n{ "a" : 1 , "b" :\n[ 2 ,3 ] }\r\n\t '),
    ("obj_nested_same_key", b'{"a":{"a":{"a":1}}}'),
    ("obj_siblings_same_key", b'[{"a":1},{"a":2}]'),
    ("obj_inner_reuses_outer", b'{"a":1,"b":{"a":2,"b":3}}'),
    ("obj_keys_case", b'{"a":1,"A":2}'),
    ("obj_keys_prefix", b'{"a":1,"ab":2,"abc":3}'),
    ("obj_key_empty", b'{"":1}'),
    ("obj_key_empty_and_nul", b'{"":1,"\\u0000":2,"\\u0000\\u0000":3}'),
    ("obj_key_escaped", b'{"\\u0061":1,"b":2}'),
    ("obj_many_distinct", b"{" + b",".join(b'"k%d":%d' % (i, i) for i in range(100)) + b"}"),
    ("obj_many_prefix_keys", b"{" + b",".join(b'"%s":0' % (b"a" * i) for i in range(40)) + b"}"),
    # whitespace and top level
    ("ws_around_scalar", b" \t\n\r1 \t\n\r"),
    ("ws_trailing_newline", b'{"a":[1]}\n'),
    ("top_string", b'"top"'),
    # depth
    ("depth_64_arrays", b"[" * 64 + b"]" * 64),
    ("depth_64_objects", b'{"a":' * 63 + b"{}" + b"}" * 63),
    ("depth_64_mixed", b'[{"a":' * 32 + b"0" + b"}]" * 32),
    ("depth_64_with_value", b"[" * 63 + b'[1,"x",null]' + b"]" * 63),
    ("depth_64_objects_full", b'{"a":' * 64 + b"1" + b"}" * 64),
]

DUP_BIG = b"{" + b",".join(b'"k%d":%d' % (i, i) for i in range(30)) + b',"k17":0}'

REJECT = [
    # empty and byte-order marks
    ("empty", b"", "SYNTAX"),
    ("ws_only", b" \t\n\r", "SYNTAX"),
    ("bom", b"\xef\xbb\xbf{}", "UTF8"),
    ("bom_only", b"\xef\xbb\xbf", "UTF8"),
    ("bom_before_number", b"\xef\xbb\xbf1", "UTF8"),
    ("bom_after_ws", b" \xef\xbb\xbf1", "SYNTAX"),
    # literals
    ("lit_tru", b"tru", "SYNTAX"),
    ("lit_True", b"True", "SYNTAX"),
    ("lit_NULL", b"NULL", "SYNTAX"),
    ("lit_nul", b"nul", "SYNTAX"),
    ("lit_fals", b"[fals]", "SYNTAX"),
    ("lit_truex", b"truex", "SYNTAX"),
    ("lit_nullnull", b"nullnull", "SYNTAX"),
    ("lit_nan", b"NaN", "SYNTAX"),
    ("lit_infinity", b"Infinity", "SYNTAX"),
    ("lit_neg_infinity", b"-Infinity", "SYNTAX"),
    ("lit_undefined", b"undefined", "SYNTAX"),
    # numbers
    ("num_plus", b"+1", "SYNTAX"),
    ("num_leading_zero", b"01", "SYNTAX"),
    ("num_double_zero", b"00", "SYNTAX"),
    ("num_neg_leading_zero", b"-01", "SYNTAX"),
    ("num_leading_zero_in_array", b"[01]", "SYNTAX"),
    ("num_dot_first", b".5", "SYNTAX"),
    ("num_neg_dot_first", b"-.5", "SYNTAX"),
    ("num_dot_last", b"1.", "SYNTAX"),
    ("num_dot_last_in_array", b"[1.]", "SYNTAX"),
    ("num_dot_exp", b"1.e5", "SYNTAX"),
    ("num_exp_empty", b"1e", "SYNTAX"),
    ("num_exp_upper_empty", b"1E", "SYNTAX"),
    ("num_exp_sign_only", b"1e+", "SYNTAX"),
    ("num_exp_minus_only", b"[1e-]", "SYNTAX"),
    ("num_exp_frac", b"1e1.5", "SYNTAX"),
    ("num_two_dots", b"1.2.3", "SYNTAX"),
    ("num_hex", b"0x10", "SYNTAX"),
    ("num_minus_only", b"-", "SYNTAX"),
    ("num_minus_in_array", b"[-]", "SYNTAX"),
    ("num_minus_space", b"- 1", "SYNTAX"),
    ("num_double_minus", b"--1", "SYNTAX"),
    ("num_letter_after", b"1x", "SYNTAX"),
    ("num_neg_nan", b"-NaN", "SYNTAX"),
    ("num_comma_decimal", b"1,5", "TRAILING"),
    ("num_then_bracket", b"1[", "TRAILING"),
    ("num_non_ascii_after", b"1\xc3\xa9", "SYNTAX"),
    ("num_underscore", b"1_000", "SYNTAX"),
    # strings
    ("str_unterminated", b'"abc', "SYNTAX"),
    ("str_unterminated_escape", b'"abc\\', "SYNTAX"),
    ("str_unterminated_quote_escaped", b'"abc\\"', "SYNTAX"),
    ("str_single_quotes", b"'a'", "SYNTAX"),
    ("str_ctrl_nul", b'"a\x00b"', "SYNTAX"),
    ("str_ctrl_01", b'"\x01"', "SYNTAX"),
    ("str_ctrl_1f", b'"\x1f"', "SYNTAX"),
    ("str_ctrl_tab", b'"a\tb"', "SYNTAX"),
    ("str_ctrl_newline", b'"a\nb"', "SYNTAX"),
    ("str_ctrl_cr", b'"a\rb"', "SYNTAX"),
    ("str_escape_a", b'"\\a"', "SYNTAX"),
    ("str_escape_x", b'"\\x41"', "SYNTAX"),
    ("str_escape_squote", b'"\\\'"', "SYNTAX"),
    ("str_escape_zero", b'"\\0"', "SYNTAX"),
    ("str_escape_U_upper", b'"\\U0041"', "SYNTAX"),
    ("str_escape_newline", b'"\\\n"', "SYNTAX"),
    ("str_escape_u_short", b'"\\u12"', "SYNTAX"),
    ("str_escape_u_nonhex", b'"\\u12G4"', "SYNTAX"),
    ("str_escape_u_at_end", b'"\\u00', "SYNTAX"),
    ("str_escape_u_space", b'"\\u 123"', "SYNTAX"),
    # lone surrogate escapes
    ("sur_lone_high", b'"\\uD800"', "UTF8"),
    ("sur_lone_high_max", b'"\\uDBFF"', "UTF8"),
    ("sur_lone_low", b'"\\uDC00"', "UTF8"),
    ("sur_lone_low_max", b'"\\uDFFF"', "UTF8"),
    ("sur_high_then_ascii", b'"\\uD800\\u0041"', "UTF8"),
    ("sur_high_then_high", b'"\\uD800\\uD800"', "UTF8"),
    ("sur_high_then_char", b'"\\uD800x"', "UTF8"),
    ("sur_high_then_escape_n", b'"\\uD800\\n"', "UTF8"),
    ("sur_reversed", b'"\\uDC00\\uD800"', "UTF8"),
    ("sur_high_in_key", b'{"\\uD83D":1}', "UTF8"),
    # UTF-8 in strings
    ("utf8_overlong2_c0", b'"\xc0\x80"', "UTF8"),
    ("utf8_overlong2_c1", b'"\xc1\xbf"', "UTF8"),
    ("utf8_overlong3_min", b'"\xe0\x80\x80"', "UTF8"),
    ("utf8_overlong3_max", b'"\xe0\x9f\xbf"', "UTF8"),
    ("utf8_overlong4_min", b'"\xf0\x80\x80\x80"', "UTF8"),
    ("utf8_overlong4_max", b'"\xf0\x8f\xbf\xbf"', "UTF8"),
    ("utf8_surrogate_d800", b'"\xed\xa0\x80"', "UTF8"),
    ("utf8_surrogate_dfff", b'"\xed\xbf\xbf"', "UTF8"),
    ("utf8_surrogate_pair_cesu", b'"\xed\xa0\xbd\xed\xb8\x80"', "UTF8"),
    ("utf8_above_max_f4", b'"\xf4\x90\x80\x80"', "UTF8"),
    ("utf8_above_max_f5", b'"\xf5\x80\x80\x80"', "UTF8"),
    ("utf8_above_max_f7", b'"\xf7\xbf\xbf\xbf"', "UTF8"),
    ("utf8_5byte", b'"\xf8\x88\x80\x80\x80"', "UTF8"),
    ("utf8_6byte", b'"\xfc\x84\x80\x80\x80\x80"', "UTF8"),
    ("utf8_byte_fe", b'"\xfe"', "UTF8"),
    ("utf8_byte_ff", b'"\xff"', "UTF8"),
    ("utf8_trunc2", b'"\xc3"', "UTF8"),
    ("utf8_trunc3", b'"\xe2\x82"', "UTF8"),
    ("utf8_trunc4", b'"\xf0\x9f\x98"', "UTF8"),
    ("utf8_trunc_at_eof", b'"\xc3', "UTF8"),
    ("utf8_trunc4_at_eof", b'"\xf0\x9f\x98', "UTF8"),
    ("utf8_stray_cont_80", b'"\x80"', "UTF8"),
    ("utf8_stray_cont_bf", b'"a\xbfb"', "UTF8"),
    ("utf8_bad_cont2", b'"\xc3\x41"', "UTF8"),
    ("utf8_bad_cont3", b'"\xe2\x28\xa1"', "UTF8"),
    ("utf8_bad_cont4", b'"\xf0\x9f\x28\x80"', "UTF8"),
    ("utf8_in_key", b'{"\xc0\xaf":1}', "UTF8"),
    # non-ASCII and odd whitespace outside strings
    ("outside_nonascii_value", b"\xc3\xa9", "SYNTAX"),
    ("outside_nbsp", b"[1,\xc2\xa02]", "SYNTAX"),
    ("outside_invalid_byte", b"[\xff]", "SYNTAX"),
    ("ws_formfeed", b"[1,\x0c2]", "SYNTAX"),
    ("ws_vtab", b"\x0b1", "SYNTAX"),
    ("ws_nul", b"1\x00", "TRAILING"),
    # arrays
    ("arr_unterminated", b"[", "SYNTAX"),
    ("arr_unterminated_value", b"[1", "SYNTAX"),
    ("arr_unterminated_comma", b"[1,", "SYNTAX"),
    ("arr_missing_comma", b"[1 2]", "SYNTAX"),
    ("arr_trailing_comma", b"[1,]", "SYNTAX"),
    ("arr_leading_comma", b"[,1]", "SYNTAX"),
    ("arr_double_comma", b"[1,,2]", "SYNTAX"),
    ("arr_only_comma", b"[,]", "SYNTAX"),
    ("arr_close_only", b"]", "SYNTAX"),
    ("arr_wrong_close", b"[1}", "SYNTAX"),
    ("arr_colon", b"[1:2]", "SYNTAX"),
    # objects
    ("obj_unterminated", b"{", "SYNTAX"),
    ("obj_unterminated_key", b'{"a"', "SYNTAX"),
    ("obj_unterminated_colon", b'{"a":', "SYNTAX"),
    ("obj_unterminated_value", b'{"a":1', "SYNTAX"),
    ("obj_unterminated_comma", b'{"a":1,', "SYNTAX"),
    ("obj_missing_colon", b'{"a" 1}', "SYNTAX"),
    ("obj_double_colon", b'{"a"::1}', "SYNTAX"),
    ("obj_equals", b'{"a"=1}', "SYNTAX"),
    ("obj_missing_value", b'{"a":}', "SYNTAX"),
    ("obj_missing_comma", b'{"a":1 "b":2}', "SYNTAX"),
    ("obj_trailing_comma", b'{"a":1,}', "SYNTAX"),
    ("obj_leading_comma", b'{,"a":1}', "SYNTAX"),
    ("obj_key_only", b'{"a"}', "SYNTAX"),
    ("obj_key_number", b"{1:1}", "SYNTAX"),
    ("obj_key_bare", b"{a:1}", "SYNTAX"),
    ("obj_key_null", b"{null:1}", "SYNTAX"),
    ("obj_key_true", b"{true:1}", "SYNTAX"),
    ("obj_key_array", b"{[]:1}", "SYNTAX"),
    ("obj_key_object", b"{{}:1}", "SYNTAX"),
    ("obj_key_single_quoted", b"{'a':1}", "SYNTAX"),
    ("obj_value_single_quoted", b"{\"a\":'b'}", "SYNTAX"),
    ("obj_wrong_close", b'{"a":1]', "SYNTAX"),
    ("obj_close_only", b"}", "SYNTAX"),
    # comments
    ("comment_line_before", b"// c\n1", "SYNTAX"),
    ("comment_block_before", b"/* c */ 1", "SYNTAX"),
    ("comment_line_after", b"1 // c", "TRAILING"),
    ("comment_in_array", b"[1 /* c */]", "SYNTAX"),
    ("comment_hash", b"# c\n1", "SYNTAX"),
    # depth
    ("depth_65_arrays", b"[" * 65 + b"]" * 65, "DEPTH"),
    ("depth_65_objects", b'{"a":' * 64 + b"{}" + b"}" * 64, "DEPTH"),
    ("depth_65_mixed", b'[{"a":' * 32 + b"[]" + b"}]" * 32, "DEPTH"),
    ("depth_65_unclosed", b"[" * 65, "DEPTH"),
    ("depth_1000_arrays", b"[" * 1000 + b"]" * 1000, "DEPTH"),
    # duplicate names
    ("dup_plain", b'{"a":1,"a":2}', "DUPLICATE"),
    ("dup_escaped", b'{"a":1,"\\u0061":2}', "DUPLICATE"),
    ("dup_escaped_both", b'{"\\u0061":1,"\\u0061":2}', "DUPLICATE"),
    ("dup_solidus", b'{"\\/":1,"/":2}', "DUPLICATE"),
    ("dup_pair_vs_raw", '{"\U0001F600":1,"\\uD83D\\uDE00":2}'.encode("utf-8"), "DUPLICATE"),
    ("dup_not_adjacent", b'{"a":1,"b":2,"a":3}', "DUPLICATE"),
    ("dup_empty_key", b'{"":1,"":2}', "DUPLICATE"),
    ("dup_nul_key", b'{"\\u0000":1,"\\u0000":2}', "DUPLICATE"),
    ("dup_different_types", b'{"a":[],"a":{}}', "DUPLICATE"),
    ("dup_nested", b'{"x":{"a":1,"a":2}}', "DUPLICATE"),
    ("dup_in_array_element", b'[{"a":1},{"b":1,"b":1}]', "DUPLICATE"),
    ("dup_large_object", DUP_BIG, "DUPLICATE"),
    # trailing content
    ("trail_second_number", b"1 2", "TRAILING"),
    ("trail_second_object", b"{} {}", "TRAILING"),
    ("trail_garbage", b"[] x", "TRAILING"),
    ("trail_second_string", b'"a" "b"', "TRAILING"),
    ("trail_string_adjacent", b'"a"x', "TRAILING"),
    ("trail_second_null", b"null null", "TRAILING"),
    ("trail_comma", b"1 ,", "TRAILING"),
    ("trail_close_bracket", b"[1]]", "TRAILING"),
    ("trail_close_brace", b"{}}", "TRAILING"),
    ("trail_nul_byte", b"{}\x00", "TRAILING"),
    ("trail_literal_then_string", b'true"a"', "TRAILING"),
    ("trail_after_ws_non_ascii", b"1 \xc3\xa9", "TRAILING"),
]


def write_dir(name, entries, with_code):
    d = os.path.join(HERE, name)
    os.makedirs(d, exist_ok=True)
    lines = []
    seen = set()
    for entry in entries:
        stem, data = entry[0], entry[1]
        assert stem not in seen, stem
        seen.add(stem)
        fname = stem + ".json"
        with open(os.path.join(d, fname), "wb") as f:
            f.write(data)
        lines.append("%s WAI_JSON_E_%s" % (fname, entry[2]) if with_code else fname)
    with open(os.path.join(d, "index.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    write_dir("accept", ACCEPT, False)
    write_dir("reject", REJECT, True)
    print("accept: %d, reject: %d" % (len(ACCEPT), len(REJECT)))
