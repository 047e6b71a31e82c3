#!/bin/sh
# render_report.sh REPORT_DIR OUT.png: checks that REPORT_DIR/report.html (from
# `ttref conform --report-dir`) is self-contained and renders in headless
# Chromium (Debian's `chromium`): the rendered DOM has the results <table> with
# a row per journaled item, and the screenshot OUT.png is a real page, not a
# blank one. Exit 0 when all holds; 1 with the reason otherwise.
set -u
if [ $# -ne 2 ]; then
  echo "usage: $0 REPORT_DIR OUT.png" >&2
  exit 2
fi
fail() { echo "render_report: FAILED: $*" >&2; exit 1; }
dir=$(cd "$1" 2>/dev/null && pwd) || fail "no report directory '$1'"
html=$dir/report.html
png=$2
[ -s "$html" ] || fail "no $html"
[ -s "$dir/journal.jsonl" ] || fail "no $dir/journal.jsonl"
CHROMIUM=${CHROMIUM:-chromium}
command -v "$CHROMIUM" >/dev/null 2>&1 || fail "no '$CHROMIUM' (Debian: apt-get install chromium)"
PY=
for p in /usr/bin/python3 python3; do
  command -v "$p" >/dev/null 2>&1 && { PY=$p; break; }
done
[ -n "$PY" ] || fail "no python3"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/render_report.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# self-contained: nothing may be fetched from a file or network URL
if grep -Eiq '<(link|script|img|iframe|object|embed|base)[ >]|[ "](src|href|srcset)=|url\(|@import' "$html"; then
  fail "report.html refers to an external resource: $(grep -Eio '<(link|script|img|iframe|object|embed|base)[ >]|[ "](src|href|srcset)=[^ >]*|url\([^)]*\)|@import[^;]*' "$html" | head -3 | tr '\n' ' ')"
fi

chrome() { # chrome ARGS... URL: one headless run with a fresh profile, no network services
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --disable-dev-shm-usage \
    --user-data-dir="$(mktemp -d "$tmp/profile.XXXXXX")" "$@"
}

# 1. the rendered DOM has the results table with a row per item (plus the header row)
chrome --dump-dom "file://$html" >"$tmp/dom.html" 2>"$tmp/dom.err" || fail "chromium --dump-dom failed: $(tail -3 "$tmp/dom.err")"
items=$(wc -l <"$dir/journal.jsonl")
"$PY" - "$tmp/dom.html" "$items" <<'PY' || fail "the rendered DOM lacks the results table rows"
import sys
from html.parser import HTMLParser

class Rows(HTMLParser):
    def __init__(self):
        super().__init__()
        self.depth = 0      # nesting of <table> inside the results table
        self.rows = 0
        self.found = False
        self.matrix = False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("id") == "matrix":
            self.matrix = True
        if tag == "table" and (self.depth or a.get("id") == "results"):
            self.found = True
            self.depth += 1
        elif tag == "tr" and self.depth == 1:
            self.rows += 1
    def handle_endtag(self, tag):
        if tag == "table" and self.depth:
            self.depth -= 1

p = Rows()
p.feed(open(sys.argv[1], encoding="utf-8").read())
items = int(sys.argv[2])
print("render_report: rendered DOM: results table %s, %d rows for %d items, op x dtype matrix %s"
      % ("found" if p.found else "MISSING", p.rows, items, "found" if p.matrix else "MISSING"))
sys.exit(0 if p.found and p.matrix and p.rows >= items + 1 else 1)
PY

# 2. the screenshot, and a blank page's for scale
chrome --screenshot="$tmp/page.png" --window-size=1400,2000 --hide-scrollbars "file://$html" >/dev/null 2>"$tmp/shot.err" ||
  fail "chromium --screenshot failed: $(tail -3 "$tmp/shot.err")"
[ -s "$tmp/page.png" ] || fail "chromium wrote no screenshot: $(tail -3 "$tmp/shot.err")"
cp "$tmp/page.png" "$png" || fail "cannot write $png"
printf '<!DOCTYPE html><html><head><title>blank</title></head><body></body></html>\n' >"$tmp/blank.html"
chrome --screenshot="$tmp/blank.png" --window-size=1400,2000 --hide-scrollbars "file://$tmp/blank.html" >/dev/null 2>&1 ||
  fail "chromium could not screenshot a blank page"
size=$(wc -c <"$png")
blank=$(wc -c <"$tmp/blank.png")
echo "render_report: screenshot $png: $size bytes (a blank page: $blank bytes)"
[ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || fail "$png is not a PNG"
[ "$size" -ge 20000 ] && [ "$size" -ge $((blank * 3)) ] || fail "$png is too small to hold the report"

# 3. with python3-pil: the page is 1400x2000 and really drawn (many colours, much ink)
if "$PY" -c 'import PIL' 2>/dev/null; then
  "$PY" - "$png" <<'PY' || fail "$png does not look like a rendered report"
import sys
from PIL import Image

im = Image.open(sys.argv[1]).convert("RGB")
w, h = im.size
colours = im.getcolors(maxcolors=1 << 20)
ncol = len(colours) if colours is not None else 1 << 20
bg = max(colours)[1] if colours else None
ink = sum(n for n, c in colours if c != bg) / float(w * h) if colours else 1.0
print("render_report: %dx%d pixels, %d colours, %.1f%% not background" % (w, h, ncol, 100 * ink))
sys.exit(0 if (w, h) == (1400, 2000) and ncol >= 16 and ink >= 0.02 else 1)
PY
else
  echo "render_report: python3-pil not installed: pixel checks skipped (size check only)"
fi
echo "render_report: ok"
