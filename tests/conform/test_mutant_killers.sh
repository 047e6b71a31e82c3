#!/bin/sh
# The shipped mutation score stays whole (TAP): every built-in mutant
# (conformance/conform_mutant_list.h) has a killing item in
# conformance/mutant_killers.txt (written by scripts/mutation_score.py from a
# full `ttref conform SUITE --mutants` run), and rerunning each mutant on its
# item alone still kills it: a mutant that a change lets survive, or a new
# mutant without a killer, fails here in seconds.
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
BIN=$(tl_abs "${TTREF_BIN:-./ttref}")
SRC=${TTREF_SRCDIR:-.}
KILLERS=$SRC/conformance/mutant_killers.txt
tl_tmpdir test_mutant_killers_sh; T=$tmp
SUITES="core ops kernels traced"
echo "1..6"

"$BIN" conform --list-mutants | awk '{print $1}' | sort >"$T/all"
grep -v '^#' "$KILLERS" | awk '{print $1}' | sort >"$T/listed"
if [ -s "$T/all" ] && cmp -s "$T/all" "$T/listed"; then
  ok "every built-in mutant ($(wc -l <"$T/all")) has exactly one killing item in mutant_killers.txt"
else
  notok "every built-in mutant has exactly one killing item in mutant_killers.txt" "$(diff "$T/all" "$T/listed" | head -5)"
fi

for s in $SUITES; do
  # the suite's mutants and items: an ERE of the exact item ids ([, ], . escaped)
  muts=$(awk -v s="$s" '$2 == s {print $1}' "$KILLERS" | paste -sd, -)
  if [ -z "$muts" ]; then
    ok "suite $s: holds no killing item of mutant_killers.txt (nothing to rerun)"
    continue
  fi
  k=$(echo "$muts" | tr ',' '\n' | wc -l)
  pat=$(awk -v s="$s" '$2 == s {print $3}' "$KILLERS" | sort -u | sed 's/[].[]/\\&/g; s/^/^/; s/$/$/' | paste -sd'|' -)
  "$BIN" conform "$SRC/conformance/suite/$s" --mutants "$muts" --filter "$pat" --report-dir "$T/$s" -j 2 --no-progress \
    >"$T/$s.out" 2>&1
  rc=$?
  if [ $rc -eq 0 ] && grep -q "^mutation score: $k of $k mutants killed" "$T/$s.out"; then
    ok "suite $s: all $k of its mutants are killed by their items in mutant_killers.txt"
  else
    notok "suite $s: all $k of its mutants are killed by their items in mutant_killers.txt" "rc=$rc $(tail -5 "$T/$s.out")"
  fi
done

# the killers are what the score credits: an item that targets its mutant wherever one catches it
untargeted=0
while read -r m s id; do
  case $m in '#'*|'') continue ;; esac
  c=${id%%\[*}
  grep -q "mutant:$m[],]" "$SRC/conformance/suite/$s/$c.yaml" 2>/dev/null || untargeted=$((untargeted + 1))
done <"$KILLERS"
if [ $untargeted -eq 0 ]; then ok "every killing item's case targets its mutant (a mutant:NAME tag)"
else notok "every killing item's case targets its mutant (a mutant:NAME tag)" "$untargeted killer(s) without the tag"; fi
[ $fail -eq 0 ]
