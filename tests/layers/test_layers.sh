#!/bin/sh
# The layers of the tree (docs/HACKING.md, "Layers") and the libraries' exports (TAP):
#   0 base     ir/ir_base*.[ch] (allocation, errors, filesystem, YAML) and the public headers ir/ttref*.h
#   1 engine   ir/, interp/            (libttref_core -> libttref)
#   2 harness  conformance/            (libttref_conform_core -> libttref_conform)
#   3 cli      cli/                    (the ttref program)
# A file may include only headers of its own layer or one below; the engine's objects call
# nothing the harness defines; cli/cli_run.c uses the public API alone; libttref.so exports
# exactly the functions ir/ttref.h marks TTREF_API and holds no harness code, and
# libttref_conform.so exports exactly those marked TTREF_CONFORM_API.
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
S=$TTREF_SRCDIR
B=$(dirname "${TTREF_BIN:-./ttref}")
tl_tmpdir test_layers_sh

# layer_of PATH (relative to the source root): the layer number, or nothing outside the four
layer_of() {
  case $1 in
    ir/ir_base*.h | ir/ir_base*.c | ir/ttref.h | ir/ttref_*_list.h) echo 0 ;;
    ir/* | interp/*) echo 1 ;;
    conformance/*) echo 2 ;;
    cli/*) echo 3 ;;
  esac
}

# the layer of every header by its name (#include "name" is found through -I of each folder)
: >"$tmp/headers"
for f in "$S"/ir/*.h "$S"/interp/*.h "$S"/conformance/*.h "$S"/cli/*.h; do
  r=${f#"$S"/}
  echo "${r##*/} $(layer_of "$r") $r" >>"$tmp/headers"
done
check "every header name is unique across ir/ interp/ conformance/ cli/" \
  '[ -z "$(cut -d" " -f1 "$tmp/headers" | sort | uniq -d)" ]' "$(cut -d' ' -f1 "$tmp/headers" | sort | uniq -d)"

# upward includes: FILE:LINE includes a header of a higher layer
: >"$tmp/up"
for f in "$S"/ir/*.[ch] "$S"/interp/*.[ch] "$S"/conformance/*.[ch] "$S"/cli/*.[ch]; do
  r=${f#"$S"/}
  l=$(layer_of "$r")
  grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | while IFS= read -r line; do
    h=$(printf '%s\n' "$line" | sed 's/^[^"]*"\([^"]*\)".*/\1/')
    hl=$(awk -v h="${h##*/}" '$1 == h {print $2 " " $3}' "$tmp/headers")
    [ -n "$hl" ] || continue
    if [ "${hl%% *}" -gt "$l" ]; then echo "$r:${line%%:*}: layer $l includes ${hl#* } (layer ${hl%% *})"; fi
  done >>"$tmp/up"
done
check "no file includes a header of a higher layer (base < engine < harness < cli)" '[ ! -s "$tmp/up" ]' \
  "$(cat "$tmp/up")"

# the engine alone: ir/ and interp/ include no conformance/ or cli/ header (the rule above,
# named for the layer the issue cares about most)
check "ir/ and interp/ include nothing of conformance/ or cli/" \
  '! grep -q "^ir/\|^interp/" "$tmp/up"' "$(grep '^ir/\|^interp/' "$tmp/up")"

# the base layer itself: ir/ir_base*.[ch] include, of ttref's own headers, only ttref.h,
# ttref_status_list.h and each other (plus the generated config.h), so the engine and the harness
# can both stand on it
: >"$tmp/base"
for f in "$S"/ir/ir_base*.[ch]; do
  grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | while IFS= read -r line; do
    h=$(printf '%s\n' "$line" | sed 's/^[^"]*"\([^"]*\)".*/\1/')
    case $h in
      config.h | ttref.h | ttref_status_list.h | ir_base*.h) ;;
      *) echo "${f#"$S"/}:${line%%:*}: includes $h" ;;
    esac
  done >>"$tmp/base"
done
nbase=$(ls "$S"/ir/ir_base*.[ch] | wc -l)
check "ir/ir_base*.[ch] ($nbase files) include no ttref header but ttref.h, ttref_status_list.h and ir_base*.h" \
  '[ "$nbase" -ge 6 ] && [ ! -s "$tmp/base" ]' "$(cat "$tmp/base")"

