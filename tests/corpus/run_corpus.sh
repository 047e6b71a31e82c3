#!/bin/sh
# Runs every real Triton 3.6 / H100 case under tests/data/corpus with ttref and
# compares with the GPU's outputs (see check_corpus.py). TAP output.
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
exec "$PY" "${TTREF_SRCDIR:-.}/tests/corpus/check_corpus.py" "${TTREF_TEST_DATA:-tests/data}/corpus"