# cli/cli_run.c (ttref run/check/fmt) is a client of the public API: its own header, ttref.h
# and system headers only
bad=$(grep -h '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$S/cli/cli_run.c" "$S/cli/cli_run.h" |
  sed 's/^[^"]*"\([^"]*\)".*/\1/' | grep -v '^\(config\.h\|cli_run\.h\|ttref\.h\)$')
check "cli/cli_run.c includes only ttref.h (the public API)" '[ -z "$bad" ]' "$bad"

# link level: nothing the engine's objects need is defined by the harness's objects
if [ -f "$B/.libs/libttref_core.a" ] && [ -f "$B/.libs/libttref_conform_core.a" ]; then
  nm -g --defined-only "$B/.libs/libttref_conform_core.a" 2>/dev/null | awk 'NF == 3 {print $3}' | sort -u >"$tmp/harness_defs"
  nm -u "$B/.libs/libttref_core.a" 2>/dev/null | awk 'NF == 2 {print $2}' | sort -u >"$tmp/engine_undef"
  calls=$(comm -12 "$tmp/harness_defs" "$tmp/engine_undef")
  check "the engine's objects call nothing the harness defines" '[ -s "$tmp/harness_defs" ] && [ -z "$calls" ]' \
    "${calls:-no harness symbols found in libttref_conform_core.a}"
else
  ok "# SKIP no .libs/libttref_core.a and .libs/libttref_conform_core.a"
fi

# the export lists of ir/ttref.h
sed -n 's/^TTREF_API [^(]*[ *]\(ttref_[a-z0-9_]*\)(.*/\1/p' "$S/ir/ttref.h" | sort >"$tmp/api"
sed -n 's/^TTREF_CONFORM_API [^(]*[ *]\(ttref_[a-z0-9_]*\)(.*/\1/p' "$S/ir/ttref.h" | sort >"$tmp/capi"
# every function declared at the top level of ttref.h carries one of the macros (one without it
# would be hidden by -fvisibility=hidden and missing from the library)
grep -n '^[a-z_][a-z_0-9 ]*[ *]ttref_[a-z0-9_]*(' "$S/ir/ttref.h" | grep -v ':typedef ' >"$tmp/bare"
check "every function of ttref.h is marked TTREF_API or TTREF_CONFORM_API" \
  '[ ! -s "$tmp/bare" ] && [ -s "$tmp/api" ] && [ -s "$tmp/capi" ]' "$(cat "$tmp/bare")"

# exports: nm -D of each shared library equals its list
exports() { nm -D --defined-only "$1" | awk 'NF == 3 {print $3}' | sort; }
for lib in libttref:api libttref_conform:capi; do
  so=$B/.libs/${lib%%:*}.so
  if [ ! -f "$so" ]; then ok "# SKIP no .libs/${lib%%:*}.so (--disable-shared)"; continue; fi
  exports "$so" >"$tmp/exp"
  nd=$(wc -l <"$tmp/${lib#*:}")
  check "${lib%%:*}.so exports exactly the $nd functions ttref.h marks for it" \
    'cmp -s "$tmp/exp" "$tmp/${lib#*:}"' "$(diff "$tmp/${lib#*:}" "$tmp/exp" | grep '^[<>]' | sed 's/^</declared, not exported:/; s/^>/exported, not declared:/')"
done

# libttref.so holds no harness code at all (local symbols included)
if [ -f "$B/.libs/libttref.so" ] && [ -f "$B/.libs/libttref_conform_core.a" ]; then
  nm "$B/.libs/libttref.so" 2>/dev/null | awk 'NF == 3 {print $3}' | sort -u >"$tmp/engine_all"
  leak=$(comm -12 "$tmp/harness_defs" "$tmp/engine_all" | head -n 8)
  check "libttref.so contains none of the harness's functions" '[ -s "$tmp/engine_all" ] && [ -z "$leak" ]' "$leak"
else
  ok "# SKIP no .libs/libttref.so"
fi
tl_done
